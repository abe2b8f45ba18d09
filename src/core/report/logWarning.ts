/**
 * What a canvas says about a damaged run log: the sentences `logHealth` words (the file, the
 * line and byte, what was wrong, how much was read), then what the user can do about it. The
 * notebook shows it at the top of the summary and of the report (CanvasProjection.setLogWarning)
 * and in a notification; the CLI's `dreams report --from-damaged` says the same in report.md.
 */
import type { LogHealth } from '../canvas/recoveryReport';

export function logWarningOf(health: LogHealth | undefined, runDir: string): string | undefined {
  if (!health?.damaged) return undefined;
  const torn = health.notes.some((n) => n.includes('ends in a torn line'));
  const advice = torn
    ? `What to do: when no DREAMS process is writing the run any more, \`dreams resume "${runDir}"\` copies the log aside, ` +
      'cuts the torn line and continues the run; every complete event before it is kept.'
    : `This notebook shows the run up to line ${health.line} only. What to do: restore events.jsonl from a copy if you have one; ` +
      `or \`dreams resume "${runDir}" --cut-damaged\` copies the whole file aside, cuts it back to the last good event ` +
      `(the lines from ${health.line} on are then left out of the run) and continues it.`;
  return `${health.notes.join(' ')} ${advice}`;
}
