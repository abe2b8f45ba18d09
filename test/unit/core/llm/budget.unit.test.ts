import assert from 'node:assert/strict';
import { BudgetExceededError, llmBudgetMeters, RunBudget } from '../../../../src/core/llm/budget';
import { meteredProvider } from '../../../../src/core/llm/metered';
import { totalTokens, UsageLedger } from '../../../../src/core/llm/usage';
import { request, startRig, type Rig } from './fakeApiHarness';

const budgetError = (meter: string, pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof BudgetExceededError, `expected BudgetExceededError, got ${String(e)}`);
  assert.equal(e.code, 'budget');
  assert.equal(e.meter, meter);
  assert.match(e.message, pattern);
  return true;
};

describe('run budget', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });

  it('a token limit stops the run: the crossing response is recorded and refused, the next call never sent', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'step done' }] }, times: 'always' }] } });
    const ledger = new UsageLedger();
    const probe = await rig.provider.complete(request());
    const perCall = totalTokens(probe.usage);
    const limit = Math.floor(perCall * 2.5);
    const provider = meteredProvider(rig.provider, { ledger, budget: new RunBudget(llmBudgetMeters(ledger, { maxTokens: limit })) });

    await provider.complete(request());
    await provider.complete(request());
    await assert.rejects(provider.complete(request()), (e: unknown) => {
      budgetError(
        'tokens',
        new RegExp(
          `model tokens spent ${(perCall * 3).toLocaleString('en-US')} tokens of the ${limit.toLocaleString('en-US')} tokens limit`,
        ),
      )(e);
      assert.ok((e as BudgetExceededError).response, 'the response that crossed the limit is handed back');
      return true;
    });
    assert.equal(ledger.totals().responses, 3, 'the crossing response was paid for and is on the account');
    const sentBefore = rig.api.requests.length;
    await assert.rejects(provider.complete(request()), budgetError('tokens', /No further model call is made/));
    assert.equal(rig.api.requests.length, sentBefore, 'no request once the budget is spent');
  });

  it('a cost limit counts priced spend', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'x'.repeat(4000) }] }, times: 'always' }] } });
    const ledger = new UsageLedger();
    const provider = meteredProvider(rig.provider, { ledger, budget: new RunBudget(llmBudgetMeters(ledger, { maxCostUsd: 0.03 })) });
    await provider.complete(request({ model: 'claude-opus-5-5' }));
    await assert.rejects(
      provider.complete(request({ model: 'claude-opus-5-5' })),
      budgetError('costUsd', /model cost spent \$0\.04\d+ of the \$0\.0300 limit/),
    );
  });

  it('a cost limit with a model that has no price refuses before sending', async () => {
    rig = await startRig({ script: { steps: [] } });
    const ledger = new UsageLedger();
    const provider = meteredProvider(rig.provider, { ledger, budget: new RunBudget(llmBudgetMeters(ledger, { maxCostUsd: 5 })) });
    await assert.rejects(
      provider.complete(request({ role: 'hpc', model: 'my-proxy-model' })),
      budgetError('costUsd', /cost limit of \$5 cannot be enforced: model 'my-proxy-model' has no price.*role 'hpc'/),
    );
    assert.equal(rig.api.requests.length, 0);
  });

  it('the agent loop adds its own meters (jobs, wall time) next to the LLM ones', () => {
    const ledger = new UsageLedger();
    let jobs = 0;
    const budget = new RunBudget(llmBudgetMeters(ledger, { maxTokens: 1_000_000 })).add({
      id: 'jobs',
      label: 'jobs submitted',
      limit: 3,
      spent: () => jobs,
      format: (n) => `${n} jobs`,
    });
    jobs = 2;
    budget.check('before-call');
    jobs = 3;
    assert.throws(() => budget.check('before-call'), budgetError('jobs', /jobs submitted spent 3 jobs of the 3 jobs limit/));
    assert.deepEqual(
      budget.status().map((s) => [s.id, s.fraction]),
      [
        ['tokens', 0],
        ['jobs', 1],
      ],
    );
  });

  it('refuses limits that are not positive numbers, naming the limit', () => {
    const ledger = new UsageLedger();
    assert.throws(
      () => new RunBudget(llmBudgetMeters(ledger, { maxTokens: 0 })),
      /limit for model tokens must be a positive number, got 0/,
    );
    assert.throws(
      () => new RunBudget(llmBudgetMeters(ledger, { maxCostUsd: Number.NaN })),
      /model cost must be a positive number, got NaN/,
    );
  });
});
