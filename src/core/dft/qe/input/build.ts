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
 * A pw.x input for a Structure (Å): ibrav = 0, CELL_PARAMETERS and ATOMIC_POSITIONS in
 * angstrom, fixed atoms written with if_pos 0 0 0.
 */
export function pwInputFromStructure(structure: Structure, options: StructureInputOptions): string {
  const labels = [...new Set(structure.symbols)];
  for (const l of labels) {
    if (!options.species[l]) {
      throw new Error(`no mass and pseudopotential given for ${l}; pass species: { ${l}: { massAmu, pseudopotential } }.`);
    }
  }
  const nl = Object.fromEntries(Object.entries(options.namelists).map(([k, v]) => [k.toUpperCase(), { ...v }]));
  nl.SYSTEM = { ibrav: 0, nat: structure.symbols.length, ntyp: labels.length, ...(nl.SYSTEM ?? {}) };
  const anyFixed = structure.fixed?.some(Boolean) ?? false;
  const spec: PwInputSpec = {
    namelists: nl,
    species: labels.map((l) => ({ label: l, ...options.species[l]! })),
    cell: { unit: 'angstrom', vectors: structure.cell },
    positions: {
      unit: 'angstrom',
      atoms: structure.symbols.map((label, i) => {
        const atom: { label: string; position: Vec3; ifPos?: [number, number, number] } = { label, position: structure.positions[i]! };
        if (anyFixed) atom.ifPos = structure.fixed?.[i] ? [0, 0, 0] : [1, 1, 1];
        return atom;
      }),
    },
    kPoints: options.kPoints,
  };
  if (options.header) spec.header = options.header;
  return buildPwInput(spec);
}
