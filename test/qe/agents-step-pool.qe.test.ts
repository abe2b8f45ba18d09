// The supervisor's pw.x steps side by side, with real pw.x (fcc Al, Debian's Al.pz-vbc.UPF):
// one slow SCF (a fine k-mesh) and three quick ones, two at a time. Each time a quick step
// ends, the next ready one starts while the slow one still runs; fixed batches would have
// held the third and fourth back until the slow step ended.
import assert from 'node:assert/strict';
import path from 'node:path';
import { RunController } from '../../src/core/run/controller';
import type { RunSettings } from '../../src/core/run/session';
import { STEP_END_EVENT, STEP_START_EVENT, type StepEndPayload, type StepStartPayload } from '../../src/core/plan/stepRecords';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { registerWorkflow } from '../../src/core/workflows';
import type { TemplateStep, WorkflowTemplate } from '../../src/core/workflows/types';
import { freshDir, PSEUDO_DIR } from '../fixtures/agents/scriptedLattice';

const RUNS = { slow: 0.06, quick1: 0.5, quick2: 0.45, quick3: 0.4 } as const;

const inputStep = (name: string, kSpacing: number): TemplateStep => ({
  id: `${name}-input`,
  title: `SCF input, k-spacing ${kSpacing} 1/Å`,
  worker: 'dft',
  tool: 'make_pw_input',
  args: {
    structure: '$step.structure.bulk_structure',
    pseudopotentials: '$step.pseudopotentials.pseudopotentials',
    purpose: 'convergence-test',
    calculation: 'scf',
    occupations: 'smearing',
    smearing: 'mv',
    degaussRy: 0.05,
    nspin: 1,
    ecutwfcRy: 20,
    ecutrhoRy: 80,
    kSpacingPerAngstrom: kSpacing,
  },
  reasons: {
    structure: 'the crystal',
    pseudopotentials: 'the LDA file',
    purpose: 'timing only',
    calculation: 'one energy',
    occupations: 'a metal',
    smearing: 'mv',
    degaussRy: 'the same in every run',
    nspin: 'not magnetic',
    ecutwfcRy: 'low: timing only',
    ecutrhoRy: '4 × ecutwfc (norm-conserving)',
    kSpacingPerAngstrom: kSpacing === RUNS.slow ? 'fine: this run is the slow one' : 'coarse: a quick run',
  },
  dependsOn: ['structure', 'pseudopotentials'],
});

const runStep = (name: string): TemplateStep => ({
  id: `${name}-run`,
  title: `Run pw.x: ${name}`,
  worker: 'hpc',
  tool: 'run_pw',
  args: { input: `$step.${name}-input.pw_input`, backend: '$run.backend' },
  reasons: { input: `the ${name} input`, backend: 'the backend of the run' },
  dependsOn: [`${name}-input`],
});

const SLOW_AND_QUICK: WorkflowTemplate = {
  id: 'test-slow-and-quick-runs',
  title: 'One slow pw.x run and three quick ones',
  description: 'test workflow: steps side by side',
  inputSchema: { type: 'object', properties: {} },
  resolveInputs: (i) => i,
  objective: () => 'fcc Al: one slow SCF and three quick ones',
  steps: (): TemplateStep[] => [
    {
      id: 'structure',
      title: 'fcc Al',
      worker: 'dft',
      tool: 'build_bulk',
      args: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 },
      reasons: { elements: 'Al', bravais: 'fcc', latticeConstantAngstrom: 'experiment' },
    },
    {
      id: 'pseudopotentials',
      title: 'LDA Al',
      worker: 'dft',
      tool: 'select_pseudopotentials',
      args: { elements: ['Al'], functional: 'PZ', prefer: { Al: 'Al.pz-vbc.UPF' } },
      reasons: { elements: 'Al', functional: 'LDA', prefer: "Debian's file" },
    },
    ...Object.entries(RUNS).map(([name, k]) => inputStep(name, k)),
    ...Object.keys(RUNS).map(runStep),
  ],
};
registerWorkflow(SLOW_AND_QUICK);

const settings = (): RunSettings => ({
  objective: { text: 'one slow SCF and three quick ones', workflow: SLOW_AND_QUICK.id, inputs: {} },
  offline: true,
  backend: 'local',
  approval: 'auto-approve',
  pseudoDir: PSEUDO_DIR,
  pwCommand: 'pw.x',
  localConcurrency: 2,
  models: {},
  judges: false,
  budget: {},
  qeVersion: '6.7',
  limits: { maxParallelJobs: 2 },
});

describe('pw.x steps side by side as a pool (offline, real pw.x)', function () {
  this.timeout(600_000);

  it('starts the next ready pw.x step as a quick one ends, while the slow one still runs', async () => {
    const dir = freshDir('dreams-step-pool-');
    const controller = await RunController.start({ runsDir: path.join(dir, 'runs'), settings: settings() });
    const result = await controller.run();
    assert.equal(result.state, 'completed', result.reason);
    const events: readonly CanvasEvent[] = controller.session.run.log.events();
    const at = (kind: string, id: string) => {
      const e = events.find((x) => x.kind === kind && (x.payload as StepStartPayload | StepEndPayload).id === id);
      assert.ok(e, `no ${kind} for ${id}`);
      return e.seq;
    };
    const runs = Object.keys(RUNS).map((n) => `${n}-run`);
    const order = events
      .filter((e) => (e.kind === STEP_START_EVENT || e.kind === STEP_END_EVENT) && runs.includes((e.payload as { id: string }).id))
      .map((e) => `${e.kind === STEP_START_EVENT ? 'start' : 'end'} ${(e.payload as { id: string }).id}`);
    // the first two in plan order start together; the slow one is still running when the last quick one has ended
    assert.deepEqual(order.slice(0, 2), ['start slow-run', 'start quick1-run'], order.join(', '));
    assert.ok(at(STEP_START_EVENT, 'quick2-run') < at(STEP_END_EVENT, 'slow-run'), `quick2 waited for the slow run: ${order.join(', ')}`);
    assert.ok(at(STEP_START_EVENT, 'quick3-run') < at(STEP_END_EVENT, 'slow-run'), `quick3 waited for the slow run: ${order.join(', ')}`);
    assert.equal(order.at(-1), 'end slow-run', order.join(', '));
    // never more than two steps in flight
    let inFlight = 0;
    for (const o of order) {
      inFlight += o.startsWith('start') ? 1 : -1;
      assert.ok(inFlight <= 2, `more than two steps in flight: ${order.join(', ')}`);
    }
  });
});
