/** A tool call rendered for a judge: each parameter's value, origin, reason and tier-1 result. */
import { isRef, resolveRef, type ProvenanceView } from '../../provenance/view';
import type { ProposedCall, Verdict } from '../types';
import { shown } from './judgePrompt';

function origin(ref: string, provenance: ProvenanceView): string {
  const r = resolveRef(provenance, ref);
  if (!r.ok) return `${ref} (does not resolve)`;
  const a = r.artifact;
  const maker = provenance.call(a.creator)?.tool ?? a.creator;
  const unit = a.unit ? ` ${a.unit}` : '';
  // a concern already raised on it (and the approval it waits for) is said, so a judge does not raise it again unaware
  const concerns = a.concerns.length ? `; concerns: ${a.concerns.map((c) => `${c.rule ?? c.source}${c.approval ? ` (${c.approval})` : ''}: ${shown(c.message, 160)}`).join(' | ')}` : '';
  return `${ref} = ${shown(r.value, 200)}${unit} [${a.name}, ${a.kind}, by ${maker}, ${a.status}${concerns}]`;
}

function describeValue(value: unknown, provenance: ProvenanceView): string {
  if (isRef(value)) return origin(value, provenance);
  if (Array.isArray(value) && value.length > 0 && value.every(isRef)) {
    return `[${value.map((v) => origin(v as string, provenance)).join('; ')}]`;
  }
  return shown(value);
}

export function describeParameters(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[]): string[] {
  return Object.keys(call.args).map((p) => {
    const parts = [`- ${p} = ${describeValue(call.args[p], provenance)}`];
    if (call.refs[p]) parts.push(`  from ${origin(call.refs[p]!, provenance)}`);
    else if (!isRef(call.args[p]) && !(Array.isArray(call.args[p]) && (call.args[p] as unknown[]).length > 0 && (call.args[p] as unknown[]).every(isRef))) parts.push('  literal');
    parts.push(`  reason: ${call.reasons[p] ? JSON.stringify(call.reasons[p]) : '(none given)'}`);
    const checks = tier1.filter((v) => v.parameter === p).map((v) => `${v.rule} ${v.level}`);
    if (checks.length) parts.push(`  tier 1: ${checks.join(', ')}`);
    return parts.join('\n');
  });
}

export function describeCall(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[]): string {
  const wholeCall = tier1.filter((v) => v.parameter === undefined).map((v) => `${v.rule} ${v.level}`);
  return [
    `Tool: ${call.tool}`,
    ...(call.step ? [`Plan step: ${call.step}`] : []),
    `Context: ${call.context || '(none declared)'}`,
    'Parameters:',
    ...describeParameters(call, provenance, tier1),
    ...(wholeCall.length ? [`Tier 1 on the whole call: ${wholeCall.join(', ')}`] : []),
  ].join('\n');
}
