/**
 * A difference of total energies with stoichiometric coefficients, normalised:
 *
 *   ΔE = (Σ_i c_i E_i) / N
 *
 * with N a count (atoms, formula units, vacancies, adsorbates, magnetic atoms) or an area
 * (A per surface × the number of surfaces, Å²). Formation energy per atom, surface energy per
 * area from a slab and its bulk, vacancy and adsorption energies, and the energy of one magnetic
 * order against another are all this. The coefficients must balance every element (what is on
 * the left is on the right), and the energies must share their physical settings; otherwise no
 * number is made and the result says what is wrong. Energies in eV, areas in Å², and surface
 * energies also in J/m².
 */
import { settingsDifferences, type NamedDifference } from './qe/settings';
import type { SettingName } from './settingsComparison';
import type { Cell, PhysicalSettings } from './types';

/** 1 eV/Å² in J/m² (elementary charge 1.602176634e-19 C × 1e20 Å²/m²). */
export const EV_PER_ANGSTROM2_IN_J_PER_M2 = 16.02176634;

export interface EnergyTerm {
  /** What the energy is, for the formula and messages (an artifact reference). */
  label: string;
  coefficient: number;
  energyEv: number;
  /** Atoms of each element in the computed cell. */
  composition: Record<string, number>;
  settings: PhysicalSettings;
  /** The computed cell, Å (k-meshes are compared only between equal cells). */
  cellAngstrom?: Cell;
}

export type Normalisation =
  | { per: 'cell' }
  | { per: 'atom' | 'formula-unit' | 'vacancy' | 'adsorbate' | 'magnetic-atom'; count: number }
  | { per: 'area'; areaAngstrom2: number; surfaces: 1 | 2 };

export interface EnergyDifference {
  ok: true;
  /** Σ c_i E_i, eV. */
  sumEv: number;
  /** The normalised difference: eV, eV/atom, or eV/Å² (per area). */
  value: number;
  unit: 'eV' | 'eV/atom' | 'eV/Å^2';
  /** Per area only: the same in J/m². */
  valueJPerM2?: number;
  /** What the value is per: "formula unit", "atom", "Å² of surface" … */
  per: string;
  /** The divisor N (a count, or the total area in Å²). */
  divisor: number;
  /** The formula in words with every term, its coefficient and its energy. */
  formula: string;
}

export interface EnergyDifferenceRefusal {
  ok: false;
  message: string;
  /** Elements the coefficients leave over (count on the left minus the right). */
  imbalance?: Record<string, number>;
  mismatches?: { between: [string, string]; differences: NamedDifference[] }[];
}

/** Element counts of a list of symbols. */
export function compositionOf(symbols: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of symbols) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/** Σ c_i n_i(element) for every element; a balanced formula leaves all (near) zero. */
export function elementBalance(terms: readonly Pick<EnergyTerm, 'coefficient' | 'composition'>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of terms) for (const [el, n] of Object.entries(t.composition)) out[el] = (out[el] ?? 0) + t.coefficient * n;
  return out;
}

const BALANCE_TOLERANCE = 1e-6;

export const imbalanceOf = (terms: readonly Pick<EnergyTerm, 'coefficient' | 'composition'>[]): Record<string, number> =>
  Object.fromEntries(Object.entries(elementBalance(terms)).filter(([, n]) => Math.abs(n) > BALANCE_TOLERANCE));

/** Area of the surface of a slab cell: |a1 × a2| for the two in-plane vectors (the third is the normal), Å². */
export function surfaceAreaAngstrom2(cell: Cell, pbc: readonly boolean[] = [true, true, false]): number {
  const normal = pbc.findIndex((p) => !p);
  // a slab written with full periodicity has its vacuum along c
  const axis = normal >= 0 ? normal : 2;
  const [i, j] = [0, 1, 2].filter((k) => k !== axis) as [number, number];
  const a = cell[i]!;
  const b = cell[j]!;
  return Math.hypot(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}

const K_SAMPLING: SettingName[] = ['kSpacingPerAngstrom', 'kMesh', 'kShift'];
const sameCell = (a?: Cell, b?: Cell): boolean => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

/**
 * How two energies' settings differ, as the settings-comparable rule sees it: every physical
 * setting, the k-point spacing when both state one, the mesh only between equal cells (a
 * molecule at Γ in a box and a crystal with a mesh rightly differ).
 */
export function termDifferences(a: EnergyTerm, b: EnergyTerm): NamedDifference[] {
  const out = settingsDifferences(a.settings, b.settings, K_SAMPLING);
  const ka = a.settings.kSpacingPerAngstrom;
  const kb = b.settings.kSpacingPerAngstrom;
  if (ka !== undefined && kb !== undefined) {
    if (Math.abs(ka - kb) > 1e-9 * Math.max(Math.abs(ka), 1))
      out.push(...settingsDifferences(a.settings, b.settings).filter((d) => d.setting === 'kSpacingPerAngstrom'));
  } else if (sameCell(a.cellAngstrom, b.cellAngstrom)) {
    out.push(...settingsDifferences(a.settings, b.settings).filter((d) => d.setting === 'kMesh' || d.setting === 'kShift'));
  }
  return out;
}

const PER_WORDS: Record<string, [string, string]> = {
  atom: ['atom', 'atoms'],
  'formula-unit': ['formula unit', 'formula units'],
  vacancy: ['vacancy', 'vacancies'],
  adsorbate: ['adsorbate', 'adsorbates'],
  'magnetic-atom': ['magnetic atom', 'magnetic atoms'],
};

const num = (x: number): string => String(Number(x.toPrecision(10)));
const coefficientText = (c: number, first: boolean): string => {
  const sign = c < 0 ? '− ' : first ? '' : '+ ';
  const m = Math.abs(c);
  return `${sign}${m === 1 ? '' : `${num(m)} × `}`;
};

/** The formula in words: "ΔE = [E(MgO, a-5) − 0.5 × E(Mg2, a-9) …] / 1 formula unit". */
export function formulaText(
  terms: readonly Pick<EnergyTerm, 'coefficient' | 'label' | 'composition'>[],
  n: Normalisation,
  name = 'ΔE',
): string {
  const formula = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([el, k]) => (k === 1 ? el : `${el}${k}`))
      .join('');
  const sum = terms.map((t, i) => `${coefficientText(t.coefficient, i === 0)}E(${formula(t.composition)}, ${t.label})`).join(' ');
  if (n.per === 'cell') return `${name} = ${sum}`;
  if (n.per === 'area') return `${name} = [${sum}] / (${n.surfaces} × A), A = ${num(n.areaAngstrom2)} Å²`;
  const [one, many] = PER_WORDS[n.per]!;
  return `${name} = [${sum}] / ${num(n.count)} ${n.count === 1 ? one : many}`;
}

/**
 * ΔE for balanced terms with comparable settings, or the reason there is none. Throws only for
 * malformed input (no terms, a zero count or area).
 */
export function energyDifference(terms: readonly EnergyTerm[], n: Normalisation, name = 'ΔE'): EnergyDifference | EnergyDifferenceRefusal {
  if (terms.length < 2) throw new Error(`an energy difference needs at least two energies; ${terms.length} given.`);
  if (n.per !== 'cell' && n.per !== 'area' && !(n.count > 0)) throw new Error(`divide by a positive count of ${n.per}s, not ${n.count}.`);
  if (n.per === 'area' && !(n.areaAngstrom2 > 0)) throw new Error(`the surface area must be positive, not ${n.areaAngstrom2} Å².`);
  const imbalance = imbalanceOf(terms);
  if (Object.keys(imbalance).length) {
    const left = Object.entries(imbalance)
      .map(([el, k]) => `${num(k)} ${el}`)
      .join(', ');
    return {
      ok: false,
      imbalance,
      message:
        `the coefficients do not balance the atoms: ${left} left over (Σ c_i × atoms_i must be 0 for every element). ` +
        'Give each reference the coefficient that removes the atoms of the other terms (e.g. −N_slab/N_bulk for the bulk of a slab, −½ for O2 per O).',
    };
  }
  const mismatches: NonNullable<EnergyDifferenceRefusal['mismatches']> = [];
  for (let i = 1; i < terms.length; i++) {
    const d = termDifferences(terms[0]!, terms[i]!);
    if (d.length) mismatches.push({ between: [terms[0]!.label, terms[i]!.label], differences: d });
  }
  if (mismatches.length) {
    return {
      ok: false,
      mismatches,
      message:
        `the energies were computed with different physical settings, so their difference is meaningless: ${mismatches.map((m) => `${m.between[0]} vs ${m.between[1]}: ${m.differences.map((d) => d.description).join(', ')}`).join('; ')}. ` +
        'Compute every energy with one set of settings.',
    };
  }
  const sumEv = terms.reduce((s, t) => s + t.coefficient * t.energyEv, 0);
  const formula = formulaText(terms, n, name);
  if (n.per === 'cell') return { ok: true, sumEv, value: sumEv, unit: 'eV', per: 'cell', divisor: 1, formula };
  if (n.per === 'area') {
    const divisor = n.surfaces * n.areaAngstrom2;
    const value = sumEv / divisor;
    return {
      ok: true,
      sumEv,
      value,
      unit: 'eV/Å^2',
      valueJPerM2: value * EV_PER_ANGSTROM2_IN_J_PER_M2,
      per: 'Å² of surface',
      divisor,
      formula,
    };
  }
  return {
    ok: true,
    sumEv,
    value: sumEv / n.count,
    unit: n.per === 'atom' ? 'eV/atom' : 'eV',
    per: PER_WORDS[n.per]![0],
    divisor: n.count,
    formula,
  };
}
