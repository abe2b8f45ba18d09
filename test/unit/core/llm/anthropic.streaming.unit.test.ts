import assert from 'node:assert/strict';
import type { LlmMessage, ToolUseBlock } from '../../../../src/core/llm/types';
import { request, startRig, type Rig } from './fakeApiHarness';

const CUTOFF_TOOL = {
  name: 'run_cutoff_sweep',
  description: 'Run pw.x SCF calculations at each cutoff and return total energies.',
  inputSchema: {
    type: 'object',
    properties: { ecutwfcRy: { type: 'array', items: { type: 'number' } } },
    required: ['ecutwfcRy'],
  },
};

describe('Anthropic provider: streaming and tool use through the real SDK', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });

  it('streams text live and returns the whole message with its usage', async () => {
    const text = 'The total energy changes by less than 1 meV/atom above 30 Ry.';
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text }], chunkSize: 7 } }] } });
    const res = await rig.provider.complete(request(), { onEvent: (e) => rig!.events.push(e) });

    assert.deepEqual(res.content, [{ type: 'text', text }]);
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(res.attempts, 1);
    assert.equal(res.model, 'claude-sonnet-5-5');
    const deltas = rig.events.filter((e) => e.type === 'text');
    assert.ok(deltas.length >= Math.ceil(text.length / 7), `expected the text in several deltas, got ${deltas.length}`);
    assert.equal(deltas.map((e) => (e as { text: string }).text).join(''), text);

    const served = rig.api.requests[0]!;
    assert.equal(served.body?.stream, true);
    assert.equal(served.headers['x-stainless-retry-count'] ?? '0', '0');
    assert.equal(res.usage.inputTokens, served.usage!.input_tokens);
    assert.equal(res.usage.outputTokens, served.usage!.output_tokens);
    assert.ok(res.usage.inputTokens > 10, `input tokens should reflect the request size, got ${res.usage.inputTokens}`);
  });

  it('runs a tool_use round trip: tool input parsed, tool_result accepted, final answer', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            name: 'ask-sweep',
            match: { tools: ['run_cutoff_sweep'], lastUser: 'Converge' },
            reply: {
              content: [
                { type: 'text', text: 'I will sweep the cutoff.' },
                { type: 'tool_use', name: 'run_cutoff_sweep', input: { ecutwfcRy: [20, 25, 30, 35] } },
              ],
              chunkSize: 5,
            },
          },
          {
            name: 'conclude',
            match: { lastUser: 'a-12' },
            reply: { content: [{ type: 'text', text: 'Use 30 Ry (a-12).' }] },
          },
        ],
      },
    });
    const messages: LlmMessage[] = [{ role: 'user', content: 'Converge the plane-wave cutoff for fcc Al.' }];
    const first = await rig.provider.complete(request({ messages, tools: [CUTOFF_TOOL] }), { onEvent: (e) => rig!.events.push(e) });

    assert.equal(first.stopReason, 'tool_use');
    const use = first.content.find((b): b is ToolUseBlock => b.type === 'tool_use');
    assert.ok(use, 'expected a tool_use block');
    assert.equal(use.name, 'run_cutoff_sweep');
    assert.deepEqual(use.input, { ecutwfcRy: [20, 25, 30, 35] });
    assert.equal(use.inputError, undefined);
    assert.ok(rig.events.some((e) => e.type === 'tool_use_start' && e.id === use.id && e.name === 'run_cutoff_sweep'));

    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: use.id, content: 'energies recorded as a-12' }] });
    const second = await rig.provider.complete(request({ messages, tools: [CUTOFF_TOOL] }));
    assert.deepEqual(second.content, [{ type: 'text', text: 'Use 30 Ry (a-12).' }]);

    const sent = rig.api.requests[1]!.body!.messages as { role: string; content: unknown }[];
    assert.deepEqual(sent[2], {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use.id, content: 'energies recorded as a-12' }],
    });
    rig.api.assertScriptDone();
  });

  it('keeps thinking blocks so the next turn carries them unchanged, as the API requires', async () => {
    rig = await startRig({
      script: {
        steps: [
          {
            reply: {
              content: [
                { type: 'thinking', thinking: 'The sweep needs at least four points.' },
                { type: 'tool_use', name: 'run_cutoff_sweep', input: { ecutwfcRy: [20, 30, 40, 50] } },
              ],
            },
          },
          { reply: { content: [{ type: 'text', text: 'Done.' }] } },
        ],
      },
    });
    const messages: LlmMessage[] = [{ role: 'user', content: 'Converge the cutoff.' }];
    const first = await rig.provider.complete(request({ model: 'claude-opus-5-5', messages, tools: [CUTOFF_TOOL] }));
    assert.equal(first.content[0]!.type, 'thinking');
    const use = first.content[1] as ToolUseBlock;
    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: use.id, content: 'ok' }] });
    const second = await rig.provider.complete(request({ model: 'claude-opus-5-5', messages, tools: [CUTOFF_TOOL] }));
    assert.deepEqual(second.content, [{ type: 'text', text: 'Done.' }]);

    // The same turn without its thinking is refused by the fake exactly as by the API.
    const stripped: LlmMessage[] = [messages[0]!, { role: 'assistant', content: [use] }, messages[2]!];
    rig.api.load({ steps: [{ reply: { content: [{ type: 'text', text: 'unreachable' }] } }] });
    await assert.rejects(
      rig.provider.complete(request({ model: 'claude-opus-5-5', messages: stripped, tools: [CUTOFF_TOOL] })),
      (e: Error & { code?: string }) => e.code === 'bad-request' && /thinking.*cannot be modified/.test(e.message),
    );
  });

  it('returns a malformed tool input as raw text with the parse error, never as arguments', async () => {
    rig = await startRig({
      script: { steps: [{ reply: { content: [{ type: 'tool_use', name: 'run_cutoff_sweep', rawInput: '{"ecutwfcRy": [20, 25' }] } }] },
    });
    const res = await rig.provider.complete(request({ tools: [CUTOFF_TOOL] }));
    const use = res.content[0] as ToolUseBlock;
    assert.equal(use.input, '{"ecutwfcRy": [20, 25');
    assert.match(use.inputError ?? '', /not valid JSON/);
  });

  it('flags a tool input that is valid JSON but not an object', async () => {
    rig = await startRig({
      script: { steps: [{ reply: { content: [{ type: 'tool_use', name: 'run_cutoff_sweep', rawInput: '[20, 25]' }] } }] },
    });
    const res = await rig.provider.complete(request({ tools: [CUTOFF_TOOL] }));
    assert.match((res.content[0] as ToolUseBlock).inputError ?? '', /must be a JSON object, got an array/);
  });
});
