/**
 * Tool calls a stopped process left running. A run_pw call whose checks had passed is
 * picked up again under its own call id, so it finds its job (the job id carries the
 * call id) and waits for it instead of running pw.x a second time; so is a call of a tool
 * declared resumable (an adsorption search, which finds the evaluations it recorded), and
 * a call of any tool that was still held at its approval (its tool had not started): the
 * wait is picked up where it stood — answered meanwhile, it goes on or is refused; not yet
 * answered, it waits again under the 'wait' policy. Every other interrupted call is ended as
 * failed, and its step makes it again.
 */
import { isRef } from '../provenance/view';
import { artifactArguments } from '../guard/schemaAnnotations';
import type { Concern, ToolCallRecord } from '../provenance/types';
import type { ApprovalAnswer } from '../guard/types';
import type { AgentRuntime } from '../agents/runtime';

const INTERRUPTED = 'interrupted: the process running this call stopped before it finished; the step makes the call again';

function readsOf(schema: object, call: ToolCallRecord): string[] {
  const out = Object.values(call.args)
    .map((a) => a.ref)
    .filter((r): r is string => !!r);
  for (const [name, { list }] of artifactArguments(schema)) {
    const v = call.args[name]?.value;
    if (list && Array.isArray(v)) out.push(...v.filter(isRef));
    else if (isRef(v)) out.push(v);
  }
  return [...new Set(out)];
}

/** Whether the guard let the call through: no failing verdict, and every warning approved. */
function clearedByGuard(rt: AgentRuntime, call: ToolCallRecord): boolean {
  if (call.verdicts.length === 0 || call.verdicts.some((v) => v.level === 'fail')) return false;
  if (!call.verdicts.some((v) => v.level === 'warn')) return true;
  const req = rt.approvals.requests().find((r) => r.call === call.id);
  if (!req) return false;
  const answer = rt.approvals.answerOf(req.id);
  return rt.policy === 'continue' || answer?.decision === 'approve';
}

export interface SettleHooks {
  /** A call held at an approval nobody has answered waits again (the 'wait' policy): say so. */
  waiting?(approval: string, call: string): Promise<void>;
}

/**
 * Whether a call was held at its approval when the process stopped (its tool had not started),
 * and the answer it waited for: given meanwhile, taken now by the policy, or waited for again
 * under 'wait'. Under 'continue' a held call goes on with its approval still open.
 */
async function answerForHeldCall(
  rt: AgentRuntime,
  call: ToolCallRecord,
  hooks: SettleHooks,
): Promise<{ held: boolean; answer?: ApprovalAnswer }> {
  const req = rt.approvals.requests().find((r) => r.call === call.id);
  if (!req || rt.approvals.hasProceeded(req.id) || call.verdicts.some((v) => v.level === 'fail')) return { held: false };
  const given = rt.approvals.answerOf(req.id);
  if (given) return { held: true, answer: given };
  if (rt.policy === 'auto-approve') {
    const r = await rt.approvals.answer(req.id, 'approve', 'policy', 'approved by the auto-approve policy');
    return { held: true, ...(r.ok ? { answer: r.answer } : {}) };
  }
  if (rt.policy !== 'wait') return { held: true };
  await hooks.waiting?.(req.id, call.id);
  rt.onToolProgress?.(`waiting for approval ${req.id} of ${call.tool} (${call.id}), as when the run stopped`);
  // cancelled while waiting, it rejects with the run's RunStopped: the call stays held for the next resume
  return { held: true, answer: await rt.approvals.waitFor(req.id, rt.control.signal) };
}

export async function settleInterruptedCalls(
  rt: AgentRuntime,
  hooks: SettleHooks = {},
): Promise<{ reattached: string[]; failed: string[]; finished?: string[]; rejected?: string[] }> {
  const reattached: string[] = [];
  const failed: string[] = [];
  const finished: string[] = [];
  const rejected: string[] = [];
  for (const call of rt.provenance.calls().filter((c) => c.status === 'running')) {
    // The process died after the call's results were registered and before the call was ended:
    // its work is on the record, so end it; running it again would register every result twice.
    if (rt.provenance.artifacts().some((a) => a.creator === call.id)) {
      await rt.provenance.endCall(call.id, { status: 'ok' });
      finished.push(call.id);
      continue;
    }
    const spec = rt.registry.get(call.tool);
    const held = spec ? await answerForHeldCall(rt, call, hooks) : { held: false };
    if (held.answer?.decision === 'reject') {
      await rt.provenance.endCall(call.id, { status: 'refused', error: `rejected by ${held.answer.by}` });
      rejected.push(call.id);
      continue;
    }
    if (!spec || !(held.held || call.tool === 'run_pw' || spec.resumable) || !clearedByGuard(rt, call)) {
      await rt.provenance.endCall(call.id, { status: 'failed', error: INTERRUPTED });
      failed.push(call.id);
      continue;
    }
    const req = rt.approvals.requests().find((r) => r.call === call.id);
    if (held.held && req) await rt.approvals.proceeded(req.id, call.id);
    const args = Object.fromEntries(Object.entries(call.args).map(([k, a]) => [k, a.value]));
    try {
      const output = await spec.run(args, {
        callId: call.id,
        references: Object.fromEntries(Object.entries(call.args).flatMap(([k, a]) => (a.ref ? [[k, a.ref]] : []))),
        runId: rt.runId,
        runDir: rt.runDir,
        signal: rt.control.signal,
        progress: (m) => rt.onToolProgress?.(m),
        resolve: (ref) => {
          const r = rt.provenance.artifact(ref.split('.')[0]!);
          if (!r) throw new Error(`no artifact ${ref}`);
          return ref
            .split('.')
            .slice(1)
            .reduce<unknown>((v, p) => (v as Record<string, unknown>)?.[p], r.value);
        },
        services: { ...rt.services, provenance: rt.provenance },
      });
      const reads = readsOf(spec.schema, call);
      const concerns: Concern[] = call.verdicts
        .filter((v) => v.level === 'warn')
        .map((v) => ({
          source: v.tier === 'tier2' || v.tier === 'tier3' ? v.tier : 'tier1',
          rule: v.rule,
          level: 'warn',
          message: v.reasons.join(' '),
          ...(v.parameter ? { parameter: v.parameter } : {}),
          ...(req ? { approval: req.id } : {}),
        }));
      await rt.provenance.registerArtifacts(
        call.id,
        output.artifacts.map((d) => ({ ...d, inputs: [...new Set([...reads, ...(d.inputs ?? [])])] })),
        concerns,
        spec.outputs,
      );
      await rt.provenance.endCall(call.id, { status: 'ok' });
      reattached.push(call.id);
    } catch (e) {
      await rt.provenance.endCall(call.id, {
        status: 'failed',
        error: `${INTERRUPTED} (picking it up again failed: ${(e as Error).message})`,
      });
      failed.push(call.id);
    }
  }
  return { reattached, failed, ...(finished.length ? { finished } : {}), ...(rejected.length ? { rejected } : {}) };
}
