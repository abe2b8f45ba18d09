// A guard warning under the 'wait' policy holds the run until a person answers; `dreams
// approve` answers it while the run's process holds the log (through the run's inbox), and
// a second answer is refused with who answered first and when.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approveCommand } from '../../../../src/cli/commands/approve';
import { RunController } from '../../../../src/core/run/controller';
import { settleInterruptedCalls } from '../../../../src/core/run/interruptedCalls';
import { createRun, openRun } from '../../../../src/core/run/directory';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import type { RunSettings } from '../../../../src/core/run/session';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import { registerWorkflow } from '../../../../src/core/workflows';
import type { WorkflowTemplate } from '../../../../src/core/workflows/types';
import type { ScriptStep } from '../../../fixtures/fake-anthropic/script';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';
import { captureConsole as capture } from '../../../fixtures/captureConsole';

const KEY = 'sk-ant-test-approvals-0000000';
const ONE_CRYSTAL: WorkflowTemplate = {
  id: 'one-crystal',
  title: 'Build a crystal',
  description: 'test workflow',
  inputSchema: { type: 'object' },
  resolveInputs: (i) => i,
  objective: () => 'fcc Al',
  steps: () => [
    {
      id: 'structure',
      title: 'Build the crystal',
      worker: 'dft',
      tool: 'build_bulk',
      args: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 },
    },
  ],
};
registerWorkflow(ONE_CRYSTAL);

const SUP = { system: 'You are the supervisor of DREAMS' };
const DFT = { system: 'You are the DFT worker of DREAMS' };
const steps: ScriptStep[] = [
  { match: SUP, reply: { content: [{ type: 'text', text: 'Plan reviewed.' }] } },
  {
    match: DFT,
    reply: {
      content: [
        {
          type: 'tool_use',
          name: 'build_bulk',
          input: {
            arguments: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.5 },
            reasons: { latticeConstantAngstrom: 'a guess' },
            context: 'step structure',
          },
        },
      ],
    },
  },
  {
    match: { toolChoice: 'record_parameter_verdicts' },
    reply: {
      content: [
        {
          type: 'tool_use',
          name: 'record_parameter_verdicts',
          input: {
            verdicts: [
              { parameter: 'elements', level: 'pass', reasons: ['Al'] },
              { parameter: 'bravais', level: 'pass', reasons: ['Al is fcc'] },
              {
                parameter: 'latticeConstantAngstrom',
                level: 'warn',
                reasons: ['4.5 Å is 11 % above the experimental 4.05 Å; the EOS series may not bracket the minimum'],
              },
            ],
          },
        },
      ],
    },
  },
  { match: DFT, reply: { content: [{ type: 'text', text: 'Built fcc Al at 4.5 Å (a-1), approved.' }] } },
  { match: SUP, reply: { content: [{ type: 'text', text: 'fcc Al built (a-1).' }] } },
];

/** A run of `workflow` under the 'wait' policy, driven by the scripted API, once it waits on its first request. */
async function waitingRun(script: ScriptStep[], workflow: string) {
  const api = await FakeAnthropicApi.start({ apiKey: KEY, script: { steps: script } });
  const provider = new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL, retry: { baseDelayMs: 10 } });
  const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-approvals-'));
  const settings: RunSettings = {
    objective: { text: 'fcc Al', workflow, inputs: {} },
    offline: false,
    backend: 'local',
    approval: 'wait',
    pseudoDir: os.tmpdir(),
    pwCommand: 'pw.x',
    localConcurrency: 1,
    models: {},
    judges: true,
    budget: {},
  };
  const controller = await RunController.start({ runsDir: runs, settings }, { provider });
  const done = controller.run();
  while (controller.progress().approvalsOpen === 0) await new Promise((r) => setTimeout(r, 20));
  return { api, controller, done };
}

describe('approvals of a running run', () => {
  it('waits on a warning, takes the answer from `dreams approve` through the inbox, and refuses a second answer', async () => {
    const { api, controller, done } = await waitingRun(steps, 'one-crystal');
    assert.equal(
      controller.session.run.registry.calls().filter((c) => c.tool === 'build_bulk' && c.status === 'ok').length,
      0,
      'the call waits for the answer',
    );

    const first = await capture(() => approveCommand([controller.runDir, 'ap-1', '--comment', 'intended: testing the upper bracket']));
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, /ap-1 approved by user@cli/);
    const result = await done;
    await controller.close();
    await api.stop();
    assert.equal(result.state, 'completed', result.reason);
    const states = controller.session.run.log
      .events()
      .filter((e) => e.kind === 'run.state')
      .map((e) => e.payload as { state: string; reason?: string });
    assert.deepEqual(
      states.map((x) => x.state),
      ['running', 'waiting-approval', 'running', 'completed'],
    );
    assert.equal(states[1]!.reason, 'waiting for an answer to ap-1');
    const answers = controller.session.run.log.events().filter((e) => e.kind === 'approval.answer');
    assert.equal(answers.length, 1);
    assert.deepEqual(answers[0]!.payload as { decision: string; by: string; comment: string }, {
      ...(answers[0]!.payload as object),
      decision: 'approve',
      by: 'user@cli',
      comment: 'intended: testing the upper bracket',
    });

    const second = await capture(() => approveCommand([controller.runDir, 'ap-1', '--reject']));
    assert.equal(second.code, 1);
    assert.match(
      second.out,
      /ap-1 was already answered: approved by user@cli at \d{4}-\d\d-\d\dT[\d:.]+Z \("intended: testing the upper bracket"\)/,
    );
  });

  it('a call held at its approval when its process stopped is refused on resume by a rejection given meanwhile, its tool never run', async () => {
    const { api, controller, done } = await waitingRun(steps, 'one-crystal');
    const runDir = controller.runDir;
    const call = controller.session.run.registry.calls().find((c) => c.tool === 'build_bulk')!.id;
    // the process goes while the call waits (the terminal is closed)
    await controller.abandon('the terminal was closed');
    await done.catch(() => undefined);
    await controller.close().catch(() => undefined);
    const r = await capture(() => approveCommand([runDir, 'ap-1', '--reject', '--comment', 'start from 4.05 Å']));
    assert.equal(r.code, 0, r.out);

    const again = await RunController.resume(runDir, { provider: new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL }) });
    try {
      const settled = await settleInterruptedCalls(again.session.runtime);
      assert.deepEqual(settled, { reattached: [], failed: [], rejected: [call] });
      const record = again.session.run.registry.call(call)!;
      assert.deepEqual([record.status, record.error], ['refused', 'rejected by user@cli']);
      assert.deepEqual(
        again.session.run.registry.artifacts().filter((a) => a.creator === call),
        [],
        'the tool did not run',
      );
    } finally {
      await again.close();
      await api.stop();
    }
  });

  it('a standing approval posted through the inbox of a running run answers its later request of the same concern', async () => {
    const TWO_CRYSTALS: WorkflowTemplate = {
      ...ONE_CRYSTAL,
      id: 'two-crystals',
      steps: () => [
        {
          id: 'structure',
          title: 'Build the crystal',
          worker: 'dft',
          tool: 'build_bulk',
          args: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 },
        },
        {
          id: 'again',
          title: 'Build it again',
          worker: 'dft',
          tool: 'build_bulk',
          args: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 },
          dependsOn: ['structure'],
        },
      ],
    };
    registerWorkflow(TWO_CRYSTALS);
    const build = steps[1]!;
    const warn = steps[2]!;
    const twice: ScriptStep[] = [
      // each step ends with its call that went through: no summary turn
      steps[0]!,
      build,
      warn,
      build,
      warn,
      { match: SUP, times: 'always', reply: { content: [{ type: 'text', text: 'fcc Al built twice.' }] } },
    ];
    const { api, controller, done } = await waitingRun(twice, 'two-crystals');

    const r = await capture(() => approveCommand([controller.runDir, 'ap-1', '--all-like-this']));
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /ap-1 approved by user@cli; it stands for later requests of the same concern/);
    const result = await done;
    await controller.close();
    await api.stop();
    assert.equal(result.state, 'completed', result.reason);
    const events = controller.session.run.log.events();
    const requests = events.filter((e) => e.kind === 'approval.request').map((e) => e.payload as { id: string; call: string });
    assert.equal(requests.length, 2, 'the second build is checked and warned about too');
    const answers = events
      .filter((e) => e.kind === 'approval.answer')
      .map((e) => e.payload as { id: string; decision: string; by: string; standing?: boolean; under?: string });
    assert.deepEqual(
      answers.map((a) => [a.id, a.decision, a.by, a.standing ?? false, a.under ?? '']),
      [
        ['ap-1', 'approve', 'user@cli', true, ''],
        ['ap-2', 'approve', 'user@cli', false, 'ap-1'],
      ],
    );
    assert.equal(controller.session.run.registry.calls().filter((c) => c.tool === 'build_bulk' && c.status === 'ok').length, 2);
    // The run waited once, for the person; the second request did not leave it "waiting".
    const states = events.filter((e) => e.kind === 'run.state').map((e) => (e.payload as { state: string }).state);
    assert.equal(states.at(-1), 'completed');
    assert.equal(states.filter((s) => s === 'waiting-approval').length, 1, states.join(' → '));
  });

  it('`dreams approve --all-like-this` approves the open requests of the same concern and stands for later ones; --list says so', async () => {
    const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-standing-'));
    const run = await createRun(runs, { objective: 'loose relaxations' });
    const loose = {
      tool: 'relax_structure',
      parameter: 'fmaxEvPerAngstrom',
      value: 0.2,
      verdicts: [{ rule: 'relax-fmax@1', level: 'warn' as const, reasons: ['0.2 eV/Å is looser than the 0.1 eV/Å the study uses'] }],
      provenancePath: [],
    };
    const book = new ApprovalBook(run.log);
    await book.raise({ ...loose, call: 'c-1' });
    await book.raise({ ...loose, call: 'c-2', tool: 'adsorption_search' });
    await book.raise({ ...loose, call: 'c-3', value: 0.5 });
    await run.close();

    const refused = await capture(() => approveCommand([run.dir, 'ap-1', '--all-like-this', '--reject']));
    assert.equal(refused.code, 2);
    assert.match(refused.out, /--all-like-this approves; a rejection answers one request only/);
    const r = await capture(() => approveCommand([run.dir, 'ap-1', '--all-like-this', '--comment', 'a quick look']));
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /ap-1 approved; it stands for later requests of the same concern in this run, and also approved ap-2\./);
    const listed = await capture(() => approveCommand([run.dir, '--list']));
    assert.match(listed.out, /ap-1 .*approved by user@cli at \S+ \(standing: also for later requests of this concern\)/);
    assert.match(listed.out, /ap-2 .*approved by user@cli at \S+ \(standing approval of ap-1\)/);
    assert.match(listed.out, /ap-3 .*OPEN/);
    // a later request of the same concern, raised by the run when it resumes, is answered as it is raised
    const again = await openRun(run.dir, { mode: 'writer' });
    const later = await new ApprovalBook(again.log).raise({ ...loose, call: 'c-4' });
    assert.equal(new ApprovalBook(again.log).answerOf(later.id)!.under, 'ap-1');
    await again.close();
  });
});
