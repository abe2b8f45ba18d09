/**
 * A structure file named in an objective (`structure: { file: NaCl.cif }`, relative to the
 * objective file, or to the canvas for a notebook cell) is read when the objective is loaded,
 * with any reader DREAMS has (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF): the
 * inputs then carry the absolute path, the file's sha256 and the structure, so the plan, a
 * resumed run and a reviewer all see the file that was computed, and build_bulk refuses it if
 * it changed since.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StructureFileError } from '../dft/io/errors';
import { readStructureFile } from '../dft/io/structureFile';
import type { Structure } from '../dft/types';
import { ObjectiveError } from './types';

export interface StructureFileInput {
  /** Absolute path. */
  file: string;
  /** The name as the objective gave it. */
  name: string;
  sha256: string;
  format: string;
  structure: Structure;
}

/** The schema of `{ file }` as an objective writes it (and the fields loading adds). */
export const STRUCTURE_FILE_SCHEMA = {
  type: 'object',
  properties: {
    file: { type: 'string', minLength: 1, description: 'A structure file (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF), relative to the objective file.' },
    name: { type: 'string' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    format: { type: 'string' },
    structure: { type: 'object' },
  },
  required: ['file'],
  additionalProperties: false,
} as const;

export const isStructureFileInput = (v: unknown): v is { file: string } =>
  typeof v === 'object' && v !== null && typeof (v as { file?: unknown }).file === 'string';

/** Read `{ file }` (relative to baseDir) into a StructureFileInput; an ObjectiveError names the input, the file, the line and what to do. */
export function loadStructureFileInput(value: { file: string; name?: string }, baseDir: string, where: string): StructureFileInput {
  const file = path.resolve(baseDir, value.file);
  if (!fs.existsSync(file)) throw new ObjectiveError(`${where}.file: ${file} does not exist; the path is relative to the objective file (for a notebook cell, to the canvas).`);
  let structure: Structure;
  try {
    structure = readStructureFile(file);
  } catch (e) {
    const detail = e instanceof StructureFileError ? e.located() : (e as Error).message;
    throw new ObjectiveError(`${where}.file: ${detail}`);
  }
  return { file, name: value.name ?? value.file, sha256: structure.source!.sha256, format: structure.source!.format, structure };
}
