/**
 * XCrySDen structure files (XSF), as VESTA and XCrySDen open them. Periodic structures
 * are written as CRYSTAL with PRIMVEC (Å) and PRIMCOORD (atomic number, Cartesian Å,
 * optionally a force vector in eV/Å); structures without a cell as ATOMS. ANIMSTEPS
 * files are read frame by frame; as one structure, their last frame.
 */
import type { Cell, Structure, Vec3 } from '../types';
import { atomicNumber, CHEMICAL_SYMBOLS, normaliseSymbol } from './elements';
import { StructureFileError } from './errors';

export interface XsfFrame {
  structure: Structure;
  /** Force columns when the file has them (XSF carries no unit; ASE and this writer use eV/Å). */
  forcesEvPerAngstrom?: Vec3[];
}

const DIMENSIONALITY: Record<string, [boolean, boolean, boolean]> = {
  CRYSTAL: [true, true, true],
  SLAB: [true, true, false],
  POLYMER: [true, false, false],
  MOLECULE: [false, false, false],
};

interface Line {
  no: number;
  text: string;
}

function fail(line: number | undefined, message: string): never {
  throw new StructureFileError('xsf', line, message);
}

function numbers(l: Line, count: number, what: string): number[] {
  const xs = l.text.split(/\s+/).slice(0, count).map(Number);
  if (xs.length < count || xs.some((x) => !Number.isFinite(x))) fail(l.no, `expected ${count} numbers for ${what}, found "${l.text}".`);
  return xs;
}

function symbolOf(token: string, l: Line): string {
  if (/^\d+$/.test(token)) {
    const s = CHEMICAL_SYMBOLS[Number(token)];
    if (!s || s === 'X') fail(l.no, `atomic number ${token} is not an element; use 1-118 or a chemical symbol.`);
    return s;
  }
  const s = normaliseSymbol(token);
  if (atomicNumber(s) === undefined) fail(l.no, `"${token}" is neither an atomic number nor a chemical symbol.`);
  return s;
}

/** Read every frame of an XSF text (one unless it is an ANIMSTEPS file). */
export function parseXsf(text: string): XsfFrame[] {
  const lines: Line[] = text
    .split(/\r?\n/)
    .map((t, k) => ({ no: k + 1, text: t.replace(/#.*$/, '').trim() }))
    .filter((l) => l.text.length > 0);
  let pbc: [boolean, boolean, boolean] = [false, false, false];
  let cell: Cell | undefined;
  const frames: XsfFrame[] = [];
  let i = 0;
  const readCell = (): Cell => {
    if (i + 3 > lines.length) fail(lines[i - 1]?.no, 'PRIMVEC needs three lattice-vector lines after it.');
    const rows = [0, 1, 2].map((k) => numbers(lines[i + k]!, 3, 'a lattice vector (Å)') as Vec3);
    i += 3;
    return rows as Cell;
  };
  const readAtoms = (count: number | undefined): XsfFrame => {
    const symbols: string[] = [];
    const positions: Vec3[] = [];
    const forces: Vec3[] = [];
    while (i < lines.length && (count === undefined || symbols.length < count)) {
      const l = lines[i]!;
      const tokens = l.text.split(/\s+/);
      if (count === undefined && !/^(\d+|[A-Za-z]{1,2})$/.test(tokens[0]!)) break;
      if (count === undefined && /^[A-Z]{3,}/.test(tokens[0]!)) break;
      if (tokens.length < 4) fail(l.no, `an atom line needs a species and x y z (Å); found "${l.text}".`);
      symbols.push(symbolOf(tokens[0]!, l));
      const xyz = tokens.slice(1, 4).map(Number) as Vec3;
      if (xyz.some((x) => !Number.isFinite(x))) fail(l.no, `the position in "${l.text}" is not three numbers.`);
      positions.push(xyz);
      if (tokens.length >= 7) forces.push(tokens.slice(4, 7).map(Number) as Vec3);
      i++;
    }
    if (count !== undefined && symbols.length < count)
      fail(lines[i - 1]?.no, `PRIMCOORD promises ${count} atoms but only ${symbols.length} follow.`);
    const structure: Structure = {
      symbols,
      positions,
      cell: cell ?? [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
      pbc: cell ? pbc : [false, false, false],
    };
    const frame: XsfFrame = { structure };
    if (forces.length === symbols.length && forces.length > 0) frame.forcesEvPerAngstrom = forces;
    return frame;
  };
  while (i < lines.length) {
    const l = lines[i]!;
    const [word] = l.text.split(/\s+/);
    const key = word!.toUpperCase();
    i++;
    if (key in DIMENSIONALITY) pbc = DIMENSIONALITY[key]!;
    else if (key === 'ANIMSTEPS') continue;
    else if (key === 'PRIMVEC') cell = readCell();
    else if (key === 'CONVVEC') readCell();
    else if (key === 'PRIMCOORD') {
      if (i >= lines.length) fail(l.no, 'PRIMCOORD needs a line "<number of atoms> 1" after it.');
      const [n] = numbers(lines[i]!, 1, 'the number of atoms');
      i++;
      frames.push(readAtoms(n!));
    } else if (key === 'ATOMS') frames.push(readAtoms(undefined));
    else if (key.startsWith('BEGIN_') || key.startsWith('END_') || key === 'CONVCOORD') {
      // Data grids and conventional coordinates are not structures; skip to the next keyword.
      while (i < lines.length && !/^[A-Z]{4,}/i.test(lines[i]!.text.split(/\s+/)[0]!)) i++;
    } else fail(l.no, `unexpected "${l.text}"; an XSF file is made of keywords (CRYSTAL, PRIMVEC, PRIMCOORD, ATOMS, ...) and their data.`);
  }
  if (frames.length === 0) fail(undefined, 'no PRIMCOORD or ATOMS section found; the text is not an XSF structure.');
  return frames;
}

/**
 * Read the structure of an XSF text. An animation (ANIMSTEPS, as a relaxation is saved) gives its
 * last geometry, as ASE reads it and as a pw.x output is read, with the number of geometries in
 * `info.geometries`.
 */
export function readXsf(text: string): Structure {
  const frames = parseXsf(text);
  const { structure } = frames[frames.length - 1]!;
  if (frames.length > 1) structure.info = { ...structure.info, geometries: frames.length };
  return structure;
}

const fmt = (x: number) => x.toFixed(10).padStart(18);

/** Write a structure as XSF; CRYSTAL when it has a cell (VESTA draws the box), ATOMS otherwise. */
export function formatXsf(structure: Structure, forcesEvPerAngstrom?: Vec3[]): string {
  const n = structure.symbols.length;
  if (structure.positions.length !== n)
    throw new Error(`cannot write XSF: ${n} symbols but ${structure.positions.length} positions; give one position per atom.`);
  if (forcesEvPerAngstrom && forcesEvPerAngstrom.length !== n)
    throw new Error(`cannot write XSF: ${forcesEvPerAngstrom.length} force vectors for ${n} atoms.`);
  const numbersOf = structure.symbols.map((s) => {
    const z = atomicNumber(s);
    if (z === undefined || z === 0) throw new Error(`cannot write XSF: "${s}" is not a chemical symbol; XSF stores atoms by element.`);
    return z;
  });
  const atomLine = (k: number) =>
    `${String(numbersOf[k]).padStart(3)} ${structure.positions[k]!.map(fmt).join(' ')}${forcesEvPerAngstrom ? ' ' + forcesEvPerAngstrom[k]!.map(fmt).join(' ') : ''}`;
  const hasCell = structure.cell.some((row) => row.some((x) => x !== 0));
  if (!hasCell) return `ATOMS\n${structure.symbols.map((_, k) => atomLine(k)).join('\n')}\n`;
  return [
    'CRYSTAL',
    'PRIMVEC',
    ...structure.cell.map((row) => row.map(fmt).join(' ')),
    'PRIMCOORD',
    `${n} 1`,
    ...structure.symbols.map((_, k) => atomLine(k)),
    '',
  ].join('\n');
}
