/** A structure file that cannot be read: which format, where, what was wrong, and what to do. */
import { DreamsError } from '../../errors';
import type { StructureFormat } from '../types';

export class StructureFileError extends DreamsError<'bad-input'> {
  /** The problem and what to do, without the location. */
  readonly detail: string;
  /** The file, when the text was read from one (set by readStructureFile). */
  file: string | undefined;

  constructor(
    /** The format read, or undefined when the file could not be opened or its format was not found. */
    readonly format: StructureFormat | undefined,
    /** 1-based line number in the text, when the problem is on one line. */
    readonly line: number | undefined,
    message: string,
  ) {
    super('bad-input', `${format ?? 'structure file'}${line !== undefined ? ` line ${line}` : ''}: ${message}`);
    this.name = 'StructureFileError';
    this.detail = message;
  }

  /** "FILE:LINE: format: detail", as compilers print it. */
  located(): string {
    const where = this.file
      ? `${this.file}${this.line !== undefined ? `:${this.line}` : ''}: `
      : this.line !== undefined
        ? `line ${this.line}: `
        : '';
    return `${where}${this.format ? `${FORMAT_NAMES[this.format]}: ` : ''}${this.detail}`;
  }
}

export const FORMAT_NAMES: Record<StructureFormat, string> = {
  cif: 'CIF',
  poscar: 'POSCAR',
  'pwx-in': 'pw.x input',
  'pwx-out': 'pw.x output',
  extxyz: 'extxyz',
  xsf: 'XSF',
};
