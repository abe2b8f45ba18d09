/**
 * The run's own budget meters, beside the LLM layer's token and cost meters: pw.x jobs
 * submitted and wall time spent running (over every session of the run, paused time not
 * counted).
 */
import type { CanvasEvent } from '../canvas/types';
import type { BudgetMeter } from '../llm/budget';

export function jobsMeter(limit: number, jobsSubmitted: () => number): BudgetMeter {
  return { id: 'jobs', label: 'pw.x jobs', limit, spent: jobsSubmitted, format: (n) => `${n} job${n === 1 ? '' : 's'}` };
}

/**
 * Seconds the run spent in 'running' according to its run.state events, up to `now`:
 * paused and waiting-for-approval time does not count. A session that ended without a
 * state event (the process was killed) counts up to its last event.
 */
export function runningSeconds(events: readonly CanvasEvent[], now = Date.now()): number {
  let total = 0;
  let since: number | undefined;
  let lastTs: number | undefined;
  for (const e of events) {
    const t = Date.parse(e.ts);
    if (e.kind === 'run.state') {
      const state = e.payload.state;
      if (since !== undefined) total += ((state === 'running' ? (lastTs ?? t) : t) - since) / 1000;
      since = state === 'running' ? t : undefined;
    }
    lastTs = t;
  }
  if (since !== undefined) total += (now - since) / 1000;
  return total;
}

export function wallTimeMeter(limitMinutes: number, events: () => readonly CanvasEvent[]): BudgetMeter {
  return {
    id: 'wallTime',
    label: 'wall time',
    limit: limitMinutes * 60,
    spent: () => runningSeconds(events()),
    format: (s) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${Math.round(s)} s`),
  };
}
