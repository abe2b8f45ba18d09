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
    const meta = r.artifact.meta ? ` meta ${shown(r.artifact.meta, 400)}` : '';
    return `- ${ref} (${r.artifact.name}): ${shown(r.value, 600)}${r.artifact.unit ? ` ${r.artifact.unit}` : ''}${meta}`;
  });
}

export async function judgeCombination(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[], config: JudgeConfig): Promise<Verdict> {
  const rule = latestRuleText('cross-judge').id;
  const inputs = referencedInputs(call, provenance);
  const text = [describeCall(call, provenance, tier1), ...(inputs.length ? ['', 'Referenced inputs:', ...inputs] : []), '',
    'Judge how these parameters fit together.'].join('\n');
  const answer = await askJudge<{ level: VerdictLevel; reasons: string[] }>(config, 'cross-judge', 'judge-cross', CROSS_VERDICT_TOOL, text, { tools: [call.tool] });
  if (!answer.ok) return judgeInfraVerdicts('tier3', rule, answer.error, [undefined], answer.model)[0]!;
  return { tier: 'tier3', rule, level: answer.input.level, reasons: answer.input.reasons, judged: true, model: answer.model };
}
