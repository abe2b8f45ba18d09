/**
 * Tier 2: one request judges every parameter of a call, one verdict each, each on its
 * own value, origin, reason and the declared context.
 */
import type { ProvenanceView } from '../../provenance/view';
import { latestRuleText } from '../rule-texts';
import type { ProposedCall, Verdict, VerdictLevel } from '../types';
import { askJudge, type JudgeConfig } from './askJudge';
import { describeCall } from './describeCall';
import { PARAM_VERDICT_TOOL } from './judgePrompt';

interface ParamVerdicts {
  verdicts: { parameter: string; level: VerdictLevel; reasons: string[] }[];
}

/** Recorded when no model judged (offline provider, or no judge configured): never a pass. */
export function notJudged(tier: 'tier2' | 'tier3', rule: string, why: string, parameters: (string | undefined)[]): Verdict[] {
  return parameters.map((parameter) => ({
    tier, rule, level: 'pass' as const, judged: false, reasons: [`not judged: ${why}`],
    ...(parameter !== undefined ? { parameter } : {}),
  }));
}

function infra(tier: 'tier2' | 'tier3', rule: string, error: string, parameters: (string | undefined)[], model?: string): Verdict[] {
  return parameters.map((parameter) => ({
    tier, rule, level: 'pass' as const, judged: false, infraError: error, reasons: [`judge unavailable (fails open): ${error}`],
    ...(parameter !== undefined ? { parameter } : {}), ...(model ? { model } : {}),
  }));
}

export { infra as judgeInfraVerdicts };

export async function judgeParameters(call: ProposedCall, provenance: ProvenanceView, tier1: Verdict[], config: JudgeConfig): Promise<Verdict[]> {
  const rule = latestRuleText('param-judge').id;
  const parameters = Object.keys(call.args);
  if (parameters.length === 0) return [];
  const text = `${describeCall(call, provenance, tier1)}\n\nJudge each of these ${parameters.length} parameters: ${parameters.join(', ')}.`;
  const answer = await askJudge<ParamVerdicts>(config, 'param-judge', 'judge-param', PARAM_VERDICT_TOOL, text, { tools: [call.tool], parameters });
  if (!answer.ok) return infra('tier2', rule, answer.error, parameters, answer.model);
  const byParameter = new Map(answer.input.verdicts.map((v) => [v.parameter, v]));
  return parameters.map((parameter): Verdict => {
    const v = byParameter.get(parameter);
    if (!v) return infra('tier2', rule, `the judge gave no verdict for ${parameter}`, [parameter], answer.model)[0]!;
    return { tier: 'tier2', rule, parameter, level: v.level, reasons: v.reasons, judged: true, model: answer.model };
  });
}
