/**
 * The symmetry tolerance (symprec, a distance in Å) and how a sentence states it. A file of its
 * own, without the symmetry library, so a report or an objective can say it without loading moyo.
 */

/**
 * Default tolerance, Å: between spglib's 1e-5 (exact inputs) and pymatgen's 1e-2; finds the
 * symmetry of files written to 4-5 decimals (1/3 as 0.3333) without merging real distortions.
 */
export const DEFAULT_SYMPREC_ANGSTROM = 1e-3;

/**
 * How a sentence says the tolerance a space group was found at: nothing at the default, else
 * " at symprec 0.01 Å" (a reader comparing with spglib or pymatgen needs it).
 */
export const symprecSaid = (symprec: number | undefined): string =>
  symprec === undefined || symprec === DEFAULT_SYMPREC_ANGSTROM ? '' : ` at symprec ${symprec} Å`;
