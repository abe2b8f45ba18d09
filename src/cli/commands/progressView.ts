/**
 * Live progress of a run in a terminal or a log. In a terminal: one status line (steps,
 * jobs, tokens, cost) redrawn in place, with notable events printed above it. Redirected
 * to a file or a pipe: notable events as plain time-stamped lines, and the status line
 * now and then when it changed, so a log stays readable and grep-able.
 */
import type { CanvasEvent } from '../../core/canvas/types';
import type { Verdict } from '../../core/provenance/types';
import { progressLine, type RunProgress } from '../../core/run/progress';

export interface Sink {
  write(text: string): void;
  isTTY?: boolean;
  columns?: number;
}

/**
 * A line for an event worth keeping in the scrollback, or undefined. `failing` gives the failing
 * verdicts recorded for a call (guard.verdict comes before the call's end), so that a refusal
 * says which rule refused it and why.
 */
export function eventLine(
  e: CanvasEvent,
  p: RunProgress,
  runRef: string,
  failing?: ReadonlyMap<string, readonly Verdict[]>,
): string | undefined {
  switch (e.kind) {
    case 'step.start': {
      // The started step itself: with steps side by side, the first running one is another.
      const { id, attempt } = e.payload;
      const s = p.started?.id === id ? p.started : undefined;
      return `▶ step ${s?.index ?? '?'}/${s?.total ?? p.steps.total} ${id}${attempt > 1 ? ` (attempt ${attempt})` : ''}${s ? `: ${s.title}` : ''}`;
    }
    case 'step.end':
      return `${e.payload.ok ? '✓' : '✗'} ${e.payload.id}: ${e.payload.summary.split('\n')[0]!.slice(0, 240)}`;
    case 'supervisor.replan':
      return `↻ replanning after ${e.payload.step} failed (round ${e.payload.round})`;
    case 'supervisor.replanned':
      return `↻ ${e.payload.summary.split('\n')[0]!.slice(0, 240)}`;
    case 'job.transition': {
      const j = e.payload;
      if (j.state === 'failed') return `✗ job ${j.id} failed: ${(j.error ?? '').split('\n')[0]}`;
      return undefined;
    }
    case 'provenance.call.end': {
      if (e.payload.status !== 'refused') return undefined;
      const why = (failing?.get(e.payload.id) ?? []).map(
        (v) => `\n  [${v.rule}${v.parameter ? ` · ${v.parameter}` : ''}] ${v.reasons.join(' ').split('\n')[0]!.slice(0, 400)}`,
      );
      return `⚠ the guard refused ${e.payload.id}: ${e.payload.error ?? ''}${why.join('')}`;
    }
    case 'approval.request': {
      const r = e.payload;
      return `⚠ approval ${r.id} needed for ${r.tool}${r.parameter ? `.${r.parameter}` : ''}: ${r.verdicts.map((v) => v.reasons.join(' ')).join(' ')}\n  answer: dreams approve ${runRef} ${r.id}   (or --reject, --comment "...")`;
    }
    case 'approval.answer':
      return `✓ ${e.payload.id} ${e.payload.decision === 'approve' ? 'approved' : 'rejected'} by ${e.payload.by}`;
    case 'run.state': {
      const { state, reason } = e.payload;
      const line = `■ run ${state}${reason ? `: ${reason}` : ''}`;
      const awaited = state === 'waiting-approval' ? /\bap-\d+\b/.exec(reason ?? '')?.[0] : undefined;
      return awaited ? `${line}\n  the run waits here until it is answered: dreams approve ${runRef} ${awaited}   (or --reject)` : line;
    }
    case 'run.recovered':
      return `↺ picked up calls left running: ${JSON.stringify(e.payload)}`;
    default:
      return undefined;
  }
}

export class ProgressView {
  private status = '';
  private lastPlainStatus = '';
  private lastPlainAt = 0;
  /** The failing verdicts of calls not ended yet, by call id. */
  private readonly failing = new Map<string, Verdict[]>();

  constructor(
    private readonly out: Sink,
    private readonly runRef: string,
    private readonly plainEveryMs = 30_000,
  ) {}

  get tty(): boolean {
    return !!this.out.isTTY;
  }

  onEvent(p: RunProgress, e: CanvasEvent): void {
    if (e.kind === 'guard.verdict') {
      const fails = e.payload.verdicts.filter((v) => v.level === 'fail');
      if (fails.length) this.failing.set(e.payload.call, fails);
    }
    const line = eventLine(e, p, this.runRef, this.failing);
    if (e.kind === 'provenance.call.end') this.failing.delete(e.payload.id);
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
