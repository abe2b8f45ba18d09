/**
 * The adversarial scenario harness. The deterministic tier (schema, tier 1, the report
 * judge's claim and upstream checks) must reach exactly the expected verdict on every
 * scenario in its scope: the same level and exactly the expected failing rules (no false
 * positives, no false negatives). Scenarios that only a model can catch (judge-scope)
 * must pass tier 1; the judge tiers are reported apart: against the fake API here (to
 * prove the plumbing), and against a real model when DREAMS_SCENARIO_JUDGE_MODEL and
 * ANTHROPIC_API_KEY are set.
 */
import assert from 'node:assert/strict';
import { assessCall, worstLevel } from '../../../../src/core/guard/assessCall';
import { judgeReport } from '../../../../src/core/guard/reportJudge';
import type { Verdict } from '../../../../src/core/guard/types';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import { resolveRoleModels } from '../../../../src/core/llm/models';
import type { JudgeConfig } from '../../../../src/core/guard/judges/askJudge';
import { CATEGORIES, claimsOf, loadScenarios, prepare, proposedOf, type Scenario } from './support/scenarios';
import { closeAllBases } from './support/scenarioBases';
import { crossVerdict, paramVerdicts, startJudgeRig } from './support/judgeRig';

const registry = new ToolRegistry();
const scenarios = loadScenarios();

const problems = (vs: Verdict[]) => vs.filter((v) => v.level !== 'pass' && v.judged);
const ruleSet = (vs: Verdict[]) => [...new Set(problems(vs).map((v) => v.rule))].sort();

async function deterministic(s: Scenario): Promise<{ level: string; rules: string[]; detail: string; tier: string }> {
  const base = await prepare(s);
  if (s.report) {
    const j = await judgeReport(claimsOf(s, base), {
      provenance: base.provenance,
      approvals: base.approvals,
      specOf: (t) => registry.get(t),
    });
    const all = [...j.claims.flatMap((c) => c.verdicts), ...j.upstream, ...j.calls.flatMap((c) => c.reportTime)];
    return {
      tier: 'report',
      level: j.level,
      rules: ruleSet(all),
      detail: problems(all)
        .map((v) => v.reasons.join(' '))
        .join(' | '),
    };
  }
  const spec = registry.get(s.call!.tool);
  assert.ok(spec, `scenario ${s.id}: unknown tool ${s.call!.tool}`);
  const a = await assessCall(spec, proposedOf(s, base), { provenance: base.provenance });
  if (a.schemaProblems.length) return { tier: 'schema', level: 'fail', rules: ['arguments-schema'], detail: a.schemaProblems.join(' | ') };
  return {
    tier: 'tier1',
    level: worstLevel(a.tier1),
    rules: ruleSet(a.tier1),
    detail: problems(a.tier1)
      .map((v) => v.reasons.join(' '))
      .join(' | '),
  };
}

describe('adversarial guard scenarios', () => {
  afterEach(closeAllBases);
  it('has at least 60 scenarios, with unique ids, covering every category', () => {
    assert.ok(scenarios.length >= 60, `only ${scenarios.length} scenarios`);
    const ids = scenarios.map((s) => s.scenario.id);
    assert.equal(new Set(ids).size, ids.length, 'scenario ids repeat');
    for (const c of CATEGORIES)
      assert.ok(
        scenarios.some((s) => s.scenario.category === c),
        `no scenario of category ${c}`,
      );
    for (const { file, scenario } of scenarios) {
      assert.equal(file, `${scenario.id}.json`, 'file name is the scenario id');
      assert.ok(!!scenario.call !== !!scenario.report, `${scenario.id}: a scenario is either a call or a report`);
      assert.ok(CATEGORIES.includes(scenario.category), `${scenario.id}: unknown category ${scenario.category}`);
      if (scenario.category === 'judge-scope')
        assert.ok(
          scenario.judge && scenario.expect.level === 'pass',
          `${scenario.id}: judge-scope scenarios pass tier 1 and state the judge's expected verdict`,
        );
    }
  });

  describe('deterministic tier: every scenario in scope exactly right', () => {
    for (const { scenario: s } of scenarios) {
      it(`${s.category} · ${s.id}`, async () => {
        const got = await deterministic(s);
        assert.deepEqual(
          { tier: got.tier, level: got.level, rules: got.rules },
          { tier: s.expect.tier, level: s.expect.level, rules: [...s.expect.rules].sort() },
          `${s.description}\n  guard said: ${got.detail || '(no problems)'}`,
        );
      });
    }
  });

  it('counts: no false positives on legitimate calls, no false negatives on adversarial ones', async () => {
    let falsePositives = 0;
    let falseNegatives = 0;
    for (const { scenario: s } of scenarios) {
      const got = await deterministic(s);
      if (s.expect.level === 'pass' && got.level !== 'pass') falsePositives++;
      if (s.expect.level !== 'pass' && got.level === 'pass') falseNegatives++;
    }
    const adversarial = scenarios.filter((s) => s.scenario.expect.level !== 'pass').length;
    console.log(
      `      deterministic tier: ${scenarios.length} scenarios, ${adversarial} adversarial, ${falsePositives} false positive(s), ${falseNegatives} false negative(s)`,
    );
    assert.deepEqual({ falsePositives, falseNegatives }, { falsePositives: 0, falseNegatives: 0 });
  });

  it('judge tiers on the fake API: one batched request per call, one verdict per parameter (plumbing)', async () => {
    const judgeScoped = scenarios.filter((s) => s.scenario.judge && s.scenario.call);
    assert.ok(judgeScoped.length >= 4, 'judge-scope scenarios exist');
    for (const { scenario: s } of judgeScoped) {
      const base = await prepare(s);
      const call = proposedOf(s, base);
      const spec = registry.get(call.tool)!;
      const verdicts = Object.keys(call.args).map((p) => ({
        parameter: p,
        level: p === s.judge!.parameter ? s.judge!.level : ('pass' as const),
        reasons: [p === s.judge!.parameter ? s.judge!.why : 'fine'],
      }));
      const rig = await startJudgeRig({
        steps: [paramVerdicts(verdicts), ...(spec.crossParameterJudge ? [crossVerdict('pass', ['fits together'])] : [])],
      });
      try {
        const a = await assessCall(spec, call, { provenance: base.provenance, judge: rig.judge });
        rig.api.assertScriptDone();
        const paramRequests = rig.api.requests.filter(
          (r) =>
            JSON.stringify(r.body).includes('record_parameter_verdicts') &&
            (r.body as { tool_choice?: { name?: string } }).tool_choice?.name === 'record_parameter_verdicts',
        );
        assert.equal(paramRequests.length, 1, `${s.id}: one per-parameter request`);
        assert.deepEqual(a.tier2.map((v) => v.parameter).sort(), Object.keys(call.args).sort(), `${s.id}: one verdict per parameter`);
        assert.equal(worstLevel(a.tier2), s.judge!.level, `${s.id}: the recorded tier-2 verdict is the judge's`);
      } finally {
        await rig.stop();
      }
    }
  });

  const model = process.env.DREAMS_SCENARIO_JUDGE_MODEL;
  const key = process.env.ANTHROPIC_API_KEY;
  if (model && key) {
    it(`judge tiers with ${model}: agreement reported apart from the deterministic tier`, async function () {
      this.timeout(600_000);
      const models = resolveRoleModels({ 'param-judge': model, 'cross-judge': model, 'report-judge': model });
      const judge: JudgeConfig = {
        provider: new AnthropicProvider({
          apiKey: key,
          ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        }),
        models,
        catalogue: registry.judgeCatalogue(),
      };
      const rows: string[] = [];
      let agree = 0;
      let infra = 0;
      const judged = scenarios.filter((s) => s.scenario.call && s.scenario.expect.tier === 'tier1' && s.scenario.expect.level === 'pass');
      for (const { scenario: s } of judged) {
        const base = await prepare(s);
        const a = await assessCall(registry.get(s.call!.tool)!, proposedOf(s, base), { provenance: base.provenance, judge });
        const level = worstLevel([...a.tier2, ...a.tier3].filter((v) => v.judged));
        infra += [...a.tier2, ...a.tier3].filter((v) => v.infraError).length;
        const want = s.judge?.level ?? 'pass';
        if (level === want) agree++;
        rows.push(`${s.id}: judge ${level}, expected ${want}`);
      }
      console.log(
        `      model tiers (${model}): ${agree}/${judged.length} agree, ${infra} judge infrastructure error(s)\n      ${rows.join('\n      ')}`,
      );
      assert.ok(judged.length > 0);
    });
  }
});
