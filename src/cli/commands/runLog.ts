/**
 * Opening a run's log from a command: what opening it found is always said (damage with
 * its line and the backup, a torn last line, a stale writer lock taken over), on stderr,
 * before the command's own output.
 */
import path from 'node:path';
import { logHealth, type LogHealth } from '../../core/canvas/recoveryReport';
import { EVENT_LOG_FILE, openRun, type OpenRunOptions, type Run } from '../../core/run/directory';

export async function openRunLog(command: string, runDir: string, options: OpenRunOptions): Promise<{ run: Run; health: LogHealth }> {
  const run = await openRun(runDir, options);
  const health = logHealth(run.recovery, path.join(runDir, EVENT_LOG_FILE));
  for (const n of health.notes) console.error(`dreams ${command}: ${n}`);
  return { run, health };
}

/** The sentence a command adds when it read only part of a damaged log. */
export const partialReadNote = (health: LogHealth): string =>
  `what follows is from the events before line ${health.line} only; restore ${EVENT_LOG_FILE} from a copy to see the whole run.`;

/** What a user can do about a damaged log a command would not touch. */
export const DAMAGED_LOG_ADVICE =
  'Restore events.jsonl from a copy if you have one; or let `dreams resume <run> --cut-damaged` copy the whole file aside and cut it back to the last good event, then continue the run.';
