/**
 * A slab file named in an objective (extxyz or XSF, relative to the objective file) is
 * read when the objective is loaded: the run records the structure and the file's sha256,
 * so a resumed run, a report and a reviewer all see exactly the slab that was searched.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readExtxyz } from '../../dft/io/extxyz';
import { readXsf } from '../../dft/io/xsf';
import type { Structure } from '../../dft/types';
import { ObjectiveError } from '../types';

const READERS: [RegExp, (text: string) => Structure][] = [[/\.(extxyz|xyz)$/i, readExtxyz], [/\.xsf$/i, readXsf]];

export function loadSlabFile(inputs: Record<string, unknown>, baseDir: string): Record<string, unknown> {
  const slab = inputs.slab as { file?: string } | undefined;
  if (!slab?.file) return inputs;
  const file = path.resolve(baseDir, slab.file);
  const reader = READERS.find(([re]) => re.test(file))?.[1];
  if (!reader) throw new ObjectiveError(`inputs.slab.file: ${slab.file} is neither extxyz (.extxyz, .xyz) nor XSF (.xsf); write the slab in one of these formats (ASE: ase.io.write('slab.extxyz', slab)).`);
  if (!fs.existsSync(file)) throw new ObjectiveError(`inputs.slab.file: ${file} does not exist; the path is relative to the objective file.`);
  const bytes = fs.readFileSync(file);
  let structure: Structure;
  try {
    structure = reader(bytes.toString('utf8'));
  } catch (e) {
    throw new ObjectiveError(`inputs.slab.file: ${file} could not be read: ${(e as Error).message}`);
  }
  return { ...inputs, slab: { file, structure, sha256: crypto.createHash('sha256').update(bytes).digest('hex') } };
}
