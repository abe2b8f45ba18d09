/**
 * A lattice constant from an EOS volume depends on the cell: V = a³/4 for the fcc
 * primitive cell, a³/2 for bcc, a³ for a cubic cell, (√3/2)a²c for hcp. The Bravais
 * lattice named in the call must be the one the cell actually has.
 */
import type { Structure, Vec3 } from '../../dft/types';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'lattice-uses-cell-symmetry';

export type CellShape = 'fcc-primitive' | 'bcc-primitive' | 'cubic' | 'hexagonal' | 'other';

const len = (v: Vec3): number => Math.hypot(v[0], v[1], v[2]);
const angleDeg = (a: Vec3, b: Vec3): number =>
  (Math.acos((a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (len(a) * len(b))) * 180) / Math.PI;

export function cellShape(cell: Structure['cell']): CellShape {
  const [a, b, c] = cell.map(len) as Vec3;
  const angles = [angleDeg(cell[1], cell[2]), angleDeg(cell[0], cell[2]), angleDeg(cell[0], cell[1])];
  const near = (x: number, y: number, tol: number) => Math.abs(x - y) <= tol;
  const allEqual = near(a, b, 1e-4 * a) && near(b, c, 1e-4 * a);
  if (allEqual && angles.every((t) => near(t, 60, 0.01))) return 'fcc-primitive';
  if (allEqual && angles.every((t) => near(t, 109.4712, 0.01))) return 'bcc-primitive';
  if (allEqual && angles.every((t) => near(t, 90, 0.01))) return 'cubic';
  if (near(a, b, 1e-4 * a) && near(angles[0]!, 90, 0.01) && near(angles[1]!, 90, 0.01) &&
    (near(angles[2]!, 120, 0.01) || near(angles[2]!, 60, 0.01))) return 'hexagonal';
  return 'other';
}

/** Which cell shapes (and atom counts per cell) each Bravais lattice may be computed from. */
const COMPATIBLE: Record<string, { shape: CellShape; atomsMultipleOf: number }[]> = {
  fcc: [{ shape: 'fcc-primitive', atomsMultipleOf: 1 }, { shape: 'cubic', atomsMultipleOf: 4 }],
  bcc: [{ shape: 'bcc-primitive', atomsMultipleOf: 1 }, { shape: 'cubic', atomsMultipleOf: 2 }],
  diamond: [{ shape: 'fcc-primitive', atomsMultipleOf: 2 }, { shape: 'cubic', atomsMultipleOf: 8 }],
  rocksalt: [{ shape: 'fcc-primitive', atomsMultipleOf: 2 }, { shape: 'cubic', atomsMultipleOf: 8 }],
  sc: [{ shape: 'cubic', atomsMultipleOf: 1 }],
  hcp: [{ shape: 'hexagonal', atomsMultipleOf: 2 }],
};

export const latticeUsesCellSymmetry: TierOneRule = (input) => {
  const bravais = input.call.args.bravais;
  const structure = resolvedArgument(input, 'structure')?.value as Structure | undefined;
  if (typeof bravais !== 'string' || !structure?.cell) return [verdict(RULE, 'pass', ['no Bravais lattice and cell to compare'])];
  const shape = cellShape(structure.cell);
  const natoms = structure.symbols.length;
  const declared = structure.info?.bravais;
  if (typeof declared === 'string' && declared !== bravais) {
    return [verdict(RULE, 'fail', [
      `bravais = "${bravais}" but the structure was built as "${declared}". Use "${declared}": the volume-to-lattice-constant relation depends on it.`,
    ], 'bravais')];
  }
  const options = COMPATIBLE[bravais] ?? [];
  const fits = options.some((o) => o.shape === shape && natoms % o.atomsMultipleOf === 0);
  if (!fits) {
    return [verdict(RULE, 'fail', [
      `bravais = "${bravais}" does not fit the cell: it is ${shape === 'other' ? 'of no cubic or hexagonal shape' : `a ${shape} cell`} with ${natoms} atom(s). ` +
        `A ${bravais} lattice constant needs ${options.map((o) => `a ${o.shape} cell with a multiple of ${o.atomsMultipleOf} atom(s)`).join(' or ') || 'a supported lattice'}.`,
    ], 'bravais')];
  }
  if (bravais === 'hcp' && typeof input.call.args.cOverA !== 'number') {
    return [verdict(RULE, 'fail', ['an hcp lattice constant from a volume needs the c/a ratio: pass cOverA (from the structure or a c/a optimisation).'], 'cOverA')];
  }
  return [verdict(RULE, 'pass', [`${bravais} matches the ${shape} cell with ${natoms} atom(s)`], 'bravais')];
};
