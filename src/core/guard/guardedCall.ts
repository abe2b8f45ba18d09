/**
 * The guarded call (docs/ARCHITECTURE.md): schema, record the call, tier 1, the judges,
 * approvals for warnings, the tool body, and registration of its outputs with the
 * concerns stamped. A fail refuses the call with reasons the agent can act on.
 */
import type { GuardedToolSpec, ToolRunContext } from './toolSpec';
import type { Concern } from '../provenance/types';
import type { ApprovalBook } from './approvals';
import { assessCall, worstLevel } from './assessCall';
import { isRunInterruption } from './interruption';
import { invalidateAfterCutoffChange } from './invalidation';
import type { JudgeConfig } from './judges/askJudge';
import { isRef, resolveRef, type ProvenanceWriter } from '../provenance/view';
import { artifactArguments, seedArgumentNames } from './schemaAnnotations';
import { upstreamPath } from '../provenance/upstream';
import type { ApprovalPolicy, GuardedOutcome, ProposedCall, Verdict } from './types';

export interface GuardContext {
  provenance: ProvenanceWriter;
  approvals: ApprovalBook;
  policy: ApprovalPolicy;
  /** Tier 2–3 judges; absent (or a provider that does not judge) records "not judged". */
  judge?: JudgeConfig;
  /** What the tool body gets besides its call id, the references of its values and reference resolution. */
  run: Omit<ToolRunContext, 'callId' | 'resolve' | 'references'>;
}

function refusalMessage(tool: string, verdicts: Verdict[]): string {
  const fails = verdicts.filter((v) => v.level === 'fail');
  const lines = fails.map((v) => `- [${v.rule}${v.parameter ? ` · ${v.parameter}` : ''}] ${v.reasons.join(' ')}`);
  return `${tool} was refused by the guard:\n${lines.join('\n')}\nFix these and call ${tool} again.`;
}

function concernsOf(verdicts: Verdict[], approval: string | undefined): Concern[] {
  return verdicts
    .filter((v) => v.level === 'warn')
    .map((v) => ({
      source: v.tier === 'tier2' || v.tier === 'tier3' ? v.tier : 'tier1',
      rule: v.rule,
      ...(v.parameter ? { parameter: v.parameter } : {}),
      level: 'warn' as const,
      message: v.reasons.join(' '),
      ...(approval ? { approval } : {}),
    }));
}

/** References the call reads as inputs: its references map and its reference-valued arguments, seeds apart. */
function artifactReferences(schema: object, call: ProposedCall): string[] {
  const seeds = seedArgumentNames(schema);
  const out = Object.entries(call.refs)
    .filter(([name]) => !seeds.has(name))
    .map(([, ref]) => ref);
  for (const [name, { list }] of artifactArguments(schema)) {
    if (seeds.has(name)) continue;
    const v = call.args[name];
    if (list && Array.isArray(v)) out.push(...v.filter(isRef));
    else if (isRef(v)) out.push(v);
  }
  return out;
}

/**
 * Under 'continue' the outputs exist before anyone answered: whoever answers (this process,
 * the notebook through the same log), a rejection makes them provisional so nothing built
 * later counts them. Answers recorded while no run is open are caught by the report judge.
 */
function settleOnAnswer(ctx: GuardContext, approval: string, outputs: string[]): void {
  ctx.approvals
    .waitFor(approval, ctx.run.signal)
    .then(async (answer) => {
      if (answer.decision !== 'reject') return;
      const still = outputs.filter((id) => ctx.provenance.artifact(id)?.status === 'final');
      if (still.length)
        await ctx.provenance.markStatus(
          still,
          'provisional',
          `${approval} rejected by ${answer.by}${answer.comment ? `: ${answer.comment}` : ''}`,
        );
    })
    .catch(() => {
      // the run was cancelled before an answer came: nothing to settle
    });
}

export async function guardedCall(spec: GuardedToolSpec, proposed: ProposedCall, ctx: GuardContext): Promise<GuardedOutcome> {
  const { provenance } = ctx;
  const a = await assessCall(spec, proposed, { provenance, ...(ctx.judge ? { judge: ctx.judge } : {}) });
  const call = a.call;

  if (a.schemaProblems.length) {
    const unresolved = Object.entries(call.refs)
      .map(([p, ref]) => ({ p, r: resolveRef(provenance, ref) }))
      .filter(({ r }) => !r.ok)
      .map(({ p, r }) => `${p}: ${(r as { problem: string }).problem}`);
    const verdicts: Verdict[] = [
      { tier: 'schema', rule: 'arguments-schema', level: 'fail', judged: true, reasons: [...a.schemaProblems, ...unresolved] },
    ];
    return {
      status: 'refused',
      call: '',
      verdicts,
      message: `${spec.name}: invalid arguments:\n- ${[...a.schemaProblems, ...unresolved].join('\n- ')}\nCorrect them and call again.`,
    };
  }

  const seeds = seedArgumentNames(spec.schema);
  const record = await provenance.recordCall({
    tool: spec.name,
    // An argument whose value is itself a reference names the artifact the tool reads: it is
    // recorded as given (the registry compares `ref` with a copied value), and becomes an input
    // of every output below.
    // A seed (schemaAnnotations: seedOnlySchema / seedOnly) is recorded as such and is an input of nothing.
    args: Object.fromEntries(
      Object.entries(call.args).map(([k, value]) => [
        k,
        { value, ...(call.refs[k] ? { ref: call.refs[k] } : {}), ...(seeds.has(k) ? { seed: true as const } : {}) },
      ]),
    ),
    reasons: call.reasons,
    context: call.context,
    verdicts: [],
    agent: call.agent,
    ...(call.step ? { step: call.step } : {}),
  });
  const verdicts = [...a.tier1, ...a.tier2, ...a.tier3];
  await provenance.recordVerdicts(record.id, verdicts);

  if (worstLevel(verdicts) === 'fail') {
    await provenance.endCall(record.id, { status: 'refused', error: 'refused by the guard' });
    return { status: 'refused', call: record.id, verdicts, message: refusalMessage(spec.name, verdicts) };
  }

  const warned = verdicts.filter((v) => v.level === 'warn');
  let approvalId: string | undefined;
  if (warned.length) {
    const parameters = [...new Set(warned.map((v) => v.parameter).filter((p): p is string => !!p))];
    const single = parameters.length === 1 ? parameters[0] : undefined;
    const refs = single && call.refs[single] ? [call.refs[single]!] : Object.values(call.refs);
    const req = await ctx.approvals.raise({
      call: record.id,
      tool: spec.name,
      ...(single ? { parameter: single, value: call.args[single] } : {}),
      verdicts: warned.map((v) => ({ rule: v.rule, level: v.level, reasons: v.reasons })),
      provenancePath: upstreamPath(provenance, refs),
    });
    approvalId = req.id;
    if (ctx.policy === 'auto-approve') {
      await ctx.approvals.answer(req.id, 'approve', 'policy', 'approved by the auto-approve policy');
    } else if (ctx.policy === 'wait') {
      ctx.run.progress(`waiting for approval ${req.id} of ${spec.name}`);
      const answer = await ctx.approvals.waitFor(req.id, ctx.run.signal);
      if (answer.decision === 'reject') {
        await provenance.endCall(record.id, { status: 'refused', error: `rejected by ${answer.by}` });
        return {
          status: 'rejected',
          call: record.id,
          approval: req.id,
          ...(answer.comment ? { comment: answer.comment } : {}),
          message: `${spec.name} was rejected by ${answer.by}${answer.comment ? `: ${answer.comment}` : ''}. Revise the call and try again.`,
        };
      }
    }
  }

  // from here the tool runs: a call stopped before this line never started it (interruptedCalls.ts)
  if (approvalId) await ctx.approvals.proceeded(approvalId, record.id);
  let output;
  try {
    output = await spec.run(call.args, {
      ...ctx.run,
      services: { ...ctx.run.services, provenance },
      callId: record.id,
      references: call.refs,
      resolve: (ref: string) => {
        const r = resolveRef(provenance, ref);
        if (!r.ok) throw new Error(r.problem);
        return r.value;
      },
    });
  } catch (e) {
    // A run stopped, cancelled or out of budget while the body worked did not make the call
    // fail: it stays open, and a resumed run picks it up (or ends it as interrupted).
    if (isRunInterruption(e)) throw e;
    const error = (e as Error).message || String(e);
    await provenance.endCall(record.id, { status: 'failed', error });
    return { status: 'failed', call: record.id, error, verdicts };
  }
  // Every artifact the call read is an input of what it made, list arguments included.
  const read = artifactReferences(spec.schema, call);
  const drafts = output.artifacts.map((d) => ({ ...d, inputs: [...new Set([...read, ...(d.inputs ?? [])])] }));
  const registered = await provenance.registerArtifacts(record.id, drafts, concernsOf(verdicts, approvalId), spec.outputs);
  const said = `${output.summary}${registered.length ? ` [${registered.map((r) => `${r.id} ${r.name}${r.status !== 'final' ? ` (${r.status})` : ''}`).join(', ')}]` : ''}`;
  // the tool's own words are kept with the call: a replanning after a provisional result reads them
  await provenance.endCall(record.id, { status: 'ok', summary: said });
  await invalidateAfterCutoffChange(provenance, registered);
  const pending = approvalId && !ctx.approvals.answerOf(approvalId) ? [approvalId] : [];
  if (pending.length)
    settleOnAnswer(
      ctx,
      approvalId!,
      registered.map((r) => r.id),
    );
  return {
    status: 'ok',
    call: record.id,
    outputs: registered.map((r) => r.id),
    verdicts,
    pendingApprovals: pending,
    summary: said + (pending.length ? ` Approval ${pending[0]} is open: the result counts only once it is approved.` : ''),
  };
}
