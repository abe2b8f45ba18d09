/**
 * Tool calls a stopped process left running. A run_pw call whose checks had passed is
 * picked up again under its own call id, so it finds its job (the job id carries the
 * call id) and waits for it instead of running pw.x a second time; so is a call of a tool
 * declared resumable (an adsorption search, which finds the evaluations it recorded);
 * every other interrupted call is ended as failed, and its step makes it again.
 */
import { isRef } from '../provenance/view';
import { artifactArguments } from '../guard/schemaAnnotations';
import type { Concern, ToolCallRecord } from '../provenance/types';
import type { AgentRuntime } from '../agents/runtime';

const INTERRUPTED = 'interrupted: the process running this call stopped before it finished; the step makes the call again';

function readsOf(schema: object, call: ToolCallRecord): string[] {
  const out = Object.values(call.args).map((a) => a.ref).filter((r): r is string => !!r);
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

export async function settleInterruptedCalls(rt: AgentRuntime): Promise<{ reattached: string[]; failed: string[]; finished?: string[] }> {
  const reattached: string[] = [];
  const failed: string[] = [];
  const finished: string[] = [];
  for (const call of rt.provenance.calls().filter((c) => c.status === 'running')) {
    // The process died after the call's results were registered and before the call was ended:
    // its work is on the record, so end it; running it again would register every result twice.
    if (rt.provenance.artifacts().some((a) => a.creator === call.id)) {
      await rt.provenance.endCall(call.id, { status: 'ok' });
      finished.push(call.id);
      continue;
    }
    const spec = rt.registry.get(call.tool);
    if (!spec || !(call.tool === 'run_pw' || spec.resumable) || !clearedByGuard(rt, call)) {
      await rt.provenance.endCall(call.id, { status: 'failed', error: INTERRUPTED });
      failed.push(call.id);
      continue;
    }
    const args = Object.fromEntries(Object.entries(call.args).map(([k, a]) => [k, a.value]));
    try {
      const output = await spec.run(args, {
        callId: call.id, runId: rt.runId, runDir: rt.runDir, signal: rt.control.signal,
        progress: (m) => rt.onToolProgress?.(m),
        resolve: (ref) => {
          const r = rt.provenance.artifact(ref.split('.')[0]!);
          if (!r) throw new Error(`no artifact ${ref}`);
          return ref.split('.').slice(1).reduce<unknown>((v, p) => (v as Record<string, unknown>)?.[p], r.value);
        },
        services: { ...rt.services, provenance: rt.provenance },
      });
      const reads = readsOf(spec.schema, call);
      const req = rt.approvals.requests().find((r) => r.call === call.id);
      const concerns: Concern[] = call.verdicts.filter((v) => v.level === 'warn').map((v) => ({
        source: v.tier === 'tier2' || v.tier === 'tier3' ? v.tier : 'tier1', rule: v.rule, level: 'warn', message: v.reasons.join(' '),
        ...(v.parameter ? { parameter: v.parameter } : {}), ...(req ? { approval: req.id } : {}),
      }));
      await rt.provenance.registerArtifacts(call.id, output.artifacts.map((d) => ({ ...d, inputs: [...new Set([...reads, ...(d.inputs ?? [])])] })), concerns);
      await rt.provenance.endCall(call.id, { status: 'ok' });
      reattached.push(call.id);
    } catch (e) {
      await rt.provenance.endCall(call.id, { status: 'failed', error: `${INTERRUPTED} (picking it up again failed: ${(e as Error).message})` });
      failed.push(call.id);
    }
  }
  return { reattached, failed, ...(finished.length ? { finished } : {}) };
}
