// The LLM planner through the real Anthropic SDK against the scripted fake Messages API:
// a forced tool carries the hypothesis; a refused proposal goes back to the model and
// costs no relaxation; the model sees the relaxation history and may terminate.
import assert from 'node:assert/strict';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { ScreenAndRelaxExecutor } from '../../../../src/core/adsorption/executor';
import { HYPOTHESIS_SCHEMA } from '../../../../src/core/adsorption/hypothesis';
import { LlmPlanner } from '../../../../src/core/agents/adsorptionPlanner';
import { PLANNER_TOOL } from '../../../../src/core/agents/prompts/adsorptionPlanner';
import { prepareSurface, searchAdsorption } from '../../../../src/core/adsorption/search';
import { EmtCalculator } from '../../../../src/core/calculators/emt';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';
import { fcc111 } from '../adsorption/fixtures';

const KEY = 'sk-ant-test-adsorption-0123456789';

describe('LLM planner (Anthropic SDK against the fake Messages API)', function () {
  this.timeout(60_000);

  it('proposes through the forced tool (a model that accepts forcing), corrects a refused proposal, reads the history and terminates', async () => {
    const pt = prepareSurface(fcc111('Pt'));
    const fcc = pt.surface.sites.find((s) => s.hollowType === 'fcc')!;
    const tool = (input: Record<string, unknown>) => ({ content: [{ type: 'tool_use', name: PLANNER_TOOL, input }] });
    const api = await FakeAnthropicApi.start({
      apiKey: KEY,
      script: {
        steps: [
          {
            name: 'binds-through-H',
            reply: tool({
              action: 'propose',
              siteType: 'hollow',
              surfaceAtoms: fcc.surfaceAtoms,
              bindingAtoms: [1],
              orientation: 'upright',
              rationale: 'H points down',
            }),
          },
          {
            name: 'corrected',
            match: { lastUser: 'binding atom 1 is hydrogen' },
            reply: tool({
              action: 'propose',
              siteType: 'hollow',
              surfaceAtoms: fcc.surfaceAtoms,
              bindingAtoms: [0],
              orientation: 'upright',
              rationale: 'O in the fcc hollow',
            }),
          },
          {
            name: 'terminate',
            match: { lastUser: 'Relaxations so far' },
            reply: tool({ action: 'terminate', reason: 'the fcc hollow is the expected minimum for OH on Pt(111)' }),
          },
        ],
      },
    });
    try {
      const usage: string[] = [];
      const provider = new AnthropicProvider({
        apiKey: KEY,
        baseURL: api.baseURL,
        retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
      });
      const planner = new LlmPlanner({ provider, model: 'claude-haiku-5-5', onUsage: (u) => usage.push(`${u.role}/${u.category}`) });
      const emt = new EmtCalculator();
      const search = await searchAdsorption({ slab: pt, adsorbate: adsorbate('OH'), planner, executor: new ScreenAndRelaxExecutor(emt) });

      assert.equal(search.result.relaxations, 1);
      assert.equal(search.result.rejections.length, 1);
      assert.match(search.result.rejections[0]!.reasons.join(' '), /binding atom 1 is hydrogen/);
      assert.equal(search.result.stopReason, 'planner-terminated');
      assert.match(search.result.stopDetail, /expected minimum/);
      assert.equal(search.result.best!.plannedSite.hollowType, 'fcc');
      assert.deepEqual(api.remainingSteps(), []);
      assert.deepEqual(usage, ['planner/plan', 'planner/plan', 'planner/plan']);

      const bodies = api.requests.map((r) => r.body as Record<string, any>);
      assert.equal(bodies.length, 3);
      for (const b of bodies) {
        assert.deepEqual(b.tool_choice, { type: 'tool', name: PLANNER_TOOL });
        assert.deepEqual(b.tools[0].input_schema, JSON.parse(JSON.stringify(HYPOTHESIS_SCHEMA)));
        assert.match(JSON.stringify(b.system), /adsorption planner/);
      }
      const lastUser = (b: Record<string, any>) => JSON.stringify(b.messages[b.messages.length - 1].content);
      assert.match(lastUser(bodies[0]!), /No configuration has been relaxed yet/);
      assert.match(lastUser(bodies[0]!), /Top-layer atoms/);
      const e = search.result.iterations[0]!.adsorptionEnergyEv.toFixed(3);
      assert.ok(lastUser(bodies[2]!).includes(`slip none, intact, ${e}`), lastUser(bodies[2]!));
    } finally {
      await api.stop();
    }
  });
});

describe('LLM planner with a model that refuses a forced tool choice', function () {
  this.timeout(60_000);

  it('asks with tool_choice auto, and a text-only answer becomes a refusal the model reads', async () => {
    const pt = prepareSurface(fcc111('Pt'));
    const fcc = pt.surface.sites.find((s) => s.hollowType === 'fcc')!;
    const api = await FakeAnthropicApi.start({
      apiKey: KEY,
      script: {
        steps: [
          { name: 'talks', reply: { content: [{ type: 'text', text: 'I would try the fcc hollow.' }] } },
          {
            name: 'calls',
            match: { lastUser: 'does not match its schema' },
            reply: {
              content: [
                {
                  type: 'tool_use',
                  name: PLANNER_TOOL,
                  input: {
                    action: 'propose',
                    siteType: 'hollow',
                    surfaceAtoms: fcc.surfaceAtoms,
                    bindingAtoms: [0],
                    orientation: 'upright',
                  },
                },
              ],
            },
          },
          { name: 'stops', reply: { content: [{ type: 'tool_use', name: PLANNER_TOOL, input: { action: 'terminate', reason: 'done' } }] } },
        ],
      },
    });
    try {
      const provider = new AnthropicProvider({
        apiKey: KEY,
        baseURL: api.baseURL,
        retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
      });
      const search = await searchAdsorption({
        slab: pt,
        adsorbate: adsorbate('O'),
        planner: new LlmPlanner({ provider, model: 'claude-opus-5-5' }),
        executor: new ScreenAndRelaxExecutor(new EmtCalculator()),
      });
      assert.equal(search.result.relaxations, 1);
      assert.equal(search.result.rejections.length, 1);
      const bodies = api.requests.map((r) => r.body as Record<string, any>);
      for (const b of bodies) assert.deepEqual(b.tool_choice, { type: 'auto' });
      assert.match(JSON.stringify(bodies[0]!.system), /Always answer by calling propose_adsorption_hypothesis/);
    } finally {
      await api.stop();
    }
  });
});
