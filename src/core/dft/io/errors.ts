/** A structure file that cannot be read: which format, where, what was wrong, and what to do. */
export class StructureFileError extends Error {
  constructor(
    readonly format: 'extxyz' | 'xsf',
    /** 1-based line number in the text, when the problem is on one line. */
    readonly line: number | undefined,
    message: string,
  ) {
    super(`${format}${line !== undefined ? ` line ${line}` : ''}: ${message}`);
    this.name = 'StructureFileError';
  }
}
