import assert from 'node:assert/strict';
import { meteredProvider } from '../../../../src/core/llm/metered';
import { responseCostUsd } from '../../../../src/core/llm/pricing';
import type { UsageRecord } from '../../../../src/core/llm/types';
import { UsageLedger, type UsageSnapshot } from '../../../../src/core/llm/usage';
import { request, startRig, type Rig } from './fakeApiHarness';

describe('usage ledger over real responses', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });

  it('totals by role and category equal what the API reported, priced per model, streamed to the sink', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'verdict: pass' }] }, times: 'always' }] } });
    const sunk: UsageRecord[] = [];
    const live: UsageSnapshot[] = [];
    const ledger = new UsageLedger({ sink: (r) => sunk.push(r), now: () => new Date('2026-11-30T12:00:00Z') });
    ledger.onChange((s) => live.push(s));
    const provider = meteredProvider(rig.provider, { ledger });
    const system = [{ text: 'Judge each parameter against its reason. '.repeat(30), cache: true }];

    await provider.complete(request({ role: 'supervisor', category: 'plan', model: 'claude-opus-5-5' }));
    await provider.complete(request({ role: 'param-judge', category: 'judge-param', model: 'claude-haiku-5-5', system }));
    await provider.complete(request({ role: 'param-judge', category: 'judge-param', model: 'claude-haiku-5-5', system }));
    await provider.complete(request({ role: 'dft', category: 'act', model: 'claude-sonnet-5-5' }));

    const served = rig.api.requests.map((r) => r.usage!);
    const sum = (f: (u: (typeof served)[number]) => number) => served.reduce((a, u) => a + f(u), 0);
    const t = ledger.totals();
    assert.equal(t.responses, 4);
    assert.deepEqual(t.usage, {
      inputTokens: sum((u) => u.input_tokens),
      outputTokens: sum((u) => u.output_tokens),
      cacheReadTokens: sum((u) => u.cache_read_input_tokens),
      cacheWriteTokens: sum((u) => u.cache_creation_input_tokens),
    });
    assert.ok(t.usage.cacheReadTokens > 0, 'the second judge call reads the judge prefix');

    const snap = ledger.snapshot();
    assert.deepEqual(Object.keys(snap.byRole).sort(), ['dft', 'param-judge', 'supervisor']);
    assert.equal(snap.byRole['param-judge']!.responses, 2);
    assert.equal(snap.byCategory['judge-param']!.usage.cacheReadTokens, t.usage.cacheReadTokens);
    assert.equal(snap.byCategory.plan!.responses, 1);

    const expectedCost = sunk.reduce((a, r) => a + responseCostUsd(r.model, r.usage)!, 0);
    assert.ok(Math.abs(t.costUsd - expectedCost) < 1e-12);
    assert.ok(t.costUsd > 0);
    const judge = snap.byRole['param-judge']!;
    const hitShare = judge.usage.cacheReadTokens / (judge.usage.inputTokens + judge.usage.cacheReadTokens + judge.usage.cacheWriteTokens);
    assert.equal(judge.cacheHitShare, hitShare);

    assert.equal(sunk.length, 4);
    assert.deepEqual(sunk[0], {
      ...sunk[0]!,
      role: 'supervisor',
      category: 'plan',
      model: 'claude-opus-5-5',
      at: '2026-11-30T12:00:00.000Z',
    });
    assert.deepEqual(
      live.map((s) => s.total.responses),
      [1, 2, 3, 4],
    );
    assert.deepEqual(UsageLedger.fromRecords(sunk).snapshot(), snap, 'a resumed run rebuilds the same account from its records');
  });

  it('a model with no price is cost-unknown, not free', () => {
    const ledger = new UsageLedger();
    const r = ledger.record('dft', 'act', 'my-proxy-model', {
      inputTokens: 1000,
      outputTokens: 200,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    ledger.record('dft', 'act', 'claude-sonnet-5-5', { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0 });
    assert.equal(r.costUsd, null);
    const t = ledger.totals();
    assert.equal(t.unpricedResponses, 1);
    assert.deepEqual(t.unpricedModels, ['my-proxy-model']);
    assert.equal(t.costUsd, (1000 * 2 + 200 * 10) / 1e6);
    assert.equal(
      new UsageLedger({
        extraPrices: { 'my-proxy-model': { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 } },
      }).isPriced('my-proxy-model'),
      true,
    );
  });

  it('cache-hit share is cache reads over all input, null before any input', () => {
    const ledger = new UsageLedger();
    assert.equal(ledger.totals().cacheHitShare, null);
    ledger.record('cross-judge', 'judge-cross', 'claude-opus-5-5', {
      inputTokens: 100,
      outputTokens: 10,
      cacheReadTokens: 600,
      cacheWriteTokens: 300,
    });
    assert.equal(ledger.totals().cacheHitShare, 0.6);
  });
});

describe('list prices', () => {
  it('prices each token class at its own rate', () => {
    const cost = responseCostUsd('claude-opus-5-5', { inputTokens: 1e6, outputTokens: 1e6, cacheReadTokens: 1e6, cacheWriteTokens: 1e6 });
    assert.equal(cost, 4 + 20 + 0.2 + 5);
  });

  it('Haiku 5.5 prompts over 100,000 tokens (cache included) take the long-prompt rates', () => {
    const short = responseCostUsd('claude-haiku-5-5', {
      inputTokens: 50_000,
      outputTokens: 1000,
      cacheReadTokens: 50_000,
      cacheWriteTokens: 0,
    })!;
    const long = responseCostUsd('claude-haiku-5-5', {
      inputTokens: 50_001,
      outputTokens: 1000,
      cacheReadTokens: 50_000,
      cacheWriteTokens: 0,
    })!;
    assert.ok(Math.abs(short - (50_000 * 0.1 + 1000 * 0.5 + 50_000 * 0.01) / 1e6) < 1e-15);
    assert.ok(Math.abs(long - (50_001 * 0.5 + 1000 * 2.5 + 50_000 * 0.05) / 1e6) < 1e-15);
  });

  it('an unknown model has no cost rather than zero', () => {
    assert.equal(responseCostUsd('claude-mythos-5-2', { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }), null);
  });
});
