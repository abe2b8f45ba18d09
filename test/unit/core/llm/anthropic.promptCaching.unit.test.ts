import assert from 'node:assert/strict';
import type { LlmMessage, LlmRequest, ToolUseBlock } from '../../../../src/core/llm/types';
import { request, startRig, type Rig } from './fakeApiHarness';

const RULES = 'Rule cutoff-vs-pseudo@2: a cutoff below the pseudopotential suggestion fails. '.repeat(40);
const ROLE = 'You are the DFT worker. You run pw.x through tools and cite artifacts. '.repeat(10);
const TOOLS = ['run_scf', 'run_cutoff_sweep', 'fit_eos'].map((name) => ({
  name,
  description: `${name}: runs Quantum ESPRESSO and registers its outputs as artifacts. `.repeat(5),
  inputSchema: { type: 'object', properties: { ecutwfcRy: { type: 'number' } } },
}));

function judgeLikeRequest(question: string, over: Partial<LlmRequest> = {}): LlmRequest {
  return request({
    system: [{ text: ROLE }, { text: RULES, cache: true }, { text: `Step: ${question}` }],
    tools: TOOLS,
    cacheTools: true,
    messages: [{ role: 'user', content: question }],
    ...over,
  });
}

describe('Anthropic provider: prompt caching on stable prefixes', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });

  it('marks the tools and the last cacheable system part, and the second request reads the cache', async () => {
    let clock = 1_000_000;
    rig = await startRig({
      now: () => clock,
      script: { steps: [{ reply: { content: [{ type: 'text', text: 'ok' }] }, times: 'always' }] },
    });
    const first = await rig.provider.complete(judgeLikeRequest('converge the cutoff'));
    clock += 60_000;
    const second = await rig.provider.complete(judgeLikeRequest('converge the k-mesh'));

    const body = rig.api.requests[0]!.body as { tools: { cache_control?: unknown }[]; system: { cache_control?: unknown }[] };
    assert.deepEqual(
      body.tools.map((t) => t.cache_control !== undefined),
      [false, false, true],
    );
    assert.deepEqual(
      body.system.map((p) => p.cache_control !== undefined),
      [false, true, false],
    );

    assert.equal(first.usage.cacheReadTokens, 0);
    assert.ok(first.usage.cacheWriteTokens > 500, `tools + role + rules should be written, got ${first.usage.cacheWriteTokens}`);
    assert.equal(second.usage.cacheReadTokens, first.usage.cacheWriteTokens, 'the stable prefix is read back whole');
    assert.equal(second.usage.cacheWriteTokens, 0);
    assert.ok(second.usage.inputTokens < 40, `only the step line and the question are uncached, got ${second.usage.inputTokens}`);
  });

  it('an expired entry (past 5 minutes) is written again', async () => {
    let clock = 0;
    rig = await startRig({
      now: () => clock,
      script: { steps: [{ reply: { content: [{ type: 'text', text: 'ok' }] }, times: 'always' }] },
    });
    const first = await rig.provider.complete(judgeLikeRequest('a'));
    clock += 5 * 60_000 + 1;
    const late = await rig.provider.complete(judgeLikeRequest('b'));
    assert.equal(late.usage.cacheReadTokens, 0);
    assert.equal(late.usage.cacheWriteTokens, first.usage.cacheWriteTokens);
  });

  it('without cache flags nothing is marked and nothing is read', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'ok' }] }, times: 'always' }] } });
    const plain = (q: string) => judgeLikeRequest(q, { cacheTools: false, system: [{ text: ROLE }, { text: RULES }] });
    await rig.provider.complete(plain('a'));
    const second = await rig.provider.complete(plain('b'));
    assert.ok(!rig.api.requests[1]!.rawBody.includes('cache_control'));
    assert.deepEqual([second.usage.cacheReadTokens, second.usage.cacheWriteTokens], [0, 0]);
  });

  it('cacheHistory: each turn of a tool loop reads the conversation the previous turn wrote', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            reply: {
              content: [
                { type: 'thinking', thinking: 'start with the sweep' },
                { type: 'tool_use', name: 'run_cutoff_sweep', input: { ecutwfcRy: 30 } },
              ],
            },
          },
          { reply: { content: [{ type: 'tool_use', name: 'fit_eos', input: {} }] } },
          { reply: { content: [{ type: 'text', text: 'a0 = 4.04 Å (a-31)' }] } },
        ],
      },
    });
    const messages: LlmMessage[] = [{ role: 'user', content: 'Lattice constant of fcc Al. '.repeat(30) }];
    const turns = [];
    for (let turn = 0; turn < 3; turn++) {
      const res = await rig.provider.complete(
        judgeLikeRequest('', { messages: [...messages], cacheHistory: true, model: 'claude-opus-5-5' }),
      );
      turns.push(res.usage);
      const use = res.content.find((b): b is ToolUseBlock => b.type === 'tool_use');
      if (!use) break;
      messages.push({ role: 'assistant', content: res.content });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: use.id, content: `result of ${use.name}: artifact a-${turn + 30}` }],
      });
    }
    assert.equal(turns.length, 3);
    const written = turns[0]!.cacheWriteTokens + turns[1]!.cacheWriteTokens;
    assert.equal(turns[2]!.cacheReadTokens, written, 'turn 3 reads everything turns 1 and 2 wrote');
    assert.ok(turns[1]!.cacheReadTokens >= turns[0]!.cacheWriteTokens);
    for (const u of turns.slice(1))
      assert.ok(u.inputTokens <= 3, `only the part after the last breakpoint is uncached, got ${u.inputTokens}`);
    rig.api.assertScriptDone();
  });
});
