/**
 * A finished step whose results went stale must run again. Results go stale through
 * provenance: a convergence choice superseded by a different one (the cutoff changed),
 * a result the user marks stale, or anything computed from either. Before the next step
 * is chosen, every done step standing on a stale result is reopened, together with the
 * steps planned after it, and the event log says which results, and why.
 *
 * A step that makes one call per item ("$each") reruns only the items whose results went
 * stale: the others keep their pw.x results (stepArguments.ts keeps items across attempts).
 */
import { eventsOf, type CanvasEvent } from '../../canvas/types';
import type { ArtifactRecord, ToolCallRecord } from '../../provenance/types';
import { dependentsOf } from '../../plan/edits';
import { PlanStore, RUNNER_ACTOR } from '../../plan/store';
import type { AgentRuntime } from '../runtime';
import { eachArgument } from '../../plan/stepHints';
import { attemptCalls, stepArtifacts, type StepContext } from '../../plan/stepArguments';
import type { Plan, PlanStep } from '../../plan/types';

export const RERUN_EVENT = 'workflow.rerun';
export const STALE_REMAINS_EVENT = 'workflow.stale-remains';

export interface StaleStep {
  step: string;
  /** Its results that are stale. */
  stale: string[];
}

export interface RerunPayload {
  /** Steps standing on stale results, with those results. */
  because: StaleStep[];
  /** Every step reopened: those and the steps that depend on them. */
  reopened: string[];
  /** Why each stale result is stale, as recorded when it was marked. */
  reasons: Record<string, string>;
}

/** The calls whose results a done step currently stands on. */
function currentCalls(step: PlanStep, ctx: StepContext): ToolCallRecord[] {
  const each = eachArgument(step.args);
  if (!each) return attemptCalls(step, ctx).filter((c) => c.tool === step.tool && c.status === 'ok');
  const calls = ctx.provenance.calls().filter((c) => c.step === step.id && c.tool === step.tool && c.status === 'ok');
  return stepArtifacts(each.step, each.name, ctx)
    .map((item) => calls.filter((c) => c.args[each.argument]?.value === item.id).at(-1))
    .filter((c): c is ToolCallRecord => !!c);
}

export function staleSteps(plan: Plan, ctx: StepContext): StaleStep[] {
  const out: StaleStep[] = [];
  for (const step of plan.steps) {
    if (step.status !== 'done') continue;
    const stale = currentCalls(step, ctx)
      .flatMap((c) => c.outputs)
      .map((id) => ctx.provenance.artifact(id))
      .filter((a): a is ArtifactRecord => a?.status === 'stale')
      .map((a) => a.id);
    if (stale.length) out.push({ step: step.id, stale });
  }
  return out;
}

/** Why an artifact became stale: the reason recorded with its status change. */
export function staleReasons(events: readonly CanvasEvent[], ids: string[]): Record<string, string> {
  const wanted = new Set(ids);
  const out: Record<string, string> = {};
  for (const e of events) {
    if (e.kind !== 'provenance.status') continue;
    const p = e.payload;
    if (p.status !== 'stale') continue;
    for (const id of p.ids) if (wanted.has(id)) out[id] = p.reason;
  }
  return out;
}

/**
 * Reopen every done step that stands on a stale result, and the steps after it; returns
 * what was reopened (nothing when no result is stale).
 */
export async function reopenStaleSteps(rt: AgentRuntime, ctx: StepContext): Promise<RerunPayload | undefined> {
  const store = new PlanStore(rt.canvas);
  const plan = store.current();
  if (!plan) return undefined;
  const found = staleSteps(plan, ctx);
  // A step rerun for these very results that still stands on them cannot clear them: say so once, do not loop.
  const key = (b: StaleStep) => `${b.step}:${[...b.stale].sort().join(',')}`;
  const tried = new Set(eventsOf(ctx.events, RERUN_EVENT).flatMap((e) => e.payload.because.map(key)));
  const reported = new Set(eventsOf(ctx.events, STALE_REMAINS_EVENT).map((e) => key(e.payload)));
  for (const b of found.filter((x) => tried.has(key(x)) && !reported.has(key(x)))) {
    await rt.log.append({
      kind: STALE_REMAINS_EVENT,
      key: 'run/workflow',
      actor: RUNNER_ACTOR,
      payload: {
        ...b,
        message: `step ${b.step} ran again but still stands on stale ${b.stale.join(', ')}; recompute them by hand or edit the step.`,
      },
    });
  }
  const because = found.filter((x) => !tried.has(key(x)));
  if (!because.length) return undefined;
  const reopen = new Set<string>();
  for (const b of because) {
    reopen.add(b.step);
    for (const d of dependentsOf(plan, b.step)) reopen.add(d);
  }
  const reopened = plan.steps.filter((s) => reopen.has(s.id) && s.status !== 'pending' && s.status !== 'running').map((s) => s.id);
  const reasons = staleReasons(
    ctx.events,
    because.flatMap((b) => b.stale),
  );
  const payload: RerunPayload = { because, reopened, reasons };
  await rt.log.append({ kind: RERUN_EVENT, key: 'run/workflow', actor: RUNNER_ACTOR, payload });
  const steps = plan.steps.map((s): PlanStep => {
    if (!reopened.includes(s.id)) return s;
    const { summary: _old, ...rest } = s;
    return { ...rest, status: 'pending' };
  });
  const first = because[0]!;
  await store.save(
    { ...plan, steps, version: plan.version + 1 },
    `results went stale (${first.stale.join(', ')} of step ${first.step}: ${reasons[first.stale[0]!] ?? 'marked stale'}); to run again: ${reopened.join(', ')}`,
    RUNNER_ACTOR,
  );
  return payload;
}
