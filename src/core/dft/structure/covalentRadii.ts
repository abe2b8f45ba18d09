/**
 * Covalent radii, Å: B. Cordero, V. Gómez, A. E. Platero-Prats, M. Revés, J. Echeverría,
 * E. Cremades, F. Barragán, S. Alvarez, "Covalent radii revisited", Dalton Trans. 2008,
 * 2832–2838, doi:10.1039/b801115j (Table 2). Where the paper gives several values, C is
 * sp3 and Mn, Fe, Co are low spin, as in ASE's table.
 */
import { DftScienceError } from '../scienceError';

export const COVALENT_RADII_ANGSTROM: Readonly<Record<string, number>> = {
  H: 0.31, He: 0.28, Li: 1.28, Be: 0.96, B: 0.84, C: 0.76, N: 0.71, O: 0.66, F: 0.57, Ne: 0.58,
  Na: 1.66, Mg: 1.41, Al: 1.21, Si: 1.11, P: 1.07, S: 1.05, Cl: 1.02, Ar: 1.06,
  K: 2.03, Ca: 1.76, Sc: 1.7, Ti: 1.6, V: 1.53, Cr: 1.39, Mn: 1.39, Fe: 1.32, Co: 1.26, Ni: 1.24, Cu: 1.32, Zn: 1.22,
  Ga: 1.22, Ge: 1.2, As: 1.19, Se: 1.2, Br: 1.2,
  Rb: 2.2, Sr: 1.95, Y: 1.9, Zr: 1.75, Nb: 1.64, Mo: 1.54, Tc: 1.47, Ru: 1.46, Rh: 1.42, Pd: 1.39, Ag: 1.45, Cd: 1.44,
  In: 1.42, Sn: 1.39, Sb: 1.39, Te: 1.38, I: 1.39,
  Cs: 2.44, Ba: 2.15, Hf: 1.75, Ta: 1.7, W: 1.62, Re: 1.51, Os: 1.44, Ir: 1.41, Pt: 1.36, Au: 1.36, Hg: 1.32,
  Tl: 1.45, Pb: 1.46, Bi: 1.48,
};

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
