/**
 * The checking half of the guarded call: schema, tier 1, then the judges. It records
 * nothing and runs nothing, so the scenario harness and the report judge use it too.
 * Deterministic first: the judges are asked only when tier 1 finds nothing fatal.
 */
import type { GuardedToolSpec, ToolSpec } from './toolSpec';
import { judgeCombination } from './judges/crossJudge';
import { judgeParameters, notJudged } from './judges/paramJudge';
import { spareParameterJudge } from './judges/judgeEconomy';
import type { JudgeConfig } from './judges/askJudge';
import { valueDifference } from '../provenance/references';
import { isRef, resolveRef, type ProvenanceView } from '../provenance/view';
import { admitsString, artifactArguments } from './schemaAnnotations';
import { latestRuleText } from './rule-texts';
import { REFERENCE_RULES, TIER_ONE_RULES } from './rules';
import { checkArguments } from './schemaCheck';
import type { ProposedCall, Verdict } from './types';

export interface Assessment {
  /** The call in its one reference form (normaliseReferences): referenced values filled in. */
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

/**
 * The one reference rule (docs/notes/guard.md "References"): a value taken from an artifact is
 * given by its reference, in `references`, as the argument's value, or in both (then the same
 * reference). Here every call is put in the one form the rules, the tool body and the registry read:
 *  - an argument that takes an artifact (x-artifact) holds the reference as its value; a
 *    `references` entry naming the same reference says nothing more and is dropped;
 *  - any other argument holds the recorded value, its reference in `refs`: a reference given
 *    as the value of an argument that cannot be a string (a number, a list) moves to `refs`, and
 *    a value equal to its record up to floating-point noise becomes the record itself.
 * What contradicts itself (a value and a references entry naming different artifacts for an
 * argument that takes an artifact) is left for reference-values-match, which says which form it takes.
 */
export function normaliseReferences(call: ProposedCall, schema: object, provenance: ProvenanceView): ProposedCall {
  const args = { ...call.args };
  const refs = { ...call.refs };
  const artifactArgs = artifactArguments(schema);
  for (const [p, { list }] of artifactArgs) {
    const ref = refs[p];
    if (ref === undefined) continue;
    if (args[p] === undefined && !list) args[p] = ref;
    const value = args[p];
    if (value === ref || (list && Array.isArray(value) && value.includes(ref))) delete refs[p];
  }
  const unresolvable = new Set<string>();
  for (const [p, value] of Object.entries(args)) {
    if (artifactArgs.has(p) || !isRef(value) || admitsString(schema, p)) continue;
    // A reference as the value of a number (or list) argument: the recorded value, by that reference.
    if (refs[p] === undefined) refs[p] = value;
    const r = resolveRef(provenance, value);
    if (r.ok) {
      args[p] = r.value;
    } else {
      delete args[p];
      unresolvable.add(p);
    }
  }
  for (const [p, ref] of Object.entries(refs)) {
    if (artifactArgs.has(p) || unresolvable.has(p)) continue;
    const r = resolveRef(provenance, ref);
    if (!r.ok) continue;
    // Left out: the recorded value. Given equal up to floating-point noise: the recorded value
    // too, so what the tool and every later rule see is exactly the record.
    if (args[p] === undefined || valueDifference(args[p], r.value) === undefined) args[p] = r.value;
  }
  return { ...call, args, refs };
}

export function runTierOne(spec: ToolSpec, call: ProposedCall, provenance: ProvenanceView): Verdict[] {
  const names = [...new Set([...REFERENCE_RULES, ...spec.rules])];
  const verdicts: Verdict[] = [];
  for (const name of names) {
    const rule = TIER_ONE_RULES[name];
    if (!rule) {
      verdicts.push({
        tier: 'tier1',
        rule: name,
        level: 'fail',
        judged: true,
        reasons: [`tool ${spec.name} names an unknown tier-1 rule "${name}"; known rules: ${Object.keys(TIER_ONE_RULES).join(', ')}`],
      });
      continue;
    }
    try {
      verdicts.push(...rule({ call, schema: spec.schema, provenance }));
    } catch (e) {
      verdicts.push({
        tier: 'tier1',
        rule: name,
        level: 'fail',
        judged: true,
        reasons: [`the rule could not check this call: ${(e as Error).message}`],
      });
    }
  }
  return verdicts;
}

export const worstLevel = (vs: Verdict[]): Verdict['level'] =>
  vs.some((v) => v.level === 'fail') ? 'fail' : vs.some((v) => v.level === 'warn') ? 'warn' : 'pass';

export async function assessCall(spec: GuardedToolSpec, proposed: ProposedCall, opts: AssessOptions): Promise<Assessment> {
  const call = normaliseReferences(proposed, spec.schema, opts.provenance);
  const schema = checkArguments(spec.schema, spec.name, call.args);
  const empty: Assessment = { call, schemaProblems: [], tier1: [], tier2: [], tier3: [] };
  if (!schema.ok) return { ...empty, schemaProblems: schema.problems };
  const tier1 = runTierOne(spec, call, opts.provenance);
  if (worstLevel(tier1) === 'fail') return { ...empty, tier1 };

  const paramRule = latestRuleText('param-judge').id;
  const crossRule = latestRuleText('cross-judge').id;
  const judged = spec.parameterJudge !== false;
  const params = Object.keys(call.args);
  const why = !opts.judge
    ? 'no judge model is configured'
    : !opts.judge.provider.judges
      ? `provider ${opts.judge.provider.name} does not judge`
      : undefined;
  if (why) {
    return {
      ...empty,
      tier1,
      tier2: judged ? notJudged('tier2', paramRule, why, params) : [],
      tier3: spec.crossParameterJudge ? notJudged('tier3', crossRule, why, [undefined]) : [],
    };
  }
  const judge = opts.judge!;
  const [tier2, tier3] = await Promise.all([
    judged ? judgeParametersSparingly(call, spec.schema, opts.provenance, tier1, judge) : Promise.resolve([]),
    spec.crossParameterJudge ? judgeCombination(call, opts.provenance, tier1, judge).then((v) => [v]) : Promise.resolve([]),
  ]);
  return { ...empty, tier1, tier2, tier3 };
}

/** The per-parameter judge, unless judgeEconomy spares it (the verdicts then say why it was not asked). */
async function judgeParametersSparingly(
  call: ProposedCall,
  schema: object,
  provenance: ProvenanceView,
  tier1: Verdict[],
  judge: JudgeConfig,
): Promise<Verdict[]> {
  const spared = await spareParameterJudge(call, schema, provenance, judge.memo);
  if (spared && 'verdicts' in spared) return spared.verdicts;
  const verdicts = await judgeParameters(call, provenance, tier1, judge, schema).catch((e: unknown) => {
    if (spared) spared.settle(undefined);
    throw e;
  });
  if (spared) spared.settle(verdicts);
  return verdicts;
}
