/**
 * Live progress of a run in a terminal or a log. In a terminal: one status line (steps,
 * jobs, tokens, cost) redrawn in place, with notable events printed above it. Redirected
 * to a file or a pipe: notable events as plain time-stamped lines, and the status line
 * now and then when it changed, so a log stays readable and grep-able.
 */
import type { CanvasEvent } from '../../core/canvas/types';
import { progressLine, type RunProgress } from '../../core/run/progress';
import type { ApprovalRequest } from '../../core/guard/types';
import type { JobRecord } from '../../core/hpc/types';

export interface Sink {
  write(text: string): void;
  isTTY?: boolean;
  columns?: number;
}

/** A line for an event worth keeping in the scrollback, or undefined. */
export function eventLine(e: CanvasEvent, p: RunProgress, runRef: string): string | undefined {
  const pl = e.payload as Record<string, unknown>;
  switch (e.kind) {
    case 'step.start': {
      // The started step itself: with steps side by side, the first running one is another.
      const s = p.started?.id === pl.id ? p.started : undefined;
      return `▶ step ${s?.index ?? '?'}/${s?.total ?? p.steps.total} ${pl.id}${Number(pl.attempt) > 1 ? ` (attempt ${pl.attempt})` : ''}${s ? `: ${s.title}` : ''}`;
    }
    case 'step.end':
      return `${pl.ok ? '✓' : '✗'} ${pl.id}: ${String(pl.summary).split('\n')[0]!.slice(0, 240)}`;
    case 'supervisor.replan':
      return `↻ replanning after ${pl.step} failed (round ${pl.round})`;
    case 'supervisor.replanned':
      return `↻ ${String(pl.summary).split('\n')[0]!.slice(0, 240)}`;
    case 'job.transition': {
      const j = e.payload as JobRecord;
      if (j.state === 'failed') return `✗ job ${j.id} failed: ${(j.error ?? '').split('\n')[0]}`;
      return undefined;
    }
    case 'provenance.call.end':
      return pl.status === 'refused' ? `⚠ the guard refused ${pl.id}: ${String(pl.error ?? '')}` : undefined;
    case 'approval.request': {
      const r = e.payload as ApprovalRequest;
      return `⚠ approval ${r.id} needed for ${r.tool}${r.parameter ? `.${r.parameter}` : ''}: ${r.verdicts.map((v) => v.reasons.join(' ')).join(' ')}\n  answer: dreams approve ${runRef} ${r.id}   (or --reject, --comment "...")`;
    }
    case 'approval.answer':
      return `✓ ${pl.id} ${pl.decision === 'approve' ? 'approved' : 'rejected'} by ${pl.by}`;
    case 'run.state': {
      const line = `■ run ${pl.state}${pl.reason ? `: ${pl.reason}` : ''}`;
      const awaited = pl.state === 'waiting-approval' ? /\bap-\d+\b/.exec(String(pl.reason ?? ''))?.[0] : undefined;
      return awaited ? `${line}\n  the run waits here until it is answered: dreams approve ${runRef} ${awaited}   (or --reject)` : line;
    }
    case 'run.recovered':
      return `↺ picked up calls left running: ${JSON.stringify(pl)}`;
    default:
      return undefined;
  }
}

export class ProgressView {
  private status = '';
  private lastPlainStatus = '';
  private lastPlainAt = 0;

  constructor(private readonly out: Sink, private readonly runRef: string, private readonly plainEveryMs = 30_000) {}

  get tty(): boolean {
    return !!this.out.isTTY;
  }

  onEvent(p: RunProgress, e: CanvasEvent): void {
    const line = eventLine(e, p, this.runRef);
    if (line) this.print(line);
    this.setStatus(progressLine(p));
  }

  print(line: string): void {
    if (this.tty) {
      this.out.write(`\r\x1b[K${line}\n${this.fit(this.status)}`);
    } else {
      this.out.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
    }
  }

  private setStatus(status: string): void {
    if (this.tty) {
      if (status !== this.status) this.out.write(`\r\x1b[K${this.fit(status)}`);
      this.status = status;
      return;
    }
    const now = Date.now();
    if (status !== this.lastPlainStatus && now - this.lastPlainAt >= this.plainEveryMs) {
      this.out.write(`${new Date().toISOString().slice(11, 19)} ${status}\n`);
      this.lastPlainStatus = status;
      this.lastPlainAt = now;
    }
  }

  /** Leave the terminal on a fresh line. */
  end(): void {
    if (this.tty && this.status) this.out.write(`\r\x1b[K${this.status}\n`);
  }

  private fit(s: string): string {
    const width = this.out.columns ?? 120;
    return s.length > width - 1 ? `${s.slice(0, width - 2)}…` : s;
  }
}
