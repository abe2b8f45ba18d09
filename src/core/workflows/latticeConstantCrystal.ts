/**
 * The crystal of a lattice-constant study, whatever it is: an element named with its lattice
 * (fcc Al) or any bulk crystal read from the user's file (NaCl.cif, a wurtzite POSCAR). Its
 * species, formula and symmetry (moyo, from the standardised cell) decide the plan: a cubic
 * crystal gets the isotropic EOS; any other gets a vc-relax at the converged settings and an EOS
 * of the relaxed cell around its volume. Spin and the starting magnetization go per species,
 * as do the pseudopotentials. Lengths in Å.
 */
import { analyseSymmetry, symprecSaid } from '../dft/structure/symmetry';
import type { Structure } from '../dft/types';
import type { StructureFileInput } from './structureFileInput';

/** Species whose crystals are magnetic at ambient conditions often enough to start spin-polarized. */
export const MAGNETIC_SPECIES: ReadonlySet<string> = new Set(['Cr', 'Mn', 'Fe', 'Co', 'Ni', 'Gd']);

/** Anions whose compounds are, by default, taken as insulators (where the k sweep starts; it converges either way). */
const ANIONS: ReadonlySet<string> = new Set(['N', 'O', 'F', 'P', 'S', 'Cl', 'As', 'Se', 'Br', 'Sb', 'Te', 'I']);

/**
 * How the cell is treated. 'isotropic': the EOS scales the cell as given (cubic crystals, and a
 * named hcp at its fixed c/a). 'vc-relax': a variable-cell relaxation at the converged settings,
 * then the EOS of the relaxed cell, scaled isotropically around its volume.
 */
export type CellMethod = 'isotropic' | 'vc-relax';

export interface StudyCrystal {
  species: string[];
  /** Reduced formula in order of appearance (NaCl, ZnO, Mg). */
  formula: string;
  natoms: number;
  spaceGroup: string;
  /** The symmetry tolerance the space group was found at, Å, when the objective set one. */
  symprecAngstrom?: number;
  crystalSystem: string;
  cubic: boolean;
  /** Of the standardised conventional cell as given. */
  aAngstrom: number;
  cOverA: number;
  /** The file it was read from, when it was. */
  source?: { file: string; name: string; sha256: string; format: string };
}

export function speciesOf(s: Structure): string[] {
  return [...new Set(s.symbols)];
}

export function reducedFormula(symbols: string[]): string {
  const counts = new Map<string, number>();
  for (const e of symbols) counts.set(e, (counts.get(e) ?? 0) + 1);
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const z = [...counts.values()].reduce(gcd, 0) || 1;
  return [...counts].map(([e, n]) => `${e}${n / z > 1 ? n / z : ''}`).join('');
}

/** The crystal of a structure file, through its symmetry. */
export function crystalOfFile(input: StructureFileInput): StudyCrystal {
  const s = input.structure;
  const sym = analyseSymmetry(s, s.labels ? { byLabel: true } : {});
  return {
    species: speciesOf(s),
    formula: reducedFormula(s.symbols),
    natoms: s.symbols.length,
    spaceGroup: `${sym.spaceGroup.symbol} (${sym.spaceGroup.number})`,
    ...(s.symprecAngstrom !== undefined ? { symprecAngstrom: s.symprecAngstrom } : {}),
    crystalSystem: sym.spaceGroup.crystalSystem,
    cubic: sym.spaceGroup.crystalSystem === 'Cubic',
    aAngstrom: sym.lattice.aAngstrom,
    cOverA: sym.lattice.cOverA,
    source: { file: input.file, name: input.name, sha256: input.sha256, format: input.format },
  };
}

const NAMED_GROUPS: Record<string, string> = {
  fcc: 'Fm-3m (225)',
  bcc: 'Im-3m (229)',
  diamond: 'Fd-3m (227)',
  sc: 'Pm-3m (221)',
  hcp: 'P6_3/mmc (194)',
  rocksalt: 'Fm-3m (225)',
  zincblende: 'F-43m (216)',
  cesiumchloride: 'Pm-3m (221)',
};

/**
 * The crystal named with its lattice: an element (fcc Al at 4.05 Å), or a binary compound in a
 * two-species prototype (zincblende GaAs at 5.653 Å, `element` a list of cation and anion), whose
 * primitive cell has one of each. `aAngstrom` is of the conventional cell.
 */
export function crystalOfName(element: string | string[], kind: string, aAngstrom: number, cOverA?: number): StudyCrystal {
  const species = typeof element === 'string' ? [element] : element;
  return {
    species,
    formula: species.join(''),
    natoms: kind === 'hcp' || kind === 'diamond' || species.length === 2 ? 2 : 1,
    spaceGroup: NAMED_GROUPS[kind] ?? kind,
    crystalSystem: kind === 'hcp' ? 'Hexagonal' : 'Cubic',
    cubic: kind !== 'hcp',
    aAngstrom,
    cOverA: kind === 'hcp' ? (cOverA ?? Math.sqrt(8 / 3)) : 1,
  };
}

/** Spin-polarized when any species is magnetic. */
export const defaultSpin = (species: string[]): boolean => species.some((s) => MAGNETIC_SPECIES.has(s));

/** The starting magnetization of each magnetic species: one number for all of them, or per species as given. */
export function startingMagnetizations(species: string[], given: number | Record<string, number> | undefined): Record<string, number> {
  if (given !== undefined && typeof given === 'object')
    return Object.fromEntries(species.filter((s) => given[s] !== undefined).map((s) => [s, given[s]!]));
  const value = typeof given === 'number' ? given : 0.5;
  const magnetic = species.filter((s) => MAGNETIC_SPECIES.has(s));
  // A spin-polarized run asked for on a crystal with no magnetic species still needs a start somewhere.
  return Object.fromEntries((magnetic.length ? magnetic : species).map((s) => [s, value]));
}

/** Compounds with an anion start the k sweep as insulators; elements keep their own default. */
export const compoundIsInsulator = (species: string[]): boolean => species.length > 1 && species.some((s) => ANIONS.has(s));

/** The space group as a sentence says it: "Fm-3m (225)", or "Fm-3m (225) at symprec 0.01 Å" when the objective set a tolerance. */
export const spaceGroupSaid = (c: Pick<StudyCrystal, 'spaceGroup' | 'symprecAngstrom'>): string =>
  `${c.spaceGroup}${symprecSaid(c.symprecAngstrom)}`;

/** The study's name in a sentence: "fcc Al", or "NaCl (Fm-3m (225)) from NaCl.cif". */
export function crystalName(c: StudyCrystal, kind?: string): string {
  return c.source ? `${c.formula} (${spaceGroupSaid(c)}) from ${c.source.name}` : `${kind ?? ''} ${c.formula}`.trim();
}

/** What the report says of the method. */
export function cellMethodSentence(method: CellMethod, c: StudyCrystal): string {
  if (method === 'vc-relax') {
    return (
      `${c.formula} is ${c.crystalSystem.toLowerCase()} (${spaceGroupSaid(c)}), so its cell has a shape to relax: a variable-cell relaxation (vc-relax) ` +
      'at the converged settings gave the shape (c/a, angles and internal coordinates), and the EOS series scaled that relaxed cell isotropically ' +
      'around its volume. The fitted V0 is free of the Pulay stress a vc-relax at a finite cutoff leaves; the shape is the relaxed one, stationary ' +
      'to first order at V0, so the lattice parameters follow from V0 and that shape.'
    );
  }
  return c.cubic
    ? `${c.formula} is cubic (${spaceGroupSaid(c)}): the EOS series scaled the cell isotropically, and a follows from V0 through the standardised conventional cell.`
    : `The EOS series scaled the ${c.crystalSystem.toLowerCase()} cell isotropically at its given shape (c/a = ${c.cOverA.toFixed(4)} held fixed).`;
}
