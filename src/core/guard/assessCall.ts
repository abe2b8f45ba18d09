/**
 * The checking half of the guarded call: schema, tier 1, then the judges. It records
 * nothing and runs nothing, so the scenario harness and the report judge use it too.
 * Deterministic first: the judges are asked only when tier 1 finds nothing fatal.
 */
import type { ToolSpec } from '../plan/types';
import { judgeCombination } from './judges/crossJudge';
import { judgeParameters, notJudged } from './judges/paramJudge';
import type { JudgeConfig } from './judges/askJudge';
import { resolveRef, type ProvenanceView } from '../provenance/view';
import { latestRuleText } from './rule-texts';
import { REFERENCE_RULES, TIER_ONE_RULES } from './rules';
import { checkArguments } from './schemaCheck';
import type { ProposedCall, Verdict } from './types';

/** Tool-spec fields the guard reads beyond the agents contract. */
export interface GuardedToolSpec extends ToolSpec {
  /** false for tools with nothing to judge (canvas reads); default true. */
  parameterJudge?: boolean;
  /**
   * A call a stopped process left open is run again under its own call id on resume (its
   * body finds the work it had recorded), instead of being ended as interrupted.
   */
  resumable?: boolean;
}

export interface Assessment {
  /** The call with referenced values filled in where the agent gave only the reference. */
  call: ProposedCall;
  schemaProblems: string[];
  tier1: Verdict[];
  tier2: Verdict[];
  tier3: Verdict[];
}

export interface AssessOptions {
  provenance: ProvenanceView;
  /** Judges run only when configured with a provider that judges. */
  judge?: JudgeConfig;
}

/** Arguments the agent gave only as a reference get the referenced value, so the schema and the body see it. */
export function fillReferencedValues(call: ProposedCall, provenance: ProvenanceView): ProposedCall {
  const args = { ...call.args };
  for (const [p, ref] of Object.entries(call.refs)) {
    if (args[p] !== undefined) continue;
    const r = resolveRef(provenance, ref);
    if (r.ok) args[p] = r.value;
  }
  return { ...call, args };
}

export function runTierOne(spec: ToolSpec, call: ProposedCall, provenance: ProvenanceView): Verdict[] {
  const names = [...new Set([...REFERENCE_RULES, ...spec.rules])];
  const verdicts: Verdict[] = [];
  for (const name of names) {
    const rule = TIER_ONE_RULES[name];
    if (!rule) {
      verdicts.push({ tier: 'tier1', rule: name, level: 'fail', judged: true,
        reasons: [`tool ${spec.name} names an unknown tier-1 rule "${name}"; known rules: ${Object.keys(TIER_ONE_RULES).join(', ')}`] });
      continue;
    }
    try {
      verdicts.push(...rule({ call, schema: spec.schema, provenance }));
    } catch (e) {
      verdicts.push({ tier: 'tier1', rule: name, level: 'fail', judged: true,
        reasons: [`the rule could not check this call: ${(e as Error).message}`] });
    }
  }
  return verdicts;
}

export const worstLevel = (vs: Verdict[]): Verdict['level'] =>
  vs.some((v) => v.level === 'fail') ? 'fail' : vs.some((v) => v.level === 'warn') ? 'warn' : 'pass';

export async function assessCall(spec: GuardedToolSpec, proposed: ProposedCall, opts: AssessOptions): Promise<Assessment> {
  const call = fillReferencedValues(proposed, opts.provenance);
  const schema = checkArguments(spec.schema, spec.name, call.args);
  const empty: Assessment = { call, schemaProblems: [], tier1: [], tier2: [], tier3: [] };
  if (!schema.ok) return { ...empty, schemaProblems: schema.problems };
  const tier1 = runTierOne(spec, call, opts.provenance);
  if (worstLevel(tier1) === 'fail') return { ...empty, tier1 };

  const paramRule = latestRuleText('param-judge').id;
  const crossRule = latestRuleText('cross-judge').id;
  const judged = spec.parameterJudge !== false;
  const params = Object.keys(call.args);
  const why = !opts.judge ? 'no judge model is configured' : !opts.judge.provider.judges ? `provider ${opts.judge.provider.name} does not judge` : undefined;
  if (why) {
    return {
      ...empty, tier1,
      tier2: judged ? notJudged('tier2', paramRule, why, params) : [],
      tier3: spec.crossParameterJudge ? notJudged('tier3', crossRule, why, [undefined]) : [],
    };
  }
  const judge = opts.judge!;
  const [tier2, tier3] = await Promise.all([
    judged ? judgeParameters(call, opts.provenance, tier1, judge) : Promise.resolve([]),
    spec.crossParameterJudge ? judgeCombination(call, opts.provenance, tier1, judge).then((v) => [v]) : Promise.resolve([]),
  ]);
  return { ...empty, tier1, tier2, tier3 };
}
