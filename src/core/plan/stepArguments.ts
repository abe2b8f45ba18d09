/**
 * A plan step against the run: its argument hints resolved to artifact references and
 * values (what the offline provider sends and what a model worker is shown), and whether
 * the step is done, still needs calls, or failed.
 */
import type { CanvasEvent } from '../canvas/types';
import { resolveRef, type ProvenanceView } from '../provenance/view';
import { artifactArguments } from '../guard/schemaAnnotations';
import { latestReportVerdict } from '../guard/reportVerdicts';
import type { ArtifactRecord, ToolCallRecord } from '../provenance/types';
import type { ComposeContext, Composer, Plan, PlanStep } from './types';
import { eachArgument, hintList, looksLikeHint, parseHint } from './stepHints';
import { latestAttempt } from './stepRecords';

/** The provenance a run exposes to its agents: the guard's view plus the list of calls. */
export interface RunProvenance extends ProvenanceView {
  calls(): readonly ToolCallRecord[];
}

export interface StepContext {
  events: readonly CanvasEvent[];
  /** The plan: tells which steps make one call per item ("$each"). */
  plan?: Plan;
  provenance: RunProvenance;
  /** Run settings hints may name ("$run.backend"). */
  settings: Record<string, unknown>;
  inputs?: Record<string, unknown>;
  composers?: Record<string, Composer>;
}

/** A call as a model sends it: the wrapped input of the tool registry. */
export interface WrappedCall {
  arguments: Record<string, unknown>;
  references: Record<string, string>;
  reasons: Record<string, string>;
  context: string;
}

/** Calls of the step's latest attempt, in order. */
export function attemptCalls(step: Pick<PlanStep, 'id'>, ctx: StepContext): ToolCallRecord[] {
  const attempt = latestAttempt(ctx.events, step.id);
  if (!attempt) return [];
  return attempt.callIds.map((id) => ctx.provenance.call(id)).filter((c): c is ToolCallRecord => !!c);
}

/**
 * Final artifacts of a name a step made for the run's current state. For a step that makes
 * one call per item ("$each"): per current item, the outputs of its latest successful call
 * in any attempt, so a step rerun after one job failed keeps the items that had succeeded.
 * For other steps: the ok calls of the latest attempt, in creation order.
 */
export function stepArtifacts(stepId: string, name: string, ctx: StepContext): ArtifactRecord[] {
  const step = ctx.plan?.steps.find((s) => s.id === stepId);
  const each = step && eachArgument(step.args);
  const outputsNamed = (call: ToolCallRecord): ArtifactRecord[] =>
    call.outputs
      .map((id) => ctx.provenance.artifact(id))
      .filter((a): a is ArtifactRecord => !!a && a.name === name && a.status === 'final');
  if (step && each) {
    const calls = ctx.provenance.calls().filter((c) => c.step === stepId && c.tool === step.tool && callSucceeded(c, ctx.provenance));
    return stepArtifacts(each.step, each.name, ctx).flatMap((item) => {
      const last = calls.filter((c) => c.args[each.argument]?.value === item.id).at(-1);
      return last ? outputsNamed(last) : [];
    });
  }
  return attemptCalls({ id: stepId }, ctx)
    .filter((c) => c.status === 'ok')
    .flatMap(outputsNamed);
}

export function composeContext(ctx: StepContext): ComposeContext {
  return {
    provenance: ctx.provenance,
    ref: (stepId, name) => stepArtifacts(stepId, name, ctx).at(-1)?.id,
    refs: (stepId, name) => stepArtifacts(stepId, name, ctx).map((a) => a.id),
    value: (ref) => {
      const r = resolveRef(ctx.provenance, ref);
      if (!r.ok) throw new Error(r.problem);
      return r.value;
    },
    inputs: ctx.inputs ?? {},
  };
}

type Resolved = { ok: true; value: unknown; ref?: string; from?: string } | { ok: false; problem: string };

function resolveHint(stepId: string, argument: string, raw: unknown, ctx: StepContext, isArtifactArg: boolean): Resolved {
  const list = hintList(raw);
  if (list) {
    // Each hint resolved in place: "$all" to every artifact of its step, "$step" to the latest
    // one's reference (or, for an argument that takes values, its value).
    const value: unknown[] = [];
    const from: string[] = [];
    for (const item of list) {
      if (item.kind === 'literal') {
        value.push(item.value);
        continue;
      }
      if (item.kind === 'bad') {
        const parsed = parseHint(item.value);
        return {
          ok: false,
          problem: `argument ${argument} of step ${stepId} lists ${JSON.stringify(item.value)}, which ${
            parsed
              ? `cannot stand in a list: only "$step.<id>.<name>[.path]" and "$all.<id>.<name>" hints can`
              : 'is not a hint ("$step.<id>.<name>[.path]", "$all.<id>.<name>")'
          }`,
        };
      }
      const h = item.hint;
      if (h.kind === 'all') {
        const found = stepArtifacts(h.step, h.name, ctx).map((a) => a.id);
        if (!found.length) return { ok: false, problem: `step ${h.step} has no final ${h.name} yet (needed by ${stepId}.${argument})` };
        value.push(...found);
        from.push(`every ${h.name} of step ${h.step}: ${found.join(', ')}`);
        continue;
      }
      const a = stepArtifacts(h.step, h.name, ctx).at(-1);
      if (!a) return { ok: false, problem: `step ${h.step} has no final ${h.name} yet (needed by ${stepId}.${argument})` };
      const ref = [a.id, ...h.path].join('.');
      const r = resolveRef(ctx.provenance, ref);
      if (!r.ok) return { ok: false, problem: `${ref} (${h.name} of step ${h.step}): ${r.problem}` };
      value.push(isArtifactArg ? ref : r.value);
      from.push(`${ref} (${h.name} of step ${h.step})${isArtifactArg ? '' : ` = ${JSON.stringify(r.value)}`}`);
    }
    return { ok: true, value, from: from.join('; ') };
  }
  const hint = parseHint(raw);
  if (!hint) {
    if (looksLikeHint(raw))
      return {
        ok: false,
        problem: `argument ${argument} of step ${stepId} is ${JSON.stringify(raw)}, which is not a hint ("$step.<id>.<name>[.path]", "$all.<id>.<name>", "$each.<id>.<name>", "$run.<setting>")`,
      };
    return { ok: true, value: raw };
  }
  switch (hint.kind) {
    case 'run': {
      const v = ctx.settings[hint.setting];
      return v === undefined
        ? { ok: false, problem: `the run has no setting "${hint.setting}" (step ${stepId}, argument ${argument})` }
        : { ok: true, value: v };
    }
    case 'compose': {
      const composer = ctx.composers?.[hint.composer];
      if (!composer) return { ok: false, problem: `step ${stepId}: no composer "${hint.composer}" in this workflow` };
      try {
        return { ok: true, value: composer(composeContext(ctx)) };
      } catch (e) {
        return { ok: false, problem: (e as Error).message };
      }
    }
    case 'all': {
      const refs = stepArtifacts(hint.step, hint.name, ctx).map((a) => a.id);
      if (!refs.length) return { ok: false, problem: `step ${hint.step} has no final ${hint.name} yet (needed by ${stepId}.${argument})` };
      return { ok: true, value: refs, from: `every ${hint.name} of step ${hint.step}: ${refs.join(', ')}` };
    }
    case 'each':
      return { ok: false, problem: `argument ${argument}: "$each" is resolved per call` };
    case 'step': {
      const a = stepArtifacts(hint.step, hint.name, ctx).at(-1);
      if (!a) return { ok: false, problem: `step ${hint.step} has no final ${hint.name} yet (needed by ${stepId}.${argument})` };
      const ref = [a.id, ...hint.path].join('.');
      const r = resolveRef(ctx.provenance, ref);
      if (!r.ok) return { ok: false, problem: `${ref} (${hint.name} of step ${hint.step}): ${r.problem}` };
      const from = `${ref} (${hint.name} of step ${hint.step})`;
      return isArtifactArg ? { ok: true, value: ref, from } : { ok: true, value: r.value, ref, from };
    }
  }
}

export type StepCalls = { ok: true; calls: WrappedCall[] } | { ok: false; problem: string };

/**
 * The calls a step still needs: one, or for a "$each" step one per item without a
 * successful call. `toolSchema` tells which arguments are artifact references.
 */
export function pendingStepCalls(step: PlanStep, toolSchema: object, ctx: StepContext): StepCalls {
  const artifactArgs = artifactArguments(toolSchema);
  const base: WrappedCall = { arguments: {}, references: {}, reasons: {}, context: `step ${step.id}: ${step.title}` };
  const each = eachArgument(step.args);
  for (const [argument, raw] of Object.entries(step.args ?? {})) {
    if (each && argument === each.argument) continue;
    const r = resolveHint(step.id, argument, raw, ctx, artifactArgs.has(argument));
    if (!r.ok) return { ok: false, problem: r.problem };
    // A value taken from an artifact is planned by its reference alone (the guard fills the value in):
    // no 17-digit number for an agent to copy, and its value is said in the reason.
    if (r.ref) base.references[argument] = r.ref;
    else base.arguments[argument] = r.value;
    const reason = step.reasons?.[argument];
    base.reasons[argument] =
      [reason, r.from ? `from ${r.from}${r.ref ? ` = ${JSON.stringify(r.value)}` : ''}` : undefined].filter(Boolean).join('; ') ||
      `as planned in step ${step.id}`;
  }
  if (!each) return { ok: true, calls: [base] };
  const items = stepArtifacts(each.step, each.name, ctx).map((a) => a.id);
  if (!items.length)
    return { ok: false, problem: `step ${each.step} has no final ${each.name} yet (step ${step.id} runs one call per ${each.name})` };
  const done = new Set(itemsDone(step, each.argument, ctx));
  const calls = items
    .filter((item) => !done.has(item))
    .map((item) => ({
      ...base,
      arguments: { ...base.arguments, [each.argument]: item },
      reasons: {
        ...base.reasons,
        [each.argument]: `${step.reasons?.[each.argument] ?? `each ${each.name} of step ${each.step}`}: ${item}`,
      },
      context: `${base.context} (${item}, ${items.indexOf(item) + 1} of ${items.length})`,
    }));
  return { ok: true, calls };
}

/** A call that counts: it ended ok and its outputs are final (not provisional, not stale). */
export function callSucceeded(call: ToolCallRecord, provenance: ProvenanceView): boolean {
  // A call whose results went stale no longer counts: its item is computed again.
  return call.status === 'ok' && call.outputs.every((id) => provenance.artifact(id)?.status === 'final');
}

/** Items of a "$each" step with a successful call, in any attempt. */
function itemsDone(step: PlanStep, argument: string, ctx: StepContext): string[] {
  return ctx.provenance
    .calls()
    .filter((c) => c.step === step.id && c.tool === step.tool && callSucceeded(c, ctx.provenance))
    .map((c) => c.args[argument]?.value)
    .filter((v): v is string => typeof v === 'string');
}

export type StepAssessment =
  | { state: 'done'; calls: string[] }
  | { state: 'incomplete'; remaining: number }
  | { state: 'failed'; reason: string };

/** The advice a provisional result carries in its value (a slab selection's "add slabs with ..."). */
function adviceOf(value: unknown): string | undefined {
  const advice = value && typeof value === 'object' ? (value as { advice?: unknown }).advice : undefined;
  return typeof advice === 'string' && advice.trim() ? advice.trim() : undefined;
}

/**
 * Whether the step's latest attempt did what the step asks. A failed or provisional call
 * fails the step (its reason is what the supervisor replans from); calls still to make
 * leave it incomplete. A report is done when the report judge accepted it or held it back
 * for a person's review; a report it refused fails the step.
 */
export function assessStep(step: PlanStep, toolSchema: object, ctx: StepContext): StepAssessment {
  const calls = attemptCalls(step, ctx).filter((c) => c.tool === step.tool);
  const each = eachArgument(step.args);
  const failure = (c: ToolCallRecord): string | undefined => {
    if (c.status === 'failed' || c.status === 'refused') return `${c.id} ${c.tool} ${c.status}${c.error ? `: ${c.error}` : ''}`;
    const provisional = c.outputs.map((id) => ctx.provenance.artifact(id)).filter((a) => a?.status === 'provisional');
    if (c.status === 'ok' && provisional.length) {
      // A selection that could not show convergence says what to add: the reason carries it to the replanning and to the user.
      const advice = [...new Set(provisional.map((a) => adviceOf(a!.value)).filter((t): t is string => !!t))];
      return `${c.id} ${c.tool} gave provisional ${provisional.map((a) => `${a!.id} ${a!.name}`).join(', ')}${advice.length ? `: ${advice.join(' ')}` : ''}`;
    }
    return undefined;
  };
  if (each) {
    const pending = pendingStepCalls(step, toolSchema, ctx);
    if (!pending.ok) return { state: 'failed', reason: pending.problem };
    const done = calls.filter((c) => callSucceeded(c, ctx.provenance));
    // An item whose latest call failed fails the step; items never tried leave it incomplete.
    for (const call of pending.calls) {
      const item = call.arguments[each.argument];
      const tried = calls.filter((c) => c.args[each.argument]?.value === item);
      const last = tried.at(-1);
      if (last && last.status !== 'running') {
        const why = failure(last);
        if (why) return { state: 'failed', reason: why };
      }
    }
    return pending.calls.length
      ? { state: 'incomplete', remaining: pending.calls.length }
      : { state: 'done', calls: done.map((c) => c.id) };
  }
  const ok = calls.filter((c) => callSucceeded(c, ctx.provenance));
  const last = ok.at(-1);
  if (last && step.tool === 'write_report') {
    const judged = latestReportVerdict(ctx.events, last.id);
    if (!judged) return { state: 'incomplete', remaining: 1 };
    // A report held back for review (open approvals upstream) is written: a person decides the rest.
    return judged.accepted || judged.level === 'warn'
      ? { state: 'done', calls: [last.id] }
      : { state: 'failed', reason: `the report judge did not accept report ${last.outputs[0] ?? ''}: ${judged.summary}` };
  }
  if (last) return { state: 'done', calls: [last.id] };
  const lastCall = calls.filter((c) => c.status !== 'running').at(-1);
  const why = lastCall && failure(lastCall);
  return why ? { state: 'failed', reason: why } : { state: 'incomplete', remaining: 1 };
}

/** The latest call of the step's attempt that failed, was refused or gave provisional results. */
export function failedCallOf(step: PlanStep, ctx: StepContext): ToolCallRecord | undefined {
  return attemptCalls(step, ctx)
    .filter((c) => c.tool === step.tool && c.status !== 'running' && !callSucceeded(c, ctx.provenance))
    .at(-1);
}
