/**
 * Small pieces shared by the post-processing inputs (bands.x, dos.x, projwfc.x): Fortran
 * string and number literals, and the check that keeps their outdir inside the job directory.
 */
import { DftScienceError } from '../../scienceError';

/** A Fortran string literal: single quotes, an embedded quote doubled. Newlines are refused. */
export function fortranString(s: string): string {
  if (/[\n\r\0]/.test(s))
    throw new DftScienceError(`${JSON.stringify(s)} cannot be written into a namelist: it holds a line break or NUL.`, { value: s });
  return `'${s.replace(/'/g, "''")}'`;
}

/** A Fortran real literal (no exponent letter issues: JavaScript's e is accepted by namelist input). */
export function fortranReal(x: number): string {
  if (!Number.isFinite(x)) throw new DftScienceError(`${x} is not a number a namelist can hold.`, { value: x });
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/** The outdir of a post-processing run: relative, inside the job directory. */
export function checkRelativeOutdir(outdir: string, program: string): void {
  const parts = outdir.split('/');
  if (outdir.startsWith('/') || parts.includes('..') || outdir === '') {
    throw new DftScienceError(
      `${program}: outdir ${JSON.stringify(outdir)} must be a relative path inside the job directory (e.g. './out'), where the SCF's files are copied.`,
      { outdir },
    );
  }
}
