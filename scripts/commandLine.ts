/**
 * The command a bench or study was started with, as a line a person can paste back into a
 * shell: arguments that a shell would split or expand (`--pw-command "mpirun -np 2 pw.x"`)
 * are quoted; plain ones are left bare so the line stays readable.
 */
import { shellQuote } from '../src/core/hpc/shellQuote';

export const shellWord = (arg: string): string => (/^[\w./,=:@%+-]+$/.test(arg) ? arg : shellQuote(arg));

export const commandLine = (prefix: string, args: readonly string[] = process.argv.slice(2)): string =>
  [prefix, ...args.map(shellWord)].join(' ');
