/** The run of the active canvas at a glance in the status bar: state, tokens, cost and jobs. */
import * as vscode from 'vscode';
import type { CanvasEvent } from '../core/canvas/types';
import type { JobRecord } from '../core/hpc/types';
import type { UsageRecord } from '../core/llm/types';

export interface RunFigures {
  state?: string;
  tokens: number;
  costUsd: number;
  jobs: number;
  jobsRunning: number;
  jobsFailed: number;
}

export function runFigures(events: readonly CanvasEvent[]): RunFigures {
  const f: RunFigures = { tokens: 0, costUsd: 0, jobs: 0, jobsRunning: 0, jobsFailed: 0 };
  const jobs = new Map<string, JobRecord>();
  for (const e of events) {
    if (e.kind === 'llm.usage') {
      const u = e.payload as UsageRecord;
      f.tokens += u.usage.inputTokens + u.usage.outputTokens + u.usage.cacheReadTokens + u.usage.cacheWriteTokens;
      f.costUsd += u.costUsd ?? 0;
    } else if (e.kind === 'job.transition') {
      const j = e.payload as JobRecord;
      jobs.set(j.id, j);
    } else if (e.kind === 'run.state') {
      f.state = (e.payload as { state: string }).state;
    }
  }
  f.jobs = jobs.size;
  for (const j of jobs.values()) {
    if (j.state === 'running' || j.state === 'queued' || j.state === 'submitted') f.jobsRunning++;
    if (j.state === 'failed') f.jobsFailed++;
  }
  return f;
}

const compact = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

export class RunSummaryItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dreams.runSummary', vscode.StatusBarAlignment.Left, 99);

  constructor() {
    this.item.name = 'DREAMS run';
  }

  show(events: readonly CanvasEvent[] | undefined): void {
    if (!events) {
      this.item.hide();
      return;
    }
    const f = runFigures(events);
    const icon = f.state === 'running' ? '$(sync~spin)' : f.state === 'waiting-approval' ? '$(shield)' : '$(beaker)';
    this.item.text = `${icon} ${f.state ?? 'run'} · ${compact(f.tokens)} tokens · $${f.costUsd.toFixed(2)} · ${f.jobs} job${f.jobs === 1 ? '' : 's'}`;
    this.item.tooltip = `DREAMS run: ${f.state ?? 'not started'}\nTokens: ${f.tokens.toLocaleString()}\nCost: $${f.costUsd.toFixed(4)}\nJobs: ${f.jobs} (${f.jobsRunning} active, ${f.jobsFailed} failed)`;
    this.item.command = 'dreams.jobs.focus';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
