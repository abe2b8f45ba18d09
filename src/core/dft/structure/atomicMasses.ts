/**
 * Standard atomic weights for the ATOMIC_SPECIES card, from the project's element table
 * (src/shared/elements.ts: IUPAC conventional values rounded to 0.01 u). pw.x uses masses
 * only for dynamics; energies and relaxed geometries do not depend on them.
 */
import { elementOf } from '../../../shared/elements';

export function atomicMassAmu(symbol: string): number {
  const e = elementOf(symbol);
  if (e === undefined) {
    throw new Error(
      `no atomic mass for "${symbol}": it is not a chemical symbol (H to Og, capitalised as "Pt"). Use the element of the species.`,
    );
  }
  return e.massAmu;
}
