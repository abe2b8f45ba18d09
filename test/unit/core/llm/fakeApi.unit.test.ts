import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LlmMessage, ToolUseBlock } from '../../../../src/core/llm/types';
import { loadScriptFile, parseScript } from '../../../fixtures/fake-anthropic/script';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';
import { request, startRig, TEST_KEY, type Rig } from './fakeApiHarness';

const SCRIPTS = path.join(__dirname, '../../../fixtures/fake-anthropic/scripts');
const tokens = (s: string) => Math.max(1, Math.ceil(Buffer.byteLength(s, 'utf8') / 4));

describe('fake Messages API', () => {
  let api: FakeAnthropicApi | undefined;
  let rig: Rig | undefined;
  afterEach(async () => {
    await api?.stop();
    await rig?.api.stop();
    api = rig = undefined;
  });

  it('answers non-streaming requests with the API message shape, usage from the documented estimate', async () => {
    api = await FakeAnthropicApi.start({
      apiKey: TEST_KEY,
      script: { steps: [{ reply: { content: [{ type: 'text', text: 'Al is fcc.' }] } }] },
    });
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: api.baseURL, maxRetries: 0 });
    const system = 'You are a DFT assistant.';
    const question = 'What is the ground-state structure of aluminium?';
    const msg = await client.messages.create({
      model: 'claude-haiku-5-5',
      max_tokens: 64,
      system,
      messages: [{ role: 'user', content: question }],
    });

    assert.equal(msg.type, 'message');
    assert.equal(msg.role, 'assistant');
    assert.match(msg.id, /^msg_/);
    assert.deepEqual(
      msg.content.map((b) => b.type),
      ['text'],
    );
    assert.equal(msg.stop_reason, 'end_turn');
    assert.equal(msg.usage.input_tokens, tokens(system) + tokens(question));
    assert.equal(msg.usage.output_tokens, tokens('Al is fcc.'));
    assert.equal(msg.usage.cache_read_input_tokens, 0);
    assert.deepEqual(msg.usage.cache_creation, { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 });
  });

  it('streams the API event sequence: message_start, block start/deltas/stop, message_delta, message_stop', async () => {
    api = await FakeAnthropicApi.start({
      script: {
        steps: [
          {
            reply: {
              content: [
                { type: 'text', text: 'abcdefgh' },
                { type: 'tool_use', name: 'run_scf', input: { ecutwfcRy: 30 } },
              ],
              chunkSize: 4,
            },
          },
        ],
      },
    });
    const res = await fetch(`${api.baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] }),
    });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const frames = (await res.text())
      .trim()
      .split('\n\n')
      .map((f) => {
        const [ev, data] = f.split('\n');
        return { event: ev!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) as Record<string, any> };
      });
    for (const f of frames) assert.equal(f.data.type, f.event);
    const seq = frames.map((f) => (f.event === 'content_block_delta' ? `delta:${f.data.delta.type}` : f.event));
    const json = JSON.stringify({ ecutwfcRy: 30 });
    assert.deepEqual(seq, [
      'message_start',
      'content_block_start',
      'ping',
      'delta:text_delta',
      'delta:text_delta',
      'content_block_stop',
      'content_block_start',
      ...Array(Math.ceil(json.length / 4)).fill('delta:input_json_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    assert.equal(frames[6]!.data.content_block.type, 'tool_use');
    assert.deepEqual(frames[6]!.data.content_block.input, {});
    const partial = frames
      .filter((f) => f.data.delta?.type === 'input_json_delta')
      .map((f) => f.data.delta.partial_json)
      .join('');
    assert.equal(partial, json);
    const delta = frames.find((f) => f.event === 'message_delta')!.data;
    assert.equal(delta.delta.stop_reason, 'tool_use');
    assert.equal(delta.usage.output_tokens, tokens(`abcdefghrun_scf${json}`));
  });

  it('loads a scenario script from JSON and routes interleaved worker and judge requests by match', async () => {
    const script = loadScriptFile(path.join(SCRIPTS, 'cutoff-with-judge.json'));
    rig = await startRig({ script });
    const worker = (messages: LlmMessage[]) =>
      request({
        system: [{ text: 'You are the DFT worker.' }],
        messages,
        tools: [{ name: 'run_cutoff_sweep', description: 'sweep', inputSchema: { type: 'object' } }],
      });
    const judge = () =>
      request({
        role: 'param-judge',
        category: 'judge-param',
        model: 'claude-haiku-5-5',
        system: [{ text: 'Judge each parameter.' }],
        tools: [{ name: 'record_verdict', description: 'verdict', inputSchema: { type: 'object' } }],
        toolChoice: { type: 'tool', name: 'record_verdict' },
      });
    const messages: LlmMessage[] = [{ role: 'user', content: 'Converge the cutoff for fcc Al.' }];
    const first = await rig.provider.complete(worker(messages));
    assert.equal(first.attempts, 2, 'the scripted 529 was retried');
    const verdict = await rig.provider.complete(judge());
    assert.equal((verdict.content[0] as ToolUseBlock).name, 'record_verdict');
    const use = first.content.find((b): b is ToolUseBlock => b.type === 'tool_use')!;
    messages.push(
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: use.id, content: 'energies: a-12' }] },
    );
    await rig.provider.complete(judge());
    const last = await rig.provider.complete(worker(messages));
    assert.match((last.content[0] as { text: string }).text, /30 Ry/);
    rig.api.assertScriptDone();
    assert.deepEqual(
      rig.api.requests.map((r) => r.step),
      ['worker-overloaded', 'worker-sweep', 'judge-pass', 'judge-pass', 'worker-conclude'],
    );
  });

  it('a request no step answers gets a 400 naming why, and the script check lists it and the unused steps', async () => {
    rig = await startRig({
      script: { steps: [{ name: 'only-opus', match: { model: 'claude-opus-5-5' }, reply: { content: [{ type: 'text', text: 'x' }] } }] },
    });
    await assert.rejects(
      rig.provider.complete(request({ model: 'claude-sonnet-5-5' })),
      /fake-anthropic: no script step answers request #0: only-opus: model is claude-sonnet-5-5, step wants claude-opus-5-5/,
    );
    assert.throws(() => rig!.api.assertScriptDone(), /steps never requested: only-opus.*requests no step answered: #0/);
  });

  it('refuses a tool_result without its tool_use, and a tool_use left unanswered, as the API does', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'x' }] }, times: 'always' }] } });
    await assert.rejects(
      rig.provider.complete(
        request({ messages: [{ role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_x', content: 'r' }] }] }),
      ),
      /unexpected `tool_use_id` found in `tool_result` blocks: toolu_x/,
    );
    await assert.rejects(
      rig.provider.complete(
        request({
          messages: [
            { role: 'user', content: 'go' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_y', name: 'run_scf', input: {} }] },
            { role: 'user', content: 'and?' },
          ],
        }),
      ),
      /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_y/,
    );
  });

  it('script errors name the step and field', () => {
    assert.throws(
      () => parseScript({ steps: [{ name: 'bad', fault: { type: 'teapot' } }] }),
      /steps\[0\] \(bad\)\.fault\.type: unknown fault "teapot"/,
    );
    assert.throws(() => parseScript({ steps: [{ reply: { content: [{ type: 'image' }] } }] }), /steps\[0\]\.reply\.content\[0\]\.type/);
    assert.throws(
      () => parseScript({ steps: [{ fault: { type: 'overloaded' }, reply: { content: [] } }] }),
      /overloaded fault sends no reply/,
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-anthropic-')), 'broken.json');
    fs.writeFileSync(file, '{"steps": [');
    assert.throws(() => loadScriptFile(file), /broken\.json is not valid JSON/);
  });
});
