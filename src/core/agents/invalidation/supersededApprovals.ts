/**
 * Approvals whose result a rerun superseded are closed, not left open: a request raised on a
 * provisional selection that the extended sweep then replaced, or on a result that went stale,
 * asks nothing of a person any more. Each is closed with the reason (and the call that took
 * its place), so `dreams approve --list` and the notebook say why it is no longer open, and
 * the final response lists only what still needs an answer.
 */
import type { ToolCallRecord } from '../../provenance/types';
import { callSucceeded, type StepContext } from '../../plan/stepArguments';
import { eachArgument } from '../../plan/stepHints';
import type { AgentRuntime } from '../runtime';

/** Why a request's call no longer stands, and what took its place; undefined while it still counts. */
export function supersession(call: ToolCallRecord, ctx: StepContext): { reason: string; by?: string } | undefined {
  const outputs = call.outputs.map((id) => ctx.provenance.artifact(id));
  if (outputs.length && outputs.every((a) => a?.status === 'stale')) {
    return { reason: `superseded: its result${outputs.length > 1 ? 's' : ''} ${call.outputs.join(', ')} went stale` };
  }
  const step = call.step ? ctx.plan?.steps.find((s) => s.id === call.step) : undefined;
  if (!step) return undefined;
  const each = eachArgument(step.args);
  const item = each ? call.args[each.argument]?.value : undefined;
  const later = ctx.provenance
    .calls()
    .find(
      (c) =>
        c.step === step.id &&
        c.tool === call.tool &&
        Number(c.id.slice(2)) > Number(call.id.slice(2)) &&
        (!each || c.args[each.argument]?.value === item) &&
        callSucceeded(c, ctx.provenance),
    );
  if (!later) return undefined;
  return {
    reason: `superseded: step ${step.id} ran again and ${later.id} made ${later.outputs.join(', ') || 'its result'}${each ? ` for ${String(item)}` : ''}`,
    by: later.id,
  };
}

/** Close every open approval whose call was superseded; returns the ids closed. */
export async function closeSupersededApprovals(rt: AgentRuntime, ctx: StepContext): Promise<string[]> {
  const closed: string[] = [];
  for (const r of rt.approvals.pending()) {
    const call = ctx.provenance.call(r.call);
    const s = call && supersession(call, ctx);
    if (!s) continue;
    if (await rt.approvals.close(r.id, s.reason, s.by)) closed.push(r.id);
  }
  return closed;
}
