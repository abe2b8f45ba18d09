/**
 * What `dreams` prints for an error that reached the top of a command, and its exit status:
 * a DreamsError gives its message (what was wrong and what to do) and any action given apart
 * from it, and its code's exit status
 * (core/errors.ts, README "Exit status"), never a stack trace; an error without a code says
 * what it was, exits 1, and shows its stack only with DREAMS_DEBUG=1. A bug (an internal
 * code) says so and prints the stack, so it can be reported.
 */
import { DreamsError, exitStatusOf, type ExitStatus } from '../core/errors';

export function reportCliError(e: unknown, write: (line: string) => void, env: NodeJS.ProcessEnv = process.env): ExitStatus {
  const debug = Boolean(env.DREAMS_DEBUG);
  if (e instanceof DreamsError) {
    const exit = exitStatusOf(e);
    write(`dreams: ${e.message}`);
    // A message says what to do itself; an action given apart from it follows, and a bug says to report it.
    if ((e.actionGiven || exit === 70) && !e.message.includes(e.action)) write(`  ${e.action}`);
    if ((exit === 70 || debug) && e.stack) write(e.stack);
    return exit;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  write(`dreams: ${err.message}`);
  if (debug && err.stack) write(err.stack);
  return 1;
}
