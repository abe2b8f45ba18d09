/**
 * Live progress of a run, as the CLI status line and the VS Code status bar show it:
 * the run state, the step in hand, jobs by state, tokens and cost, open approvals. A
 * fold over the run's events, so a second process reading the log sees the same; jobs and
 * approvals come from their own folds (hpc/jobStore.ts, guard/approvals.ts), the ones every
 * host reads.
 */
import type { CanvasEvent, RunState } from '../canvas/types';
import { openApprovals } from '../guard/approvals';
import { foldJobEvents } from '../hpc/jobStore';
import type { Plan } from '../plan/types';
import { PLAN_KEY } from '../plan/store';

export interface RunProgress {
  runId: string;
  objective: string;
  state: RunState;
  /** Why the run stopped or failed. */
  reason?: string;
  /** The first running step; `alongside` counts the other steps running side by side with it. */
  step?: { id: string; title: string; index: number; total: number; alongside?: number };
  /** The step of the latest step.start event (the one a "▶ step" line names), wherever it is in the plan. */
  started?: { id: string; title: string; index: number; total: number };
  steps: { done: number; failed: number; total: number };
  jobs: { total: number; queued: number; running: number; completed: number; failed: number; cancelled: number };
  tokens: number;
  /** null when some response came from a model with no price (cost unknown). */
  costUsd: number | null;
  approvalsOpen: number;
}

export function runProgress(events: readonly CanvasEvent[]): RunProgress {
  let runId = '';
  let objective = '';
  let state: RunState = 'created';
  let reason: string | undefined;
  let plan: Plan | undefined;
  let tokens = 0;
  let cost = 0;
  let unpriced = false;
  let lastStarted: string | undefined;
  for (const e of events) {
    switch (e.kind) {
      case 'step.start':
        lastStarted = e.payload.id;
        break;
      case 'run.start':
        runId = e.payload.runId;
        objective = e.payload.objective;
        break;
      case 'run.state':
        state = e.payload.state;
        reason = e.payload.reason;
        break;
      case 'key.write':
        // The plan key holds a Plan (plan/store.ts writes it; its schema checks every write).
        if (e.key === PLAN_KEY) plan = e.payload.value as Plan;
        break;
      case 'llm.usage': {
        const r = e.payload;
        tokens += r.usage.inputTokens + r.usage.outputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens;
        if (r.costUsd === null) unpriced = true;
        else cost += r.costUsd;
        break;
      }
    }
  }
  const jobs = { total: 0, queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };
  for (const j of foldJobEvents(events)) {
    jobs.total++;
    if (j.state === 'running') jobs.running++;
    else if (j.state === 'completed') jobs.completed++;
    else if (j.state === 'failed') jobs.failed++;
    else if (j.state === 'cancelled') jobs.cancelled++;
    else jobs.queued++;
  }
  const steps = plan?.steps ?? [];
  const runningIndex = steps.findIndex((s) => s.status === 'running');
  const current = runningIndex >= 0 ? steps[runningIndex]! : undefined;
  const alongside = steps.filter((s) => s.status === 'running').length - 1;
  const startedIndex = lastStarted === undefined ? -1 : steps.findIndex((s) => s.id === lastStarted);
  const started = startedIndex >= 0 ? steps[startedIndex]! : undefined;
  return {
    runId,
    objective,
    state,
    ...(reason ? { reason } : {}),
    ...(current
      ? {
          step: { id: current.id, title: current.title, index: runningIndex + 1, total: steps.length, ...(alongside ? { alongside } : {}) },
        }
      : {}),
    ...(started ? { started: { id: started.id, title: started.title, index: startedIndex + 1, total: steps.length } } : {}),
    steps: {
      done: steps.filter((s) => s.status === 'done').length,
      failed: steps.filter((s) => s.status === 'failed').length,
      total: steps.length,
    },
    jobs,
    tokens,
    costUsd: unpriced ? null : cost,
    approvalsOpen: openApprovals(events).length,
  };
}

/** One line: "step 5/16 cutoff-runs · jobs 3/5 done, 1 running · 12,345 tokens $0.04 · 1 approval open". */
export function progressLine(p: RunProgress): string {
  const parts = [
    p.step
      ? `step ${p.step.index}/${p.step.total} ${p.step.id}${p.step.alongside ? ` (+${p.step.alongside} alongside)` : ''}`
      : `${p.steps.done}/${p.steps.total} steps done`,
    `jobs ${p.jobs.completed}/${p.jobs.total} done${p.jobs.running ? `, ${p.jobs.running} running` : ''}${p.jobs.queued ? `, ${p.jobs.queued} queued` : ''}${p.jobs.failed ? `, ${p.jobs.failed} failed` : ''}`,
    `${p.tokens.toLocaleString('en-US')} tokens ${p.costUsd === null ? 'cost unknown' : `$${p.costUsd.toFixed(2)}`}`,
  ];
  if (p.approvalsOpen) parts.push(`${p.approvalsOpen} approval${p.approvalsOpen === 1 ? '' : 's'} open`);
  return `[${p.state}] ${parts.join(' · ')}`;
}
