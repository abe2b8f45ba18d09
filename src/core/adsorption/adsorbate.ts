/**
 * The adsorbate as the search sees it: a gas-phase template (binding atom first, from the
 * molecule table in dft/structure/molecules.ts), its bonds (covalent radii × 1.35, the
 * dissociation criterion) and each atom's free valence, which sets the coordination the
 * offline planner tries first.
 */
import { covalentRadiusAngstrom } from '../dft/structure/covalentRadii';
import { molecule, type MoleculeTemplate } from '../dft/structure/molecules';
import type { Vec3 } from '../dft/types';

/** Bond criterion within the adsorbate: d < 1.35 (r_a + r_b). */
export const INTRA_ADSORBATE_BOND_FACTOR = 1.35;

const NOMINAL_VALENCE: Record<string, number> = { H: 1, C: 4, N: 3, O: 2, S: 2 };

export interface Adsorbate {
  name: string;
  symbols: string[];
  /** Gas-phase template geometry, Å (atom 0 binds in the upright orientation). */
  positions: Vec3[];
  bonds: [number, number][];
  source: string;
}

export function adsorbateFromTemplate(t: MoleculeTemplate): Adsorbate {
  return {
    name: t.name,
    symbols: [...t.symbols],
    positions: t.positions.map((p) => [...p] as Vec3),
    bonds: bondsOf(t.symbols, t.positions),
    source: t.source,
  };
}

/** An adsorbate from the molecule table by name (H, O, N, C, OH, CO, NH, NNH, ...). */
export function adsorbate(name: string): Adsorbate {
  return adsorbateFromTemplate(molecule(name));
}

export function bondsOf(symbols: string[], positions: Vec3[], factor = INTRA_ADSORBATE_BOND_FACTOR): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < symbols.length; i++) {
    for (let j = i + 1; j < symbols.length; j++) {
      const d = Math.hypot(positions[i]![0] - positions[j]![0], positions[i]![1] - positions[j]![1], positions[i]![2] - positions[j]![2]);
      if (d < factor * (covalentRadiusAngstrom(symbols[i]!) + covalentRadiusAngstrom(symbols[j]!))) out.push([i, j]);
    }
  }
  return out;
}

/** Connected fragments of a bond graph over n atoms (each a sorted list of atom indices). */
export function fragments(n: number, bonds: [number, number][]): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const [a, b] of bonds) parent[find(a)] = find(b);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  return [...groups.values()];
}

/** Heavy (non-hydrogen) atoms; the validator requires binding atoms from these unless there are none. */
export const heavyAtoms = (a: Adsorbate): number[] => a.symbols.flatMap((s, i) => (s !== 'H' ? [i] : []));

/** Valence left for the surface after the bonds inside the adsorbate (single bonds counted). */
export function freeValence(a: Adsorbate, atom: number): number {
  const own = a.bonds.filter(([i, j]) => i === atom || j === atom).length;
  return Math.max(0, (NOMINAL_VALENCE[a.symbols[atom]!] ?? 1) - own);
}

/**
 * Surface coordination the binding atom is expected to prefer: hydrogen and atoms with
 * two or more free valences sit in hollows (4-fold where the facet has them), an atom
 * with one free valence (OH, NH2, CH3) on a bridge, a saturated one on top.
 */
export function preferredCoordination(a: Adsorbate, atom: number): number {
  if (a.symbols[atom] === 'H') return 3;
  const free = freeValence(a, atom);
  if (free >= 3) return 4;
  if (free === 2) return 3;
  if (free === 1) return 2;
  return 1;
}
