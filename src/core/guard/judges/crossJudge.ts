/**
 * Tier 3: for tools that combine results (convergence selection, EOS fits, energy
 * combinations), one verdict on how the parameters fit together, with the referenced
 * inputs shown in full enough to check the combination.
 */
import { isRef, resolveRef, type ProvenanceView } from '../../provenance/view';
import { latestRuleText } from '../rule-texts';
import type { ProposedCall, Verdict, VerdictLevel } from '../types';
import { askJudge, type JudgeConfig } from './askJudge';
import { describeCall } from './describeCall';
import { CROSS_VERDICT_TOOL, shown } from './judgePrompt';
import { judgeInfraVerdicts } from './paramJudge';

function referencedInputs(call: ProposedCall, provenance: ProvenanceView): string[] {
  const refs = Object.values(call.args).flatMap((v) => (Array.isArray(v) ? v : [v])).filter(isRef);
  return [...new Set(refs)].map((ref) => {
    const r = resolveRef(provenance, ref);
    if (!r.ok) return `- ${ref}: does not resolve`;
    const meta = r.artifact.meta ? ` meta ${shown(judgedMeta(r.artifact.meta), 500)}` : '';
    return `- ${ref} (${r.artifact.name}): ${shown(r.value, 600)}${r.artifact.unit ? ` ${r.artifact.unit}` : ''}${meta}`;
  });
}

/**
 * An artifact's metadata as a combination is judged on: its own numbers first (pressure, volume,
 * SCF converged, purpose), then the settings without the pseudopotential hashes and the cell (the
 * same in every run of a sweep, and what cut the pressures off when it was shown whole).
 */
export function judgedMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const { settings, cellAngstrom: _cell, ...own } = meta as { settings?: Record<string, unknown>; cellAngstrom?: unknown } & Record<string, unknown>;
  const scalars = Object.fromEntries(Object.entries(own).filter(([, v]) => v === null || typeof v !== 'object'));
  const rest = Object.fromEntries(Object.entries(own).filter(([, v]) => v !== null && typeof v === 'object'));
  const { pseudopotentials: _pp, ...physics } = settings ?? {};
  return { ...scalars, ...(settings ? { settings: physics } : {}), ...rest };
}

export async function judgeCombination(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[], config: JudgeConfig): Promise<Verdict> {
  const rule = latestRuleText('cross-judge').id;
  const inputs = referencedInputs(call, provenance);
  const text = [describeCall(call, provenance, tier1), ...(inputs.length ? ['', 'Referenced inputs:', ...inputs] : []), '',
    'Judge how these parameters fit together.'].join('\n');
  const answer = await askJudge<{ level: VerdictLevel; reasons: string[] }>(config, 'cross-judge', 'judge-cross', CROSS_VERDICT_TOOL, text, { tools: [call.tool], parameters: Object.keys(call.args) });
  if (!answer.ok) return judgeInfraVerdicts('tier3', rule, answer.error, [undefined], answer.model)[0]!;
  return { tier: 'tier3', rule, level: answer.input.level, reasons: answer.input.reasons, judged: true, model: answer.model };
}
