/**
 * The report judge's verdicts as every host reads them (the supervisor, the offline provider,
 * the plan's step check, the run report, the notebook): the latest on the run's reports, or on
 * the report one write_report call wrote. A fold over 'report.judged' events (guard/events.ts).
 */
import type { CanvasEvent } from '../canvas/types';
import type { ReportJudgedPayload } from './events';

/** The latest verdict of the report judge, on any report of the run or on one write_report call's. */
export function latestReportVerdict(events: readonly CanvasEvent[], call?: string): ReportJudgedPayload | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === 'report.judged' && (call === undefined || e.payload.call === call)) return e.payload;
  }
  return undefined;
}
