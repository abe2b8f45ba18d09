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
import { alreadyPassed, notAskedReference, parametersToJudge } from './judgeEconomy';

interface ParamVerdicts {
  verdicts: { parameter: string; level: VerdictLevel; reasons: string[] }[];
}

/** Recorded when no model judged (offline provider, or no judge configured): never a pass. */
export function notJudged(tier: 'tier2' | 'tier3', rule: string, why: string, parameters: (string | undefined)[]): Verdict[] {
  return parameters.map((parameter) => ({
    tier,
    rule,
    level: 'pass' as const,
    judged: false,
    reasons: [`not judged: ${why}`],
    ...(parameter !== undefined ? { parameter } : {}),
  }));
}

function infra(tier: 'tier2' | 'tier3', rule: string, error: string, parameters: (string | undefined)[], model?: string): Verdict[] {
  return parameters.map((parameter) => ({
    tier,
    rule,
    level: 'pass' as const,
    judged: false,
    infraError: error,
    reasons: [`judge unavailable (fails open): ${error}`],
    ...(parameter !== undefined ? { parameter } : {}),
    ...(model ? { model } : {}),
  }));
}

export { infra as judgeInfraVerdicts };

/**
 * The values of the agent's own in a call (literals, references to what is not final) are judged,
 * one verdict each; parameters that are references to final artifacts are shown as context and
 * recorded as not asked (tier 1 checked them against their records). A literal an earlier call of
 * the tool gave with the same value and reason, and whose judge passed it, keeps that verdict; the
 * judge is not asked at all when nothing else is left.
 */
export async function judgeParameters(
  call: ProposedCall,
  provenance: ProvenanceView,
  tier1: Verdict[],
  config: JudgeConfig,
  schema: object = {},
): Promise<Verdict[]> {
  const rule = latestRuleText('param-judge').id;
  const all = Object.keys(call.args);
  if (all.length === 0) return [];
  const own = parametersToJudge(call, schema, provenance);
  const passed = alreadyPassed(call, schema, provenance);
  const parameters = own.filter((p) => !passed.has(p));
  const order = (vs: Verdict[]) => vs.sort((a, b) => all.indexOf(a.parameter!) - all.indexOf(b.parameter!));
  const spared = [
    ...all.filter((p) => !own.includes(p)).map((p) => notAskedReference(p)),
    ...[...passed].map(
      ([, { from, verdict }]): Verdict => ({
        ...verdict,
        reasons: [...verdict.reasons, `(judged with ${from}: the same value and reason)`],
      }),
    ),
  ];
  if (parameters.length === 0) return order(spared);
  const repeated = new Map([...passed].map(([p, { from }]) => [p, from]));
  const text = `${describeCall(call, provenance, tier1, { asked: parameters, repeated })}\n\nJudge each of these ${parameters.length} parameters: ${parameters.join(', ')}.`;
  const answer = await askJudge<ParamVerdicts>(config, 'param-judge', 'judge-param', PARAM_VERDICT_TOOL, text, {
    tools: [call.tool],
    parameters,
  });
  if (!answer.ok) return order([...infra('tier2', rule, answer.error, parameters, answer.model), ...spared]);
  const byParameter = new Map(answer.input.verdicts.map((v) => [v.parameter, v]));
  return order([
    ...spared,
    ...parameters.map((parameter): Verdict => {
      const v = byParameter.get(parameter);
      if (!v) return infra('tier2', rule, `the judge gave no verdict for ${parameter}`, [parameter], answer.model)[0]!;
      return { tier: 'tier2', rule, parameter, level: v.level, reasons: v.reasons, judged: true, model: answer.model };
    }),
  ]);
}
