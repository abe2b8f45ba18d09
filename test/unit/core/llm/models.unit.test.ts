import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEFAULT_ROLE_MODELS, requestRulesFor, resolveRoleModels } from '../../../../src/core/llm/models';
import { LIST_PRICES } from '../../../../src/core/llm/pricing';
import { request, startRig, type Rig } from './fakeApiHarness';

/** The literal model ids of the installed SDK's `Model` union. */
function sdkModelIds(): string[] {
  // The package's main entry is index.js at its root; the types sit beside it.
  const sdkDir = path.dirname(createRequire(__filename).resolve('@anthropic-ai/sdk'));
  const dts = fs.readFileSync(path.join(sdkDir, 'resources/messages/messages.d.ts'), 'utf8');
  const union = /export type Model = ([^;]+);/.exec(dts);
  assert.ok(union, 'the SDK no longer declares `export type Model` in resources/messages/messages.d.ts');
  return [...union[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

describe('models per role', () => {
  it('every default model is a current id of the installed SDK, and has a price', () => {
    const ids = sdkModelIds();
    assert.ok(ids.length > 5);
    for (const [role, model] of Object.entries(DEFAULT_ROLE_MODELS)) {
      assert.ok(ids.includes(model), `default model for ${role} (${model}) is not in the SDK's Model union`);
      assert.ok(LIST_PRICES[model], `default model for ${role} (${model}) has no price`);
    }
  });

  it('overrides replace single roles; unknown roles and empty ids are refused by name', () => {
    const m = resolveRoleModels({ 'param-judge': 'claude-sonnet-5-5', dft: undefined });
    assert.equal(m['param-judge'], 'claude-sonnet-5-5');
    assert.equal(m.dft, DEFAULT_ROLE_MODELS.dft);
    assert.throws(() => resolveRoleModels({ judge: 'claude-opus-5-5' }), /unknown model role 'judge'.*param-judge/);
    assert.throws(() => resolveRoleModels({ hpc: ' ' }), /model for role 'hpc' is empty/);
  });

  it('request rules follow the model line and version', () => {
    assert.deepEqual(requestRulesFor('claude-opus-5-5'), { samplingParams: false, forcedToolChoice: false });
    assert.deepEqual(requestRulesFor('claude-haiku-5-5'), { samplingParams: false, forcedToolChoice: true });
    assert.deepEqual(requestRulesFor('claude-opus-5'), { samplingParams: false, forcedToolChoice: true });
    assert.deepEqual(requestRulesFor('claude-fable-5-2'), { samplingParams: false, forcedToolChoice: false });
    assert.deepEqual(requestRulesFor('claude-sonnet-4-6'), { samplingParams: true, forcedToolChoice: true });
    assert.deepEqual(requestRulesFor('claude-haiku-4-5-20251001'), { samplingParams: true, forcedToolChoice: true });
    assert.deepEqual(requestRulesFor('claude-mythos-preview'), { samplingParams: false, forcedToolChoice: false });
    assert.deepEqual(requestRulesFor('some-proxy-model'), { samplingParams: true, forcedToolChoice: true });
  });
});

describe('Anthropic provider: per-model request adjustments, checked by the fake API', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.api.stop();
    rig = undefined;
  });
  const VERDICT = { name: 'record_verdict', description: 'Record the verdict.', inputSchema: { type: 'object' } };
  const verdictReply = { content: [{ type: 'tool_use' as const, name: 'record_verdict', input: { level: 'pass' } }] };

  it('a forced verdict tool goes out as asked where the model accepts forcing', async () => {
    rig = await startRig({ script: { steps: [{ match: { toolChoice: 'record_verdict' }, reply: verdictReply }] } });
    const res = await rig.provider.complete(
      request({
        role: 'param-judge',
        category: 'judge-param',
        model: 'claude-haiku-5-5',
        tools: [VERDICT],
        toolChoice: { type: 'tool', name: 'record_verdict' },
      }),
    );
    assert.equal(res.adjustments, undefined);
    rig.api.assertScriptDone();
  });

  it('a forced tool choice is sent as auto, and said so, to a model that refuses forcing', async () => {
    rig = await startRig({ script: { steps: [{ match: { toolChoice: 'auto' }, reply: verdictReply }] } });
    const res = await rig.provider.complete(
      request({
        role: 'cross-judge',
        category: 'judge-cross',
        model: 'claude-opus-5-5',
        tools: [VERDICT],
        toolChoice: { type: 'tool', name: 'record_verdict' },
      }),
    );
    assert.equal(res.adjustments?.length, 1);
    assert.match(res.adjustments![0]!, /tool choice sent as 'auto': claude-opus-5-5 refuses a forced tool choice.*tool 'record_verdict'/);
    rig.api.assertScriptDone();
  });

  it('temperature is left out for models that accept only default sampling, and sent to those that take it', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'ok' }] }, times: 'always' }] } });
    const dropped = await rig.provider.complete(request({ model: 'claude-sonnet-5-5', temperature: 0 }));
    await rig.provider.complete(request({ model: 'claude-sonnet-4-6', temperature: 0 }));
    assert.match(dropped.adjustments?.[0] ?? '', /temperature 0 not sent: claude-sonnet-5-5/);
    assert.equal(rig.api.requests[0]!.body!.temperature, undefined);
    assert.equal(rig.api.requests[1]!.body!.temperature, 0);
  });

  it('effort goes out as output_config.effort', async () => {
    rig = await startRig({ script: { steps: [{ reply: { content: [{ type: 'text', text: 'ok' }] } }] } });
    await rig.provider.complete(request({ effort: 'low' }));
    assert.deepEqual(rig.api.requests[0]!.body!.output_config, { effort: 'low' });
  });
});
