import assert from 'node:assert/strict';
import type { LlmError, LlmStreamEvent, ToolUseBlock } from '../../../../src/core/llm/types';
import { request, startRig, type Rig } from './fakeApiHarness';

const SWEEP = { type: 'tool_use' as const, name: 'run_cutoff_sweep', input: { ecutwfcRy: [20, 25, 30, 35, 40] } };
const TOOLS = [{ name: 'run_cutoff_sweep', description: 'Run a cutoff sweep.', inputSchema: { type: 'object' } }];
const isLlmError = (kind: string, pattern?: RegExp) => (e: unknown) => {
  const err = e as LlmError;
  assert.equal(err.name, 'LlmError', `expected an LlmError, got ${String(e)}`);
  assert.equal(err.code, kind, err.message);
  if (pattern) assert.match(err.message, pattern);
  return true;
};
const retries = (events: LlmStreamEvent[]) => events.filter((e): e is Extract<LlmStreamEvent, { type: 'retry' }> => e.type === 'retry');

describe('Anthropic provider: retries, faults and cancellation', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });

  it('429 with retry-after: waits at least the header before the identical retry', async () => {
    rig = await startRig({
      script: { steps: [{ fault: { type: 'rate_limit', retryAfterSeconds: 1 } }, { reply: { content: [{ type: 'text', text: 'ok' }] } }] },
    });
    const res = await rig.provider.complete(request(), { onEvent: (e) => rig!.events.push(e) });

    assert.equal(res.attempts, 2);
    const [first, second] = rig.api.requests;
    const waitedMs = second!.receivedAt - first!.respondedAt!;
    assert.ok(waitedMs >= 1000, `the retry came ${waitedMs.toFixed(0)} ms after the 429; retry-after asked for 1000 ms`);
    assert.equal(second!.rawBody, first!.rawBody, 'the retried request must be the same request');
    const [retry] = retries(rig.events);
    assert.equal(retry!.attempt, 2);
    assert.ok(retry!.delayMs >= 1000);
    assert.match(retry!.reason, /rate-limit: 429 rate_limit_error/);
  });

  it('429 with retry-after-ms: honours the millisecond header', async () => {
    rig = await startRig({
      script: { steps: [{ fault: { type: 'rate_limit', retryAfterMs: 300 } }, { reply: { content: [{ type: 'text', text: 'ok' }] } }] },
    });
    await rig.provider.complete(request());
    const [first, second] = rig.api.requests;
    const waitedMs = second!.receivedAt - first!.respondedAt!;
    assert.ok(waitedMs >= 300, `waited ${waitedMs.toFixed(0)} ms, header said 300 ms`);
  });

  it('529 overloaded, then success', async () => {
    rig = await startRig({
      script: { steps: [{ fault: { type: 'overloaded' } }, { reply: { content: [{ type: 'text', text: 'ok' }] } }] },
    });
    const res = await rig.provider.complete(request(), { onEvent: (e) => rig!.events.push(e) });
    assert.equal(res.attempts, 2);
    assert.deepEqual(res.content, [{ type: 'text', text: 'ok' }]);
    assert.match(retries(rig.events)[0]!.reason, /overloaded: 529 overloaded_error/);
  });

  it('500 on every attempt: a server LlmError after exactly maxAttempts requests', async () => {
    rig = await startRig(
      { script: { steps: [{ fault: { type: 'server_error', status: 500 }, times: 'always' }] } },
      { retry: { maxAttempts: 3 } },
    );
    await assert.rejects(
      rig.provider.complete(request({ role: 'supervisor', model: 'claude-opus-5-5' })),
      isLlmError('server', /supervisor request to claude-opus-5-5 \(3 attempts\): 500 api_error: Internal server error.*resume later/),
    );
    assert.equal(rig.api.requests.length, 3);
  });

  it('a stream cut mid-message is retried whole: one tool use reaches the caller', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            fault: { type: 'stream_cut', afterDeltas: 3 },
            reply: { content: [{ type: 'text', text: 'Partial attempt text that must not survive.' }, SWEEP], chunkSize: 4 },
          },
          { reply: { content: [{ type: 'text', text: 'Sweeping.' }, SWEEP] } },
        ],
      },
    });
    const res = await rig.provider.complete(request({ tools: TOOLS }), { onEvent: (e) => rig!.events.push(e) });

    assert.equal(res.attempts, 2);
    assert.deepEqual(
      res.content.map((b) => b.type),
      ['text', 'tool_use'],
    );
    assert.equal((res.content[0] as { text: string }).text, 'Sweeping.');
    assert.deepEqual((res.content[1] as ToolUseBlock).input, SWEEP.input);
    assert.equal(rig.api.requests[1]!.rawBody, rig.api.requests[0]!.rawBody);
    // The display saw the cut attempt's first deltas, then the retry event telling it to drop them.
    const kinds = rig.events.map((e) => e.type);
    const retryAt = kinds.indexOf('retry');
    assert.ok(retryAt > 0 && kinds.slice(0, retryAt).includes('text'), `events: ${kinds.join(',')}`);
    assert.match(retries(rig.events)[0]!.reason, /^network: /);
  });

  it('a stream whose body ends before message_stop is incomplete and retried, never returned', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            fault: { type: 'stream_end', afterDeltas: 2 },
            reply: { content: [{ type: 'text', text: 'half a message' }, SWEEP], chunkSize: 3 },
          },
          { reply: { content: [{ type: 'text', text: 'whole' }] } },
        ],
      },
    });
    const res = await rig.provider.complete(request({ tools: TOOLS }), { onEvent: (e) => rig!.events.push(e) });
    assert.equal(res.attempts, 2);
    assert.deepEqual(res.content, [{ type: 'text', text: 'whole' }]);
    assert.match(retries(rig.events)[0]!.reason, /stream ended before message_stop after \d+ events \(1 content block begun\)/);
  });

  it('a stream that goes silent is abandoned after the idle timeout and retried', async () => {
    rig = await startRig(
      {
        script: {
          steps: [
            {
              fault: { type: 'stream_stall', afterDeltas: 1 },
              reply: { content: [{ type: 'text', text: 'stalls after one delta' }], chunkSize: 4 },
            },
            { reply: { content: [{ type: 'text', text: 'ok' }] } },
          ],
        },
      },
      { retry: { streamIdleTimeoutMs: 300 } },
    );
    const res = await rig.provider.complete(request(), { onEvent: (e) => rig!.events.push(e) });
    assert.equal(res.attempts, 2);
    assert.match(retries(rig.events)[0]!.reason, /no data from the API for 0.3 s after \d+ events/);
  });

  it('an error event inside the stream (overloaded) is retried', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            fault: { type: 'stream_error', afterDeltas: 1, errorType: 'overloaded_error' },
            reply: { content: [{ type: 'text', text: 'abcdefghij' }], chunkSize: 2 },
          },
          { reply: { content: [{ type: 'text', text: 'ok' }] } },
        ],
      },
    });
    const res = await rig.provider.complete(request(), { onEvent: (e) => rig!.events.push(e) });
    assert.equal(res.attempts, 2);
    assert.match(retries(rig.events)[0]!.reason, /^overloaded: overloaded_error/);
  });

  it('cancellation mid-stream ends the call at once with a cancelled LlmError and no retry', async () => {
    rig = await startRig({
      script: { steps: [{ reply: { content: [{ type: 'text', text: 'x'.repeat(400) }], chunkSize: 4, eventDelayMs: 20 } }] },
    });
    const ctl = new AbortController();
    const started = performance.now();
    const call = rig.provider.complete(request(), {
      signal: ctl.signal,
      onEvent: (e) => {
        rig!.events.push(e);
        if (e.type === 'text') ctl.abort();
      },
    });
    await assert.rejects(call, isLlmError('cancelled', /dft request to claude-sonnet-5-5 was cancelled/));
    const tookMs = performance.now() - started;
    assert.ok(tookMs < 1000, `cancelling took ${tookMs.toFixed(0)} ms; the full stream takes about 2 s`);
    assert.equal(rig.api.requests.length, 1);
    assert.equal(retries(rig.events).length, 0);
  });

  it('cancellation while waiting to retry ends the wait', async () => {
    rig = await startRig({ script: { steps: [{ fault: { type: 'rate_limit', retryAfterSeconds: 30 } }] } });
    const ctl = new AbortController();
    const started = performance.now();
    const call = rig.provider.complete(request(), {
      signal: ctl.signal,
      onEvent: (e) => e.type === 'retry' && setTimeout(() => ctl.abort(), 50),
    });
    await assert.rejects(call, isLlmError('cancelled'));
    assert.ok(performance.now() - started < 2000);
    assert.equal(rig.api.requests.length, 1);
  });

  it('an already-aborted signal sends nothing', async () => {
    rig = await startRig({ script: { steps: [] } });
    await assert.rejects(rig.provider.complete(request(), { signal: AbortSignal.abort() }), isLlmError('cancelled'));
    assert.equal(rig.api.requests.length, 0);
  });

  it('a retry-after longer than the run will wait fails at once and says how long', async () => {
    rig = await startRig(
      { script: { steps: [{ fault: { type: 'rate_limit', retryAfterSeconds: 900 } }] } },
      { retry: { maxRetryAfterMs: 60_000 } },
    );
    await assert.rejects(rig.provider.complete(request()), isLlmError('rate-limit', /asked to wait 900 s, longer than the 60 s/));
    assert.equal(rig.api.requests.length, 1);
  });

  it('a 400 is not retried and carries the API message', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            fault: {
              type: 'http_error',
              status: 400,
              errorType: 'invalid_request_error',
              message: 'max_tokens: 999999 > 128000, the maximum for this model',
            },
          },
        ],
      },
    });
    await assert.rejects(rig.provider.complete(request()), isLlmError('bad-request', /max_tokens: 999999 > 128000.*request has to change/));
    assert.equal(rig.api.requests.length, 1);
  });

  it('x-should-retry: false on a 500 is obeyed', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            fault: {
              type: 'http_error',
              status: 500,
              errorType: 'api_error',
              message: 'do not retry',
              headers: { 'x-should-retry': 'false' },
            },
          },
        ],
      },
    });
    await assert.rejects(rig.provider.complete(request()), isLlmError('server'));
    assert.equal(rig.api.requests.length, 1);
  });

  it('an unreachable API is a network LlmError naming the address, after the retries', async () => {
    rig = await startRig({ script: { steps: [] } }, { retry: { maxAttempts: 2 } });
    const { baseURL } = rig.api;
    await rig.api.stop();
    const { AnthropicProvider } = await import('../../../../src/core/llm/anthropic');
    const p = new AnthropicProvider({ apiKey: 'sk-ant-test-0123456789abcdef', baseURL, retry: { maxAttempts: 2, baseDelayMs: 10 } });
    const events: LlmStreamEvent[] = [];
    await assert.rejects(
      p.complete(request(), { onEvent: (e) => events.push(e) }),
      isLlmError('network', new RegExp(`${baseURL.replace(/[.]/g, '\\.')} did not complete \\(2 attempts\\)`)),
    );
    assert.equal(retries(events).length, 1);
    rig = undefined;
  });
});
