/**
 * A structure file named in an objective (`structure: { file: NaCl.cif }`, relative to the
 * objective file, or to the canvas for a notebook cell) is read when the objective is loaded,
 * with any reader DREAMS has (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF): the
 * inputs then carry the absolute path, the file's sha256 and the structure, so the plan, a
 * resumed run and a reviewer all see the file that was computed, and build_bulk refuses it if
 * it changed since. Only what loading made in this process is trusted as read: the same fields
 * given from outside are read from the file again (loadedStructureFile).
 */
import fs from 'node:fs';
import path from 'node:path';
import { StructureFileError } from '../dft/io/errors';
import { formatFromName, readStructureFile } from '../dft/io/structureFile';
import { DEFAULT_SYMPREC_ANGSTROM } from '../dft/structure/symprec';
import type { Structure } from '../dft/types';
import { ObjectiveError } from './types';

export interface StructureFileInput {
  /** Absolute path. */
  file: string;
  /** The name as the objective gave it. */
  name: string;
  sha256: string;
  format: string;
  /** The symmetry tolerance the objective set, Å (also on `structure`, so it travels with the crystal). */
  symprecAngstrom?: number;
  structure: Structure;
}

/** A tolerance above this merges atoms of any real crystal (nearest neighbours are ~1.5 Å apart or more). */
const MAX_SYMPREC_ANGSTROM = 0.5;

/** The schema of `{ file }` as an objective writes it (and the fields loading adds). */
export const STRUCTURE_FILE_SCHEMA = {
  type: 'object',
  properties: {
    file: {
      type: 'string',
      minLength: 1,
      description:
        "A structure file (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF), relative to the objective file; named in an objective sentence, relative to the working directory (a notebook cell: its canvas's folder).",
    },
    symprecAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_SYMPREC_ANGSTROM,
      description:
        'Symmetry tolerance, Å (default 1e-3), for the space group of this structure: raise it (e.g. 1e-2) for a measured or relaxed file whose atoms sit ~1e-3 Å off their ideal positions. The plan, the tools and the guard all use it; the report states it',
    },
    name: { type: 'string' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    format: { type: 'string' },
    structure: { type: 'object' },
  },
  required: ['file'],
  additionalProperties: false,
} as const;

/**
 * The structure file an objective sentence names ("... from examples/NaCl.cif with LDA"): the first
 * quoted path or word whose name says a format DREAMS reads (.cif, POSCAR/CONTCAR, .vasp, .xyz,
 * .extxyz, .xsf, .pwi/.pw.in, .pwo/.pw.out); undefined when none does.
 */
export function structureFileNamedIn(text: string): string | undefined {
  const quoted = [...text.matchAll(/["'`\u201c\u2018]([^"'`\u201d\u2019]+)["'`\u201d\u2019]/g)].map((m) => m[1]!.trim());
  const words = text.split(/\s+/).map((w) => w.replace(/^[("'`\u201c\u2018[]+/, '').replace(/[)"'`\u201d\u2019\].,;:!?]+$/, ''));
  return [...quoted, ...words].find((w) => w.length > 0 && formatFromName(w) !== undefined);
}

export const isStructureFileInput = (v: unknown): v is { file: string } =>
  typeof v === 'object' && v !== null && typeof (v as { file?: unknown }).file === 'string';

/** The tolerance of `{ file, symprecAngstrom }` checked, or an ObjectiveError saying what to write. */
function symprecOfInput(value: { symprecAngstrom?: unknown }, where: string): number | undefined {
  const v = value.symprecAngstrom;
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > MAX_SYMPREC_ANGSTROM)
    throw new ObjectiveError(
      `${where}.symprecAngstrom: ${JSON.stringify(v)} is not a symmetry tolerance; give a distance in Å above 0 and at most ${MAX_SYMPREC_ANGSTROM} ` +
        `(e.g. 1e-2 for a file whose atoms sit ~1e-3 Å off their ideal positions), or leave it out for the default ${DEFAULT_SYMPREC_ANGSTROM} Å.`,
    );
  return v;
}

/**
 * The build_bulk arguments that carry a file's symmetry tolerance into the run (none at the
 * default), with their reason: the structure artifact then holds it, and every later symmetry
 * analysis of the crystal (the lattice step, its guard rule, a band path) uses it.
 */
export function symprecArgs(file: Pick<StructureFileInput, 'symprecAngstrom' | 'name'>): {
  args: { symprecAngstrom?: number };
  reasons: { symprecAngstrom?: string };
} {
  if (file.symprecAngstrom === undefined) return { args: {}, reasons: {} };
  return {
    args: { symprecAngstrom: file.symprecAngstrom },
    reasons: {
      symprecAngstrom: `the symmetry tolerance the objective set for ${file.name} (${file.symprecAngstrom} Å instead of the default ${DEFAULT_SYMPREC_ANGSTROM} Å): the structure carries it, so the plan, the tools and the guard find the same space group`,
    },
  };
}

/**
 * The values loadStructureFileInput made in this process. Only these are trusted as read: a
 * value of the same shape from outside (an objective's inputs, start_workflow, MCP, anything that
 * went through JSON) carries a structure and sha256 nobody checked, so its file is read again.
 */
const READ_HERE = new WeakSet<object>();

/**
 * A `{ file }` input as loading made it in this process; or, for any other value (inputs from
 * outside, a plan built in code), the file read now, relative to the working directory (loading
 * made its path absolute). A structure such a value carries is never used, and a sha256 it
 * carries must be the file's: otherwise an ObjectiveError says the file changed or the sha256
 * is not its, so a cell is never reported as coming from a file it did not come from.
 */
export function loadedStructureFile(
  value: { file: string; name?: string; format?: string; sha256?: string; symprecAngstrom?: number; structure?: object },
  where: string,
  baseDir = process.cwd(),
): StructureFileInput {
  if (isLoadedStructureFile(value)) return value;
  const read = loadStructureFileInput(value, baseDir, where);
  if (value.sha256 !== undefined && value.sha256 !== read.sha256)
    throw new ObjectiveError(
      `${where}.sha256: ${read.file} has sha256 ${read.sha256}, not the ${value.sha256} given: the file changed since it was read, or the sha256 is not this file's. ` +
        'Check the file, then give { file } alone: DREAMS reads it and records its sha256 and structure.',
    );
  return read;
}

/** Whether a `{ file }` input is one loadStructureFileInput made in this process (its structure and sha256 read from the file). */
export const isLoadedStructureFile = <T extends object>(v: T): v is T & StructureFileInput => READ_HERE.has(v);

/** Read `{ file }` (relative to baseDir) into a StructureFileInput; an ObjectiveError names the input, the file, the line and what to do. */
export function loadStructureFileInput(
  value: { file: string; name?: string; symprecAngstrom?: number },
  baseDir: string,
  where: string,
): StructureFileInput {
  const symprec = symprecOfInput(value, where);
  const file = path.resolve(baseDir, value.file);
  if (!fs.existsSync(file))
    throw new ObjectiveError(
      `${where}.file: ${file} does not exist; the path is relative to the objective file (for a notebook cell, to the canvas).`,
    );
  let structure: Structure;
  try {
    structure = readStructureFile(file);
  } catch (e) {
    const detail = e instanceof StructureFileError ? e.located() : (e as Error).message;
    throw new ObjectiveError(`${where}.file: ${detail}`);
  }
  const loaded: StructureFileInput = {
    file,
    // a name names this file (the path as the objective wrote it), never another one
    name: value.name !== undefined && path.basename(value.name) === path.basename(file) ? value.name : value.file,
    sha256: structure.source!.sha256,
    format: structure.source!.format,
    ...(symprec !== undefined ? { symprecAngstrom: symprec } : {}),
    structure: symprec !== undefined ? { ...structure, symprecAngstrom: symprec } : structure,
  };
  READ_HERE.add(loaded);
  return loaded;
}
