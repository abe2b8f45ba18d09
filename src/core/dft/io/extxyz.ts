/**
 * Extended XYZ read/write, compatible with ASE and OVITO: `Lattice` (rows a1 a2 a3, Å),
 * `Properties` (species:S:1:pos:R:3 plus tags:I:1, move_mask:L:1 and any other
 * columns), `pbc` and free info keys. `move_mask` true means the atom may move (ASE's
 * FixAtoms is its negation); a `fixed:L:1` column is read as well.
 */
import type { Cell, Structure, Vec3 } from '../types';
import { CHEMICAL_SYMBOLS } from './elements';
import { StructureFileError } from './errors';
import { formatNumber, formatValue, interpretValue, splitKeyValues, type ExtxyzValue } from './extxyzComment';

export type { ExtxyzValue } from './extxyzComment';

export type ColumnType = 'S' | 'R' | 'I' | 'L';
export type CellValue = string | number | boolean;

/** A per-atom column other than species, positions, tags and the constraint mask. */
export interface ExtxyzColumn {
  type: ColumnType;
  /** One row per atom, `width` entries each. */
  rows: CellValue[][];
}

export interface ExtxyzFrame {
  structure: Structure;
  /** Other per-atom columns by name (e.g. forces:R:3 in eV/Å, as ASE writes them). */
  arrays: Record<string, ExtxyzColumn>;
  /** Every comment-line key except Lattice, Properties and pbc, with arrays kept whole. */
  info: Record<string, ExtxyzValue>;
}

/** What to write: a structure, optionally with extra columns and info keys. */
export interface ExtxyzFrameInput {
  structure: Structure;
  arrays?: Record<string, ExtxyzColumn>;
  info?: Record<string, ExtxyzValue>;
}

const RESERVED_KEYS = new Set(['Lattice', 'Properties', 'pbc']);

interface PropertySpec {
  name: string;
  type: ColumnType;
  width: number;
}

function parseProperties(spec: string, lineNo: number): PropertySpec[] {
  const parts = spec.split(':');
  if (parts.length % 3 !== 0) {
    throw new StructureFileError(
      'extxyz',
      lineNo,
      `Properties="${spec}" is not a list of name:type:width triples; write it as e.g. species:S:1:pos:R:3.`,
    );
  }
  const out: PropertySpec[] = [];
  for (let k = 0; k < parts.length; k += 3) {
    const [name, type, width] = [parts[k]!, parts[k + 1]!, Number(parts[k + 2])];
    if (!['S', 'R', 'I', 'L'].includes(type) || !Number.isInteger(width) || width < 1) {
      throw new StructureFileError(
        'extxyz',
        lineNo,
        `property "${name}:${type}:${parts[k + 2]}" in Properties="${spec}" needs a type of S, R, I or L and a positive integer width.`,
      );
    }
    out.push({ name, type: type as ColumnType, width });
  }
  return out;
}

function parseCell(value: ExtxyzValue, lineNo: number): Cell {
  const xs = Array.isArray(value) ? value : [value];
  if (xs.length !== 9 || xs.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
    throw new StructureFileError('extxyz', lineNo, `Lattice must hold 9 numbers (a1 a2 a3 as rows, Å); found ${JSON.stringify(value)}.`);
  }
  const v = xs as number[];
  return [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ];
}

function parsePbc(value: ExtxyzValue, lineNo: number): [boolean, boolean, boolean] {
  const xs = Array.isArray(value) ? value : [value];
  if (xs.length !== 3 || xs.some((x) => typeof x !== 'boolean')) {
    throw new StructureFileError('extxyz', lineNo, `pbc must be three logicals such as pbc="T T F"; found ${JSON.stringify(value)}.`);
  }
  return xs as [boolean, boolean, boolean];
}

function parseCellValue(token: string, type: ColumnType, lineNo: number, what: string): CellValue {
  switch (type) {
    case 'S':
      return token;
    case 'L':
      if (/^(T|True|true|1)$/.test(token)) return true;
      if (/^(F|False|false|0)$/.test(token)) return false;
      throw new StructureFileError('extxyz', lineNo, `${what} should be a logical (T or F), not "${token}".`);
    case 'I': {
      if (!/^[+-]?\d+$/.test(token)) throw new StructureFileError('extxyz', lineNo, `${what} should be an integer, not "${token}".`);
      return Number(token);
    }
    case 'R': {
      const x = Number(token.replace(/[dD]/, 'e'));
      if (Number.isNaN(x) && !/^[+-]?nan$/i.test(token)) {
        throw new StructureFileError('extxyz', lineNo, `${what} should be a real number, not "${token}".`);
      }
      return x;
    }
  }
}

/** Read every frame of an extended (or plain) XYZ text. */
export function parseExtxyz(text: string): ExtxyzFrame[] {
  const lines = text.split(/\r?\n/);
  const frames: ExtxyzFrame[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.trim() === '') {
      i++;
      continue;
    }
    frames.push(parseFrame(lines, i));
    i += Number(lines[i]!.trim()) + 2;
  }
  if (frames.length === 0)
    throw new StructureFileError(
      'extxyz',
      undefined,
      'the text holds no frame; an XYZ frame starts with the number of atoms on its own line.',
    );
  return frames;
}

/** Read the first (or only) structure of an extended XYZ text. */
export function readExtxyz(text: string): Structure {
  return parseExtxyz(text)[0]!.structure;
}

function parseFrame(lines: string[], start: number): ExtxyzFrame {
  const countLine = start + 1;
  const natoms = Number(lines[start]!.trim());
  if (!Number.isInteger(natoms) || natoms < 0) {
    throw new StructureFileError('extxyz', countLine, `expected the number of atoms, found "${lines[start]!.trim()}".`);
  }
  const commentNo = countLine + 1;
  const comment = lines[start + 1] ?? '';
  let pairs: { key: string; raw: string; bracketed: boolean }[] = [];
  try {
    if (comment.includes('=')) pairs = splitKeyValues(comment);
  } catch (e) {
    throw new StructureFileError('extxyz', commentNo, `${(e as Error).message}; check the comment line's quoting.`);
  }
  const info: Record<string, ExtxyzValue> = {};
  let cell: Cell = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  let pbc: [boolean, boolean, boolean] | undefined;
  let props: PropertySpec[] = [
    { name: 'species', type: 'S', width: 1 },
    { name: 'pos', type: 'R', width: 3 },
  ];
  let hasLattice = false;
  if (!comment.includes('=')) {
    // A plain XYZ comment line: keep the text, read nothing from it.
    if (comment.trim()) info['comment'] = comment.trim();
  } else {
    for (const p of pairs) {
      const value = p.key === 'Properties' ? p.raw : interpretValue(p.raw, p.bracketed);
      if (p.key === 'Lattice') {
        cell = parseCell(value, commentNo);
        hasLattice = true;
      } else if (p.key === 'pbc') pbc = parsePbc(value, commentNo);
      else if (p.key === 'Properties') props = parseProperties(p.raw, commentNo);
      else if (!RESERVED_KEYS.has(p.key)) info[p.key] = value;
    }
  }
  const species = props.find((p) => p.name === 'species') ?? props.find((p) => p.name === 'Z');
  const pos = props.find((p) => p.name === 'pos');
  if (!species || !pos || pos.type !== 'R' || pos.width !== 3) {
    throw new StructureFileError(
      'extxyz',
      commentNo,
      'Properties must name species:S:1 (or Z:I:1) and pos:R:3; add them to the Properties key.',
    );
  }
  const width = props.reduce((s, p) => s + p.width, 0);
  const columns: Record<string, CellValue[][]> = Object.fromEntries(props.map((p) => [p.name, []]));
  for (let a = 0; a < natoms; a++) {
    const lineNo = start + 3 + a;
    const raw = lines[start + 2 + a];
    if (raw === undefined || raw.trim() === '') {
      throw new StructureFileError(
        'extxyz',
        lineNo,
        `the frame promises ${natoms} atoms but ${lines.slice(start + 2 + a).every((l) => l.trim() === '') ? 'the text ends' : 'a blank line follows'} after ${a}; fix the atom count on line ${countLine}.`,
      );
    }
    const tokens = raw.trim().split(/\s+/);
    if (tokens.length < width) {
      throw new StructureFileError(
        'extxyz',
        lineNo,
        `expected ${width} columns (${props.map((p) => `${p.name}:${p.type}:${p.width}`).join(':')}), found ${tokens.length} in "${raw.trim()}".`,
      );
    }
    let t = 0;
    for (const p of props) {
      const row: CellValue[] = [];
      for (let w = 0; w < p.width; w++) row.push(parseCellValue(tokens[t++]!, p.type, lineNo, `column ${t} (${p.name})`));
      columns[p.name]!.push(row);
    }
  }
  const symbols = columns[species.name]!.map((r) =>
    species.name === 'Z' ? (CHEMICAL_SYMBOLS[r[0] as number] ?? String(r[0])) : String(r[0]),
  );
  const structure: Structure = {
    symbols,
    positions: columns['pos']!.map((r) => [r[0], r[1], r[2]] as Vec3),
    cell,
    pbc: pbc ?? (hasLattice ? [true, true, true] : [false, false, false]),
  };
  const arrays: Record<string, ExtxyzColumn> = {};
  for (const p of props) {
    if (p === species || p === pos) continue;
    const rows = columns[p.name]!;
    if (p.name === 'tags' && p.type === 'I' && p.width === 1) structure.tags = rows.map((r) => r[0] as number);
    else if (p.name === 'move_mask' && p.type === 'L' && p.width === 1) structure.fixed = rows.map((r) => !r[0]);
    else if (p.name === 'fixed' && p.type === 'L' && p.width === 1) structure.fixed = rows.map((r) => r[0] as boolean);
    else {
      // A per-direction mask stays whole so it writes back unchanged; an atom counts as fixed when no direction may move.
      if (p.name === 'move_mask' && p.type === 'L' && p.width === 3) structure.fixed = rows.map((r) => r.every((x) => !x));
      arrays[p.name] = { type: p.type, rows };
    }
  }
  const scalarInfo = Object.entries(info).filter(([, v]) => !Array.isArray(v));
  if (scalarInfo.length > 0) structure.info = Object.fromEntries(scalarInfo) as Record<string, string | number | boolean>;
  return { structure, arrays, info };
}

function formatCell(v: CellValue, type: ColumnType): string {
  if (type === 'L') return v ? 'T' : 'F';
  if (type === 'R') return (v as number).toFixed(8).padStart(16);
  if (type === 'I') return String(v).padStart(8);
  return String(v).padEnd(2);
}

/** Write one or more frames as extended XYZ (positions to 1e-8 Å). */
export function formatExtxyz(frames: Structure | ExtxyzFrameInput | (Structure | ExtxyzFrameInput)[]): string {
  const list = Array.isArray(frames) ? frames : [frames];
  return list.map((f) => formatFrame('structure' in f ? f : { structure: f })).join('');
}

function validateStructure(s: Structure): void {
  const n = s.symbols.length;
  if (s.positions.length !== n)
    throw new Error(`cannot write extxyz: ${n} symbols but ${s.positions.length} positions; give one position per atom.`);
  if (s.tags && s.tags.length !== n)
    throw new Error(`cannot write extxyz: ${s.tags.length} tags for ${n} atoms; give one tag per atom or none.`);
  if (s.fixed && s.fixed.length !== n)
    throw new Error(`cannot write extxyz: ${s.fixed.length} fixed flags for ${n} atoms; give one per atom or none.`);
  for (const sym of s.symbols) {
    if (/\s/.test(sym) || sym.length === 0) throw new Error(`cannot write extxyz: species "${sym}" is empty or contains whitespace.`);
  }
}

function formatFrame(f: ExtxyzFrameInput): string {
  const s = f.structure;
  validateStructure(s);
  const n = s.symbols.length;
  const cols: { name: string; type: ColumnType; rows: CellValue[][] }[] = [
    { name: 'species', type: 'S', rows: s.symbols.map((x) => [x]) },
    { name: 'pos', type: 'R', rows: s.positions.map((p) => [...p]) },
  ];
  if (s.tags) cols.push({ name: 'tags', type: 'I', rows: s.tags.map((t) => [t]) });
  const extra = f.arrays ?? {};
  if (s.fixed && !extra['move_mask']) cols.push({ name: 'move_mask', type: 'L', rows: s.fixed.map((x) => [!x]) });
  for (const [name, col] of Object.entries(extra)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`cannot write extxyz: column name "${name}" must be letters, digits and underscores.`);
    if (col.rows.length !== n) throw new Error(`cannot write extxyz: column "${name}" has ${col.rows.length} rows for ${n} atoms.`);
    cols.push({ name, type: col.type, rows: col.rows });
  }
  const width = (c: { rows: CellValue[][] }) => c.rows[0]?.length ?? 1;
  const props = cols.map((c) => `${c.name}:${c.type}:${width(c)}`).join(':');
  const keys: string[] = [];
  const hasCell = s.cell.some((row) => row.some((x) => x !== 0));
  if (hasCell) keys.push(`Lattice="${s.cell.flat().map(formatNumber).join(' ')}"`);
  keys.push(`Properties=${props}`);
  const info: Record<string, ExtxyzValue> = { ...(s.info ?? {}), ...(f.info ?? {}) };
  for (const [k, v] of Object.entries(info)) {
    if (RESERVED_KEYS.has(k)) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k))
      throw new Error(`cannot write extxyz: info key "${k}" must start with a letter and hold letters, digits, "_" or "-".`);
    keys.push(`${k}=${formatValue(v)}`);
  }
  keys.push(`pbc="${s.pbc.map((b) => (b ? 'T' : 'F')).join(' ')}"`);
  const body = s.symbols.map((_, a) => cols.map((c) => c.rows[a]!.map((v) => formatCell(v, c.type)).join(' ')).join(' ')).join('\n');
  return `${n}\n${keys.join(' ')}\n${body}${n > 0 ? '\n' : ''}`;
}
