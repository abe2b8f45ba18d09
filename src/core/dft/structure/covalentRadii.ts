/**
 * Covalent radii, Å (Cordero et al. 2008, as listed in the project's element table,
 * src/shared/elements.ts), for bond detection and adsorbate placement.
 */
import { allElements } from '../../../shared/elements';
import { DftScienceError } from '../scienceError';

export const COVALENT_RADII_ANGSTROM: Readonly<Record<string, number>> = Object.fromEntries(
  allElements().flatMap((e) => (e.covalentRadiusAngstrom !== undefined ? [[e.symbol, e.covalentRadiusAngstrom]] : [])),
);

export function covalentRadiusAngstrom(symbol: string): number {
  const r = COVALENT_RADII_ANGSTROM[symbol];
  if (r === undefined) {
    throw new DftScienceError(
      `no covalent radius for "${symbol}" in the table (Cordero et al. 2008). Check the element symbol, or pass the adsorption height explicitly.`,
      { symbol },
    );
  }
  return r;
}
