// The adsorption-search workflow with the LLM planner: the planner's requests go through
// the real Anthropic SDK to the scripted fake Messages API (the supervisor and workers are
// answered by the offline provider, so the script holds only the planner's decisions).
// Each proposal is a guarded call: the invalid, the FORBIDDEN and the repeated ones are
// refused without a relaxation and the refusal reaches the model; TERMINATE ends the loop.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { OfflineProvider } from '../../../../src/core/agents/offlineProvider';
import { PlanStore } from '../../../../src/core/plan/store';
import { RunController } from '../../../../src/core/run/controller';
import { stepContext } from '../../../../src/core/agents/supervisor';
import type { SearchResultValue } from '../../../../src/core/tools/adsorptionSearch/searchOutputs';
import { PLANNER_TOOL } from '../../../../src/core/agents/prompts/adsorptionPlanner';
import { prepareSurface } from '../../../../src/core/adsorption/search';
import { readExtxyz } from '../../../../src/core/dft/io/extxyz';
import { parseObjectiveFile } from '../../../../src/core/workflows/objective';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import type { LlmProvider } from '../../../../src/core/llm/types';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';
import { byName, callsOf, emtSearchSettings, freshDir } from './support/adsorptionSearch';

const KEY = 'sk-ant-test-adsorption-search-0001';

/** The AdsMind Pd3Cu(111) slab: O on top of a Pd of the Pd31/Pd63 class relaxes into a Pd3 fcc hollow under EMT. */
const SLAB = path.join(__dirname, '../../../fixtures/adsmind/aa20/03_Pd3Cu_111.xyz');

describe('adsorption-search workflow with the LLM planner (real SDK, fake Messages API)', function () {
  this.timeout(120_000);

  it('refusals go back to the model and cost no relaxation; a slipped site is FORBIDDEN; TERMINATE when the best configuration comes back', async () => {
    const { surface } = prepareSurface(readExtxyz(fs.readFileSync(SLAB, 'utf8')));
    const bottom = [...Array(64).keys()].find((i) => !surface.topLayer.includes(i))!;
    const onPd = surface.sites.find((s) => s.kind === 'ontop' && s.surfaceAtoms[0] === 63)!;
    const otherOnPd = surface.sites.find((s) => s.fingerprint === onPd.fingerprint && s.id !== onPd.id)!;
    const pd3 = (hollowType: string) =>
      surface.sites.find((s) => s.hollowType === hollowType && s.surfaceAtoms.every((i) => [53, 55, 57, 63].includes(i)))!;
    const hcp = pd3('hcp');
    const fcc = pd3('fcc');
    const propose = (siteType: string, surfaceAtoms: number[], orientation: string, rationale: string) => ({
      content: [
        {
          type: 'tool_use' as const,
          name: PLANNER_TOOL,
          input: { action: 'propose', siteType, surfaceAtoms, bindingAtoms: [0], orientation, rationale },
        },
      ],
    });
    const planner = 'adsorption planner';
    const api = await FakeAnthropicApi.start({
      apiKey: KEY,
      script: {
        steps: [
          {
            name: 'below the surface',
            match: { system: planner },
            reply: propose('ontop', [bottom], 'upright', 'O on top of a metal atom'),
          },
          {
            name: 'on top of Pd',
            match: { system: planner, lastUser: 'not in the top layer' },
            reply: propose('ontop', onPd.surfaceAtoms, 'upright', 'O on top of a Pd'),
          },
          {
            name: 'forbidden ontop',
            match: { system: planner, lastUser: 'FORBID' },
            reply: propose('ontop', otherOnPd.surfaceAtoms, 'tilted', 'another Pd of the same kind'),
          },
          {
            name: 'hcp',
            match: { system: planner, lastUser: 'is forbidden' },
            reply: propose('hollow', hcp.surfaceAtoms, 'upright', 'O prefers three-fold hollows'),
          },
          {
            name: 'repeat',
            match: { system: planner, lastUser: 'Relaxations so far' },
            reply: propose('hollow', hcp.surfaceAtoms, 'upright', 'once more'),
          },
          {
            name: 'fcc tilted',
            match: { system: planner, lastUser: 'repeats one already relaxed' },
            reply: propose('hollow', fcc.surfaceAtoms, 'tilted', 'the Pd3 fcc hollow the first one slipped into'),
          },
        ],
      },
    });
    const anthropic = new AnthropicProvider({
      apiKey: KEY,
      baseURL: api.baseURL,
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
    });
    let offline: OfflineProvider | undefined;
    const provider: LlmProvider = {
      name: 'offline agents, model planner',
      judges: false,
      complete: (req, o) => (req.role === 'planner' ? anthropic.complete(req, o) : offline!.complete(req)),
    };
    const dir = freshDir('dreams-adsearch-llm-');
    fs.mkdirSync(path.join(dir, 'slabs'));
    fs.copyFileSync(SLAB, path.join(dir, 'slabs', 'pd3cu.xyz'));
    const file = path.join(dir, 'search.yaml');
    fs.writeFileSync(
      file,
      [
        'workflow: adsorption-search',
        'inputs:',
        '  slab: { file: slabs/pd3cu.xyz }',
        '  adsorbate: O',
        '  calculator: { kind: emt }',
        '  planner: llm',
        '',
      ].join('\n'),
    );
    const settings = emtSearchSettings(parseObjectiveFile(fs.readFileSync(file, 'utf8'), file).inputs!, { offline: false });
    const c = await RunController.start({ runsDir: path.join(dir, 'runs'), settings }, { provider });
    offline = new OfflineProvider(() => ({
      plan: () => new PlanStore(c.session.run.canvas).current(),
      stepContext: () => stepContext(c.session.runtime),
      toolSchema: (t) => c.session.runtime.registry.get(t)?.schema,
      objective: settings.objective,
      provenance: c.session.run.registry,
    }));
    try {
      const result = await c.run();
      assert.equal(result.state, 'completed', result.reason);
      api.assertScriptDone();
      const reg = c.session.run.registry;
      const value = byName(reg, 'adsorption_search_result').at(-1)!.value as SearchResultValue;
      assert.equal(value.planner, 'llm:claude-opus-5-5');
      assert.equal(value.relaxations, 3);
      assert.equal(value.stopReason, 'converged');
      assert.equal(value.iterations[0]!.slip, 'geometric');
      assert.deepEqual(value.forbid, [onPd.fingerprint]);
      // The slipped configuration is the best: the Pd3 fcc hollow the third start relaxes into again.
      assert.equal(value.best!.iteration, 1);

      const evaluations = callsOf(reg, 'evaluate_adsorption_hypothesis');
      assert.deepEqual(
        evaluations.map((e) => e.status),
        ['refused', 'ok', 'refused', 'ok', 'refused', 'ok'],
      );
      assert.deepEqual(
        value.rejections.map((r) => r.call),
        evaluations.filter((e) => e.status === 'refused').map((e) => e.id),
      );
      for (const e of evaluations.filter((x) => x.status === 'refused')) assert.deepEqual(e.outputs, [], `${e.id} made nothing`);
      assert.equal(evaluations[1]!.agent.model, 'llm:claude-opus-5-5');
      assert.equal(evaluations[1]!.reasons.siteType, 'O on top of a Pd');

      // What the model was told after each refusal and relaxation.
      const bodies = api.requests.map((r) => r.body as { messages: { content: unknown }[] });
      const told = (i: number) => JSON.stringify(bodies[i]!.messages.at(-1)!.content);
      assert.match(told(1), new RegExp(`surface atom\\(s\\) ${bottom} are not in the top layer`));
      assert.match(told(2), /slip geometric/);
      assert.match(told(3), /is forbidden: a configuration planned there relaxed away before/);
      assert.match(told(5), new RegExp(`repeats one already relaxed[\\s\\S]*${value.iterations[1]!.refs.configuration}`));

      const plannerCalls = c.session.run.log
        .events()
        .filter((e) => e.kind === 'llm.usage' && (e.payload as { role: string }).role === 'planner');
      assert.equal(plannerCalls.length, 6);
      const judged = [...c.session.run.log.events()].reverse().find((e) => e.kind === 'report.judged')!.payload as { accepted: boolean };
      assert.ok(judged.accepted);
    } finally {
      await c.close();
      await api.stop();
    }
  });
});
