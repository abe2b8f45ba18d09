/**
 * What opening a run's log found, in sentences for a person: damage (what, where, the
 * backup or that nothing was changed), a last line with no line end that no live writer
 * will finish (a torn line), and a stale writer lock taken over. Every command that opens
 * a log says these; `damaged` tells it whether what it read is the whole run.
 */
import path from 'node:path';
import type { RecoveryReport } from './types';
import { liveHolder } from './writerLock';

export interface LogHealth {
  /** True when the log has lines that could not be read (or were cut on this open). */
  damaged: boolean;
  /** True when this open cut the log (a writer); the backup is named in `notes`. */
  cut: boolean;
  /** The first line that could not be read, when damaged. */
  line?: number;
  notes: string[];
}

/** `events.jsonl` → `events.lock` (as eventLog.ts names it). */
const lockOf = (logPath: string): string => logPath.replace(/\.jsonl$/, '') + '.lock';

export function logHealth(recovery: RecoveryReport, logPath: string): LogHealth {
  const notes: string[] = [];
  const name = path.basename(logPath);
  let damaged = false;
  let cut = false;
  let line: number | undefined;
  const d = recovery.damage;
  if (d) {
    damaged = true;
    line = d.line;
    const what = `${logPath} is damaged at line ${d.line} (byte ${d.byteOffset}, ${d.problem}): ${d.detail.replace(/ \(read-only: .*\)$/, '')}.`;
    if (d.backup) {
      cut = true;
      notes.push(
        `${what} The whole file was copied to ${d.backup} first, then ${name} was cut back to the last good event: ` +
          `${d.linesDropped} line(s) from line ${d.line} on were removed, ${recovery.eventsRead} event(s) kept.`,
      );
    } else {
      notes.push(
        `${what} ${d.linesDropped} line(s) from there on were not read; ${recovery.eventsRead} event(s) before it were. Nothing was changed.`,
      );
    }
  } else if (recovery.unfinishedTail && !liveHolder(lockOf(logPath))) {
    const t = recovery.unfinishedTail;
    damaged = true;
    line = t.line;
    notes.push(
      `${logPath} ends in a torn line: line ${t.line} (byte ${t.byteOffset}, ${t.bytes} bytes) has no line end and no DREAMS process is writing the run, ` +
        `so its writer stopped in the middle of it. It was not read; ${recovery.eventsRead} event(s) before it were. Nothing was changed.`,
    );
  }
  if (recovery.staleLock) {
    const h = recovery.staleLock;
    notes.push(
      `took over the writer lock ${lockOf(logPath)} of process ${h.pid} on ${h.host} (since ${h.startedAt}), which no longer runs ` +
        '(or whose process number now belongs to another program).',
    );
  }
  return { damaged, cut, ...(line !== undefined ? { line } : {}), notes };
}
