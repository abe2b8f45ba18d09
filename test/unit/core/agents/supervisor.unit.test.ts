// The agent loop with a model, on tools that need no pw.x: the real Anthropic SDK against
// the scripted fake Messages API. Plan edits refused and corrected, a token budget that
// stops the run with its state saved and a resume that finishes it, cancellation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunController } from '../../../../src/core/run/controller';
import type { RunSettings } from '../../../../src/core/run/session';
import { supervisorState } from '../../../../src/core/agents/supervisor';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import { totalTokens } from '../../../../src/core/llm/usage';
import type { ToolCallRecord } from '../../../../src/core/provenance/types';
import { registerWorkflow } from '../../../../src/core/workflows';
import type { TemplateStep, WorkflowTemplate } from '../../../../src/core/workflows/types';
import type { FakeScript, ScriptStep } from '../../../fixtures/fake-anthropic/script';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';

const KEY = 'sk-ant-test-agent-loop-000000';

/** A two-step workflow that runs in milliseconds: a crystal, then a note about it. */
const BULK_NOTE: WorkflowTemplate = {
  id: 'bulk-note',
  title: 'Build a crystal and note it',
  description: 'test workflow',
  inputSchema: { type: 'object', properties: { element: { type: 'string' } }, required: ['element'] },
  resolveInputs: (i) => i,
  objective: (i) => `fcc ${String(i.element)}`,
  steps: (i): TemplateStep[] => [
    {
      id: 'structure',
      title: 'Build the crystal',
      worker: 'dft',
      tool: 'build_bulk',
      args: { elements: [i.element], bravais: 'fcc', latticeConstantAngstrom: 4.05 },
      reasons: { elements: 'the element', bravais: 'fcc', latticeConstantAngstrom: 'experiment' },
    },
    {
      id: 'note',
      title: 'Note the structure',
      worker: 'dft',
      tool: 'canvas_write',
      dependsOn: ['structure'],
      args: { key: 'notes/structure', value: 'built', reason: 'record it' },
      reasons: { key: 'k', value: 'v', reason: 'r' },
    },
  ],
};
registerWorkflow(BULK_NOTE);

const SUP = { system: 'You are the supervisor of DREAMS' };
const DFT = { system: 'You are the DFT worker of DREAMS' };
const say = (text: string, match = SUP): ScriptStep => ({ match, reply: { content: [{ type: 'text', text }] } });
const use = (name: string, input: Record<string, unknown>, match = DFT): ScriptStep => ({
  match,
  reply: { content: [{ type: 'tool_use', name, input }] },
});
const buildBulk = use('build_bulk', {
  arguments: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 },
  reasons: { elements: 'Al', bravais: 'fcc', latticeConstantAngstrom: 'experiment' },
  context: 'step structure',
});
const note = use('canvas_write', {
  arguments: { key: 'notes/structure', value: 'built', reason: 'record it' },
  reasons: { key: 'k', value: 'v', reason: 'r' },
  context: 'step note',
});

function settings(over: Partial<RunSettings> = {}): RunSettings {
  return {
    objective: { text: 'fcc Al, noted', workflow: 'bulk-note', inputs: { element: 'Al' } },
    offline: false,
    backend: 'local',
    approval: 'continue',
    pseudoDir: os.tmpdir(),
    pwCommand: 'pw.x',
    localConcurrency: 1,
    models: {},
    judges: false,
    budget: {},
    ...over,
  };
}

async function start(script: FakeScript, over: Partial<RunSettings> = {}) {
  const api = await FakeAnthropicApi.start({ apiKey: KEY, script });
  const provider = new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL, retry: { baseDelayMs: 10, maxDelayMs: 50 } });
  const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-agent-loop-'));
  const controller = await RunController.start({ runsDir: runs, settings: settings(over) }, { provider });
  return { api, provider, controller };
}

const calls = (events: readonly CanvasEvent[], tool: string) =>
  events.filter((e) => e.kind === 'provenance.call' && (e.payload as ToolCallRecord).tool === tool);

describe('agent loop with a model (fake Messages API, no pw.x)', () => {
  it('refuses an invalid plan edit with the reason, the model corrects it, and the run completes', async () => {
    const { api, controller } = await start({
      steps: [
        use(
          'edit_plan',
          { op: 'insert', after: 'structure', step: { id: 'check', title: 'Check', worker: 'dft', tool: 'inspect_everything' } },
          SUP,
        ),
        // the round ends with the edit that went through; each step ends with its call that succeeded
        use(
          'edit_plan',
          {
            op: 'insert',
            after: 'structure',
            step: {
              id: 'check',
              title: 'Look at the canvas',
              worker: 'dft',
              tool: 'canvas_inspect',
              args: { prefix: 'notes/' },
              dependsOn: ['structure'],
            },
            reason: 'see what is there',
          },
          SUP,
        ),
        buildBulk,
        use('canvas_inspect', { arguments: { prefix: 'notes/' }, reasons: { prefix: 'notes' }, context: 'step check' }),
        note,
        say('Built and noted fcc Al: a-1.'),
      ],
    });
    const result = await controller.run();
    const rt = controller.session.runtime;
    const state = supervisorState(rt);
    await controller.close();
    await api.stop();
    assert.equal(result.state, 'completed', result.reason);
    api.assertScriptDone();
    const refusal = api.requests
      .map((r) => JSON.stringify((r.body?.messages as unknown[] | undefined)?.at(-1) ?? ''))
      .find((m) => /edit refused/.test(m));
    assert.match(refusal!, /there is no tool \\"inspect_everything\\"/);
    assert.deepEqual(
      state.plan.steps.map((s) => [s.id, s.status]),
      [
        ['structure', 'done'],
        ['check', 'done'],
        ['note', 'done'],
      ],
    );
    // a step's summary is what its tool said
    assert.deepEqual(
      state.pastSteps.map((p) => [p.id, p.ok]),
      [
        ['structure', true],
        ['check', true],
        ['note', true],
      ],
    );
    assert.match(state.pastSteps[0]!.summary, /fcc Al.*\[a-1 bulk_structure\]/);
    assert.equal(api.requests.length, 6, 'two supervisor turns to plan, one worker turn per step, one response');
    assert.equal(state.response, 'Built and noted fcc Al: a-1.');
    assert.equal(state.next, undefined);
  });

  it('plans a sentence with no workflow by starting a template with the inputs the model chooses', async () => {
    const { api, controller } = await start(
      {
        steps: [
          use('start_workflow', { workflow: 'bulk-note', inputs: {} }, SUP),
          use('start_workflow', { workflow: 'bulk-note', inputs: { element: 'Al' } }, SUP),
          buildBulk,
          note,
          say('Done: a-1.'),
        ],
      },
      { objective: { text: 'build an fcc aluminium crystal and note it' } },
    );
    const result = await controller.run();
    const events = [...controller.session.run.log.events()];
    await controller.close();
    await api.stop();
    assert.equal(result.state, 'completed', result.reason);
    api.assertScriptDone();
    const refused = api.requests
      .map((r) => JSON.stringify((r.body?.messages as unknown[] | undefined)?.at(-1) ?? ''))
      .find((m) => /need fixing/.test(m));
    assert.match(refused!, /element is missing; add it/);
    const plan = events.filter((e) => e.key === 'plan').at(-1)!.payload as { value: { workflow: string; steps: { id: string }[] } };
    assert.equal(plan.value.workflow, 'bulk-note');
    assert.ok(events.some((e) => e.kind === 'workflow.inputs' && e.payload.inputs.element === 'Al'));
  });

  it('stops at a token budget with its state saved, and a resume with a higher budget finishes without repeating a call', async () => {
    const { api, controller } = await start({ steps: [say('Plan reviewed.'), buildBulk] }, { budget: { maxTokens: 3000 } });
    const stopped = await controller.run();
    const runDir = controller.runDir;
    await controller.close();
    await api.stop();
    assert.equal(stopped.state, 'stopped');
    assert.match(stopped.reason!, /budget reached: model tokens spent [\d,]+ tokens of the 3,000 tokens limit/);
    api.assertScriptDone();

    const api2 = await FakeAnthropicApi.start({ apiKey: KEY, script: { steps: [buildBulk, note, say('Done: a-1.')] } });
    const provider = new AnthropicProvider({ apiKey: KEY, baseURL: api2.baseURL, retry: { baseDelayMs: 10 } });
    const resumed = await RunController.resume(runDir, { provider }, { budget: { maxTokens: 10_000_000 } });
    const before = totalTokens(resumed.session.ledger.totals().usage);
    const result = await resumed.run();
    const events = [...resumed.session.run.log.events()];
    await resumed.close();
    await api2.stop();
    assert.equal(result.state, 'completed', result.reason);
    api2.assertScriptDone();
    assert.equal(calls(events, 'build_bulk').length, 1, 'the response that crossed the budget was paid for but not acted on');
    assert.ok(before > 3000, `the resumed run kept the spend of the first session (${before} tokens)`);
    assert.equal(
      events.filter((e) => e.kind === 'step.start' && (e.payload as { id: string }).id === 'structure').length,
      1,
      'the step in hand continued its attempt',
    );
  });

  it('cancel abandons the model call in flight and stops the run', async () => {
    const slow: ScriptStep = { match: SUP, reply: { content: [{ type: 'text', text: 'x'.repeat(400) }], chunkSize: 4, eventDelayMs: 50 } };
    const { api, controller } = await start({ steps: [slow] });
    const done = controller.run();
    await new Promise((r) => setTimeout(r, 300));
    await controller.cancel('cancelled by the test');
    const result = await done;
    await controller.close();
    await api.stop();
    assert.equal(result.state, 'stopped');
    assert.match(result.reason!, /cancelled/);
    assert.equal(controller.progress().state, 'stopped');
  });
});
