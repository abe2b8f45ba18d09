/**
 * Clean pw.x input text from data, for inputs the agents generate: namelists in pw.x's
 * order, two-space indentation, one assignment per line, cards with explicit units.
 */
import names from '../defs/names.json';
import type { Structure, Vec3 } from '../../types';
import type { CellUnit, PositionUnit } from './cards';
import { formatFortranNumber, formatFortranValue } from './fortran';

export type NamelistValue = string | number | boolean | { raw: string };

export type KPointsSpec =
  | { kind: 'automatic'; mesh: [number, number, number]; shift?: [number, number, number] }
  | { kind: 'gamma' }
  | { kind: 'list'; unit: 'tpiba' | 'crystal' | 'tpiba_b' | 'crystal_b' | 'tpiba_c' | 'crystal_c'; points: { k: Vec3; weight: number }[] };

export interface PwInputSpec {
  /** Namelist name (any case) -> key ("ecutwfc", "celldm(1)") -> value. CONTROL, SYSTEM and ELECTRONS are always written. */
  namelists: Record<string, Record<string, NamelistValue>>;
  species: { label: string; massAmu: number; pseudopotential: string }[];
  positions: { unit: PositionUnit; atoms: { label: string; position: Vec3; ifPos?: [number, number, number] }[] };
  kPoints: KPointsSpec;
  cell?: { unit: CellUnit; vectors: [Vec3, Vec3, Vec3] };
  hubbard?: { projectors: string; lines: string[] };
  /** Comment lines written at the top (without the "!"). */
  header?: string[];
}

const ALWAYS = ['CONTROL', 'SYSTEM', 'ELECTRONS'];

const literal = (v: NamelistValue) => (typeof v === 'object' ? v.raw : formatFortranValue(v));
const fixed = (x: number) => {
  const s = formatFortranNumber(x);
  return s.startsWith('-') ? s : ` ${s}`;
};
const row = (v: readonly number[]) => v.map(fixed).join('  ');

export function buildPwInput(spec: PwInputSpec, eol = '\n'): string {
  const out: string[] = [];
  for (const h of spec.header ?? []) out.push(`! ${h}`);
  const given = new Map(Object.entries(spec.namelists).map(([k, v]) => [k.toUpperCase(), v]));
  for (const name of given.keys()) {
    if (!names.namelists.includes(name)) {
      throw new Error(`"${name}" is not a pw.x namelist; use one of ${names.namelists.join(', ')}.`);
    }
  }
  for (const name of names.namelists) {
    const vars = given.get(name);
    if (!vars && !ALWAYS.includes(name)) continue;
    out.push(`&${name}`);
    for (const [key, value] of Object.entries(vars ?? {})) out.push(`  ${key} = ${literal(value)}`);
    out.push('/');
  }
  out.push('ATOMIC_SPECIES');
  for (const s of spec.species) out.push(`  ${s.label}  ${formatFortranNumber(s.massAmu)}  ${s.pseudopotential}`);
  if (spec.cell) {
    out.push(`CELL_PARAMETERS {${spec.cell.unit}}`);
    for (const v of spec.cell.vectors) out.push(`  ${row(v)}`);
  }
  out.push(`ATOMIC_POSITIONS {${spec.positions.unit}}`);
  for (const a of spec.positions.atoms) {
    out.push(`  ${a.label}  ${row(a.position)}${a.ifPos ? `  ${a.ifPos.join(' ')}` : ''}`);
  }
  const k = spec.kPoints;
  if (k.kind === 'automatic') {
    out.push('K_POINTS {automatic}', `  ${[...k.mesh, ...(k.shift ?? [0, 0, 0])].join(' ')}`);
  } else if (k.kind === 'gamma') {
    out.push('K_POINTS {gamma}');
  } else {
    out.push(`K_POINTS {${k.unit}}`, `  ${k.points.length}`);
    for (const p of k.points) out.push(`  ${row(p.k)}  ${formatFortranNumber(p.weight)}`);
  }
  if (spec.hubbard) {
    out.push(`HUBBARD {${spec.hubbard.projectors}}`, ...spec.hubbard.lines.map((l) => `  ${l}`));
  }
  return out.join(eol) + eol;
}

export interface StructureInputOptions {
  /** Namelists as in PwInputSpec; ibrav, nat and ntyp are set from the structure. */
  namelists: Record<string, Record<string, NamelistValue>>;
  /** Element (or species label) -> mass and pseudopotential file. */
  species: Record<string, { massAmu: number; pseudopotential: string }>;
  kPoints: KPointsSpec;
  header?: string[];
}

/**
 * Label of the species that holds an element's fixed atoms when the element also has moving
 * atoms: the element with a digit (pw.x reads "Pt1" as platinum; labels are at most 3 characters).
 */
export function fixedSpeciesLabel(element: string): string {
  return `${element}1`;
}

/**
 * A pw.x input for a Structure (Å): ibrav = 0, CELL_PARAMETERS and ATOMIC_POSITIONS in
 * angstrom, fixed atoms written with if_pos 0 0 0.
 *
 * Fixed atoms of an element that also has moving atoms get a species of their own (same mass
 * and file, label from fixedSpeciesLabel). pw.x finds the symmetry of the positions alone, not
 * of the constraints: a slab whose bottom layers are fixed keeps the inversion or mirror that
 * maps them onto the top layers, the top layers move while their images cannot, and the run
 * stops in checkallsym ("some of the original symmetry operations not satisfied"). With its own
 * species a fixed atom is only ever mapped onto fixed atoms. The energy is unchanged: the same
 * pseudopotential, and the same k-mesh over the whole zone. Per-species &SYSTEM arrays
 * (starting_magnetization(i), ...) are repeated for the added species.
 */
export function pwInputFromStructure(structure: Structure, options: StructureInputOptions): string {
  // Species are the structure's labels where it has them (Fe1/Fe2 of an antiferromagnet), else its elements.
  const speciesOf = structure.labels && structure.labels.length === structure.symbols.length ? structure.labels : structure.symbols;
  const labels = [...new Set(speciesOf)];
  for (const l of labels) {
    if (!options.species[l]) {
      throw new Error(`no mass and pseudopotential given for ${l}; pass species: { ${l}: { massAmu, pseudopotential } }.`);
    }
  }
  const anyFixed = structure.fixed?.some(Boolean) ?? false;
  const isFixed = (i: number) => !!structure.fixed?.[i];
  const split = anyFixed
    ? labels.filter((l) => speciesOf.some((s, i) => s === l && isFixed(i)) && speciesOf.some((s, i) => s === l && !isFixed(i)))
    : [];
  for (const l of split) {
    if (labels.includes(fixedSpeciesLabel(l)))
      throw new Error(`the structure already has a species ${fixedSpeciesLabel(l)}, the label kept for the fixed ${l} atoms; rename it.`);
  }
  const nl = Object.fromEntries(Object.entries(options.namelists).map(([k, v]) => [k.toUpperCase(), { ...v }]));
  const system: Record<string, NamelistValue> = { ...(nl.SYSTEM ?? {}) };
  split.forEach((l, j) => {
    const from = labels.indexOf(l) + 1;
    const to = labels.length + j + 1;
    for (const [key, value] of Object.entries(system)) {
      const m = /^(\w+)\((\d+)\)$/.exec(key);
      if (m && Number(m[2]) === from) system[`${m[1]}(${to})`] = value;
    }
  });
  const speciesLabels = [...labels, ...split.map(fixedSpeciesLabel)];
  nl.SYSTEM = { ibrav: 0, nat: structure.symbols.length, ntyp: speciesLabels.length, ...system };
  const spec: PwInputSpec = {
    namelists: nl,
    species: [
      ...labels.map((l) => ({ label: l, ...options.species[l]! })),
      ...split.map((l) => ({ label: fixedSpeciesLabel(l), ...options.species[l]! })),
    ],
    cell: { unit: 'angstrom', vectors: structure.cell },
    positions: {
      unit: 'angstrom',
      atoms: speciesOf.map((symbol, i) => {
        const label = split.includes(symbol) && isFixed(i) ? fixedSpeciesLabel(symbol) : symbol;
        const atom: { label: string; position: Vec3; ifPos?: [number, number, number] } = { label, position: structure.positions[i]! };
        if (anyFixed) atom.ifPos = isFixed(i) ? [0, 0, 0] : [1, 1, 1];
        return atom;
      }),
    },
    kPoints: options.kPoints,
  };
  const header = [...(options.header ?? [])];
  if (split.length) {
    header.push(
      `fixed ${split.join(', ')} atoms are species ${split.map(fixedSpeciesLabel).join(', ')} (same pseudopotential): pw.x then keeps no symmetry that maps a fixed atom onto a moving one`,
    );
  }
  if (header.length) spec.header = header;
  return buildPwInput(spec);
}
