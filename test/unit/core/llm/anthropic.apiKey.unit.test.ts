import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import type { LlmError } from '../../../../src/core/llm/types';
import { request, startRig, TEST_KEY, type Rig } from './fakeApiHarness';

describe('Anthropic provider: the API key', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });

  it('without a key, a call fails with an auth error that says how to set one, and sends nothing', async () => {
    rig = await startRig({ script: { steps: [] } });
    const p = new AnthropicProvider({ apiKey: '  ', baseURL: rig.api.baseURL });
    await assert.rejects(p.complete(request()), (e: LlmError) => {
      assert.equal(e.code, 'auth');
      assert.match(e.message, /no Anthropic API key.*set ANTHROPIC_API_KEY or store the key with the 'DREAMS: Set API Key' command/);
      return true;
    });
    assert.equal(rig.api.requests.length, 0);
  });

  it('a rejected key is an auth error with the same hint, not retried', async () => {
    rig = await startRig({ script: { steps: [] } });
    const p = new AnthropicProvider({ apiKey: 'sk-ant-wrong-key-000000', baseURL: rig.api.baseURL });
    await assert.rejects(p.complete(request()), (e: LlmError) => {
      assert.equal(e.code, 'auth');
      assert.equal(e.status, 401);
      assert.match(e.message, /rejected the API key.*'DREAMS: Set API Key'/);
      assert.ok(!e.message.includes('sk-ant-wrong-key-000000'));
      return true;
    });
    assert.equal(rig.api.requests.length, 1);
  });

  it('never shows the key: not in errors that echo it, not in retry events, not when the provider is inspected', async () => {
    rig = await startRig({
      script: {
        steps: [
          { fault: { type: 'server_error', status: 503, message: `upstream saw key ${TEST_KEY}` } },
          { fault: { type: 'http_error', status: 400, errorType: 'invalid_request_error', message: `bad header Bearer ${TEST_KEY}` } },
        ],
      },
    });
    const reasons: string[] = [];
    await assert.rejects(
      rig.provider.complete(request(), { onEvent: (e) => e.type === 'retry' && reasons.push(e.reason) }),
      (e: LlmError) => {
        assert.ok(!e.message.includes(TEST_KEY), e.message);
        assert.match(e.message, /bad header Bearer \[redacted\]/);
        return true;
      },
    );
    assert.equal(reasons.length, 1);
    assert.ok(!reasons[0]!.includes(TEST_KEY) && reasons[0]!.includes('[redacted]'), reasons[0]);
    assert.ok(!inspect(rig.provider, { depth: 20, showHidden: true }).includes(TEST_KEY));
    assert.ok(!JSON.stringify(rig.provider).includes(TEST_KEY));
    assert.equal(rig.api.requests[0]!.headers.authorization, '<present>');
  });
});
