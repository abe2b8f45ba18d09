/**
 * The configured local pw.x command (`pw.x`, `mpirun -np 2 pw.x`) split into argv so it
 * runs without a shell: nothing in it is expanded, piped or chained.
 */
import { parse } from 'shell-quote';

export function parsePwCommand(command: string): string[] {
  const variables: string[] = [];
  const tokens = parse(command, (name) => {
    variables.push(name);
    return '';
  });
  if (variables.length > 0) {
    throw new Error(`the pw.x command "${command}" uses the shell variable(s) ${variables.map((v) => '$' + v).join(', ')}; it runs without a shell, so write the value itself (e.g. "mpirun -np 4 pw.x").`);
  }
  const argv: string[] = [];
  for (const t of tokens) {
    if (typeof t === 'string') {
      argv.push(t);
      continue;
    }
    const what = 'op' in t ? (t.op === 'glob' ? `the pattern "${(t as { pattern: string }).pattern}"` : `the operator "${t.op}"`) : 'a comment';
    throw new Error(`the pw.x command "${command}" contains ${what}; it runs without a shell, so give only the program and its arguments (e.g. "mpirun -np 2 pw.x").`);
  }
  if (argv.length === 0) throw new Error('the pw.x command is empty; set it to "pw.x" or e.g. "mpirun -np 2 pw.x".');
  return argv;
}
