/**
 * A tool call rendered for a judge: each parameter's value, origin, reason and what tier 1 found.
 * Parameters a judge is not asked about (references to final artifacts, which tier 1 checked) are
 * listed in a line each as context; tier-1 rules are named only where they did not pass.
 */
import { isRef, resolveRef, type ProvenanceView } from '../../provenance/view';
import type { ProposedCall, Verdict } from '../types';
import { shown } from './judgePrompt';

export interface DescribeOptions {
  /** The parameters a verdict is asked for; the others are listed in a line each, as context (default: all asked). */
  asked?: readonly string[];
  /** Referenced artifacts by name, status and a number's value only, not their content (the report judge's chain). */
  compact?: boolean;
  /** Literals not asked because an earlier call gave the same value and reason and passed (parameter → that call). */
  repeated?: ReadonlyMap<string, string>;
}

function origin(ref: string, provenance: ProvenanceView, compact = false): string {
  const r = resolveRef(provenance, ref);
  if (!r.ok) return `${ref} (does not resolve)`;
  const a = r.artifact;
  const maker = provenance.call(a.creator)?.tool ?? a.creator;
  const unit = a.unit ? ` ${a.unit}` : '';
  // a concern already raised on it (and the approval it waits for) is said, so a judge does not raise it again unaware
  const concerns = a.concerns.length
    ? `; concerns: ${a.concerns.map((c) => `${c.rule ?? c.source}${c.approval ? ` (${c.approval})` : ''}: ${shown(c.message, 400)}`).join(' | ')}`
    : '';
  const value = !compact
    ? ` = ${shown(r.value, 200)}${unit}`
    : typeof r.value === 'number' || typeof r.value === 'string'
      ? ` = ${shown(r.value, 80)}${unit}`
      : '';
  return `${ref}${value} [${a.name}${compact ? '' : `, ${a.kind}`}, by ${maker}, ${a.status}${concerns}]`;
}

const isRefList = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isRef);

function describeValue(value: unknown, provenance: ProvenanceView, compact: boolean): string {
  if (isRef(value)) return origin(value, provenance, compact);
  if (isRefList(value)) return `[${(value as string[]).map((v) => origin(v, provenance, compact)).join('; ')}]`;
  return shown(value);
}

const notPassed = (vs: Verdict[]) => vs.filter((v) => v.level !== 'pass').map((v) => `${v.rule} ${v.level}`);

export function describeParameters(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[], opts: DescribeOptions = {}): string[] {
  const asked = new Set(opts.asked ?? Object.keys(call.args));
  const compact = opts.compact === true;
  const full = Object.keys(call.args)
    .filter((p) => asked.has(p))
    .map((p) => {
      const parts = [`- ${p} = ${describeValue(call.args[p], provenance, compact)}`];
      if (call.refs[p]) parts.push(`  from ${origin(call.refs[p]!, provenance, compact)}`);
      else if (!isRef(call.args[p]) && !isRefList(call.args[p])) parts.push('  literal');
      parts.push(`  reason: ${call.reasons[p] ? JSON.stringify(call.reasons[p]) : '(none given)'}`);
      const checks = notPassed(tier1.filter((v) => v.parameter === p));
      if (checks.length) parts.push(`  tier 1: ${checks.join(', ')}`);
      return parts.join('\n');
    });
  const repeated = opts.repeated ?? new Map<string, string>();
  const again = [...repeated]
    .filter(([p]) => !asked.has(p) && p in call.args)
    .map(
      ([p, from]) =>
        `- ${p} = ${shown(call.args[p], 80)} (as in ${from}); reason: ${call.reasons[p] ? JSON.stringify(call.reasons[p]) : '(none given)'}`,
    );
  const context = Object.keys(call.args)
    .filter((p) => !asked.has(p) && !repeated.has(p))
    .map((p) => {
      const ref = call.refs[p] ?? (isRef(call.args[p]) ? (call.args[p] as string) : undefined);
      const where = ref ? origin(ref, provenance, true) : describeValue(call.args[p], provenance, true);
      return `- ${p}${call.refs[p] ? ` = ${shown(call.args[p], 80)}` : ''} from ${where}; reason: ${call.reasons[p] ? JSON.stringify(call.reasons[p]) : '(none given)'}`;
    });
  return [
    ...full,
    ...(again.length
      ? ['Judged already, with the same value and reason in an earlier call, and passed (no verdict asked):', ...again]
      : []),
    ...(context.length
      ? ['Given by reference to final artifacts (tier 1 checked each against its record; no verdict asked):', ...context]
      : []),
  ];
}

export function describeCall(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[], opts: DescribeOptions = {}): string {
  const flagged = notPassed(tier1);
  return [
    `Tool: ${call.tool}`,
    ...(call.step ? [`Plan step: ${call.step}`] : []),
    `Context: ${call.context || '(none declared)'}`,
    'Parameters:',
    ...describeParameters(call, provenance, tier1, opts),
    ...(tier1.length
      ? [
          flagged.length
            ? `Tier 1 did not pass: ${flagged.join(', ')}`
            : `Tier 1: all ${new Set(tier1.map((v) => v.rule)).size} rules passed`,
        ]
      : []),
  ].join('\n');
}
