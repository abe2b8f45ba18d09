/**
 * Adsorbates named by SMILES: the molecules of the table (dft/structure/molecules.ts,
 * with their experimental geometries) under the SMILES that denote them. A general
 * SMILES-to-geometry builder is not part of this build; a SMILES outside the table is
 * refused with the list, and the molecule can be named instead.
 */
import { MOLECULE_NAMES } from '../../dft/structure/molecules';

/** Table name → the canonical SMILES (radicals in brackets, as adsorbates are). */
export const SMILES_OF: Readonly<Record<string, string>> = {
  H: '[H]',
  C: '[C]',
  N: '[N]',
  O: '[O]',
  CO: '[C-]#[O+]',
  NO: '[N]=O',
  N2: 'N#N',
  H2: '[H][H]',
  O2: 'O=O',
  OH: '[OH]',
  NH: '[NH]',
  CH: '[CH]',
  H2O: 'O',
  NH2: '[NH2]',
  CH2: '[CH2]',
  NH3: 'N',
  CH3: '[CH3]',
  NNH: '[N]=N[H]',
};

/** Other spellings a chemist may use for the same molecule. */
const ALIASES: Readonly<Record<string, string>> = {
  'C#O': 'CO',
  '[C]=O': 'CO',
  '[C-]#[O+]': 'CO',
  '[O][H]': 'OH',
  'O[H]': 'OH',
  '[HH]': 'H2',
  '[H]O[H]': 'H2O',
  '[NH]=N': 'NNH',
  'N=[N][H]': 'NNH',
};

export function adsorbateFromSmiles(smiles: string): string | undefined {
  const s = smiles.trim();
  const byCanonical = Object.entries(SMILES_OF).find(([, v]) => v === s)?.[0];
  const name = byCanonical ?? ALIASES[s];
  return name && MOLECULE_NAMES.includes(name) ? name : undefined;
}
