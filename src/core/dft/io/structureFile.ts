/**
 * Any supported structure file in, any writable format out: CIF, POSCAR/CONTCAR, pw.x input,
 * pw.x output (last geometry), extxyz and XSF. The format comes from the name, else from the
 * content. A file is read whole or not at all: any problem throws a StructureFileError with the
 * file, the line and what to do. A structure read from a file carries its path and sha256.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Structure, StructureFormat } from '../types';
import { formatCif, readCif } from './cif';
import { StructureFileError, FORMAT_NAMES } from './errors';
import { formatExtxyz, parseExtxyz } from './extxyz';
import { formatPoscar, readPoscar } from './poscar';
import { formatPwxCards, readPwxInput, readPwxOutput } from './pwx';
import { formatXsf, readXsf } from './xsf';

export type WritableFormat = Exclude<StructureFormat, 'pwx-out'>;

export interface StructureReadOptions {
  /** The format, when neither the name nor the content tells it. */
  format?: StructureFormat;
  /** CIF: the data block to read. */
  block?: string;
  /** POSCAR in VASP 4 layout: the species in the order of the counts. */
  species?: string[];
}

/** The format a file's name says, or undefined. */
export function formatFromName(file: string): StructureFormat | undefined {
  const base = path.basename(file).toLowerCase();
  if (base.endsWith('.cif')) return 'cif';
  if (/^(poscar|contcar)/.test(base) || /\.(vasp|poscar)$/.test(base)) return 'poscar';
  if (/\.(extxyz|xyz)$/.test(base)) return 'extxyz';
  if (/\.(xsf|axsf)$/.test(base)) return 'xsf';
  if (/\.(pwi|pw\.in)$/.test(base)) return 'pwx-in';
  if (/\.(pwo|pw\.out)$/.test(base)) return 'pwx-out';
  return undefined;
}

/** The format the text looks like, or undefined. */
export function formatFromContent(text: string): StructureFormat | undefined {
  const head = text.slice(0, 20000);
  if (/Program PWSCF/.test(head)) return 'pwx-out';
  if (/^\s*&(control|system)\b/im.test(head)) return 'pwx-in';
  if (/^\s*data_\S*/m.test(head) && /^\s*_cell_length_a/m.test(head)) return 'cif';
  if (
    /^\s*(CRYSTAL|SLAB|POLYMER|MOLECULE|PRIMVEC|ATOMS|ANIMSTEPS)\s*$/m.test(
      head
        .split(/\r?\n/)
        .filter((l) => !/^\s*#/.test(l))
        .slice(0, 3)
        .join('\n'),
    )
  )
    return 'xsf';
  const lines = head.split(/\r?\n/);
  if (/^\s*\d+\s*$/.test(lines[0] ?? '')) return 'extxyz';
  if (lines.length > 7 && /^\s*-?[\d.]+(\s+[\d.]+\s+[\d.]+)?\s*$/.test(lines[1] ?? '') && (lines[2] ?? '').trim().split(/\s+/).length === 3)
    return 'poscar';
  return undefined;
}

/** Read a structure from text in a known format. Throws StructureFileError. */
export function readStructureText(text: string, format: StructureFormat, options: StructureReadOptions = {}): Structure {
  switch (format) {
    case 'cif':
      return readCif(text, options.block !== undefined ? { block: options.block } : {});
    case 'poscar':
      return readPoscar(text, options.species ? { species: options.species } : {});
    case 'pwx-in':
      return readPwxInput(text);
    case 'pwx-out':
      return readPwxOutput(text);
    case 'extxyz': {
      // A trajectory (several frames, as ASE writes a relaxation) gives its last geometry, as ASE
      // reads it and as a pw.x output or an XSF animation is read.
      const frames = parseExtxyz(text);
      const { structure } = frames[frames.length - 1]!;
      if (frames.length > 1) structure.info = { ...structure.info, geometries: frames.length };
      return structure;
    }
    case 'xsf':
      return readXsf(text);
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Read a structure file; the result records the file and its sha256. */
export function readStructureFile(file: string, options: StructureReadOptions = {}): Structure {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const err = new StructureFileError(
      options.format ?? formatFromName(file),
      undefined,
      code === 'ENOENT'
        ? 'no such file; check the path.'
        : code === 'EISDIR'
          ? 'this is a directory; give a structure file.'
          : `cannot read it (${(e as Error).message}).`,
    );
    err.file = file;
    throw err;
  }
  const text = bytes.toString('utf8');
  const format = options.format ?? formatFromName(file) ?? formatFromContent(text);
  if (!format) {
    const err = new StructureFileError(
      undefined,
      undefined,
      'neither the name nor the content says which structure format this is; ' +
        'name it .cif, POSCAR, .xyz/.extxyz, .xsf, .pwi/.pw.in or .pwo/.pw.out, or give the format (--from cif|poscar|pwx-in|pwx-out|extxyz|xsf).',
    );
    err.file = file;
    throw err;
  }
  let structure: Structure;
  try {
    structure = readStructureText(text, format, options);
  } catch (e) {
    if (e instanceof StructureFileError) {
      e.file = file;
      throw e;
    }
    const err = new StructureFileError(format, undefined, `${(e as Error).message}`);
    err.file = file;
    throw err;
  }
  if (structure.symbols.length === 0) {
    const err = new StructureFileError(format, undefined, 'the file holds no atoms.');
    err.file = file;
    throw err;
  }
  structure.source = { file, sha256: sha256(bytes), format, ...(options.block !== undefined ? { block: options.block } : {}) };
  return structure;
}

/** What a format cannot hold of this structure, as sentences (empty when nothing is lost). */
export function formatLosses(structure: Structure, format: WritableFormat): string[] {
  const out: string[] = [];
  const nFixed = structure.fixed?.filter(Boolean).length ?? 0;
  const partial = structure.fixedComponents?.mask.filter((m) => m.some(Boolean) && !m.every(Boolean)).length ?? 0;
  if ((format === 'cif' || format === 'xsf') && (nFixed || partial))
    out.push(`${FORMAT_NAMES[format]} has no fixed atoms: the constraints of ${nFixed + partial} atoms are not written.`);
  if (format === 'extxyz' && partial)
    out.push(`extxyz as written here fixes whole atoms: ${partial} per-direction constraints are not written.`);
  if (structure.labels && format !== 'pwx-in' && format !== 'extxyz')
    out.push(`${FORMAT_NAMES[format]} keeps elements only: species labels (${[...new Set(structure.labels)].join(', ')}) are not written.`);
  if (format === 'cif')
    out.push('CIF cells are written as a, b, c, α, β, γ: the cell is turned to a along x, b in the xy plane (positions turn with it).');
  return out;
}

/** The structure in a writable format. */
export function formatStructure(structure: Structure, format: WritableFormat, options: { comment?: string; name?: string } = {}): string {
  const { source: _source, ...plain } = structure;
  switch (format) {
    case 'cif':
      return formatCif(plain, {
        ...(options.name ? { dataName: options.name } : {}),
        ...(options.comment ? { comment: options.comment } : {}),
      });
    case 'poscar':
      return formatPoscar(plain, options.comment ? { comment: options.comment } : {});
    case 'pwx-in':
      return formatPwxCards(plain, options.comment ? { comment: options.comment } : {});
    case 'extxyz': {
      const s = { ...plain };
      if (s.labels) s.info = { ...(s.info ?? {}) };
      return formatExtxyz(s);
    }
    case 'xsf':
      return formatXsf(plain);
  }
}
