// Steps side by side: which ready steps go together (builders first, then the pw.x runs), and plan status changes that arrive
// together are all kept.
import assert from 'node:assert/strict';
import { nextBatch, PlanStore, type PlanCanvas } from '../../../../src/core/plan/store';
import type { Plan, PlanStep } from '../../../../src/core/plan/types';
import type { ReadResult, WriteResult } from '../../../../src/core/canvas/types';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';
import type { WorkflowEnvironment } from '../../../../src/core/workflows/types';

const env: WorkflowEnvironment = {
  pseudopotential: ({ element, file }) => ({
    file: file ?? `${element}.pbe-n-rrkjus_psl.1.0.0.UPF`,
    type: 'US',
    functional: 'PBE',
    suggestedEcutwfcRy: 47,
    suggestedEcutrhoRy: 323,
  }),
};

function sitePreferencePlan(): Plan {
  const { steps } = prepareWorkflow(
    'adsorption-site-preference',
    {
      metal: 'Pt',
      latticeConstantAngstrom: 3.98,
      ecutwfcRy: 47,
      kMesh: [2, 2, 1],
      slab: { layers: 2, vacuumAngstrom: 5 },
    },
    env,
  );
  return {
    objective: 'CO/Pt(111)',
    workflow: 'adsorption-site-preference',
    steps: steps.map((s) => ({ ...s, status: 'pending' })),
    version: 1,
  };
}

/** Every step done up to (not including) the first run_pw step whose input step is done. */
function upToTheRuns(plan: Plan): Plan {
  const runs = new Set(plan.steps.filter((s) => s.tool === 'run_pw').map((s) => s.id));
  const blocked = new Set<string>();
  // anything downstream of a run stays pending
  for (const s of plan.steps) if (runs.has(s.id) || (s.dependsOn ?? []).some((d) => runs.has(d) || blocked.has(d))) blocked.add(s.id);
  return { ...plan, steps: plan.steps.map((s): PlanStep => ({ ...s, status: blocked.has(s.id) ? 'pending' : 'done' })) };
}

describe('plan steps side by side', () => {
  it('runs the ready pw.x steps together (the gas molecule and the three relaxations), within the limit', () => {
    const plan = upToTheRuns(sitePreferencePlan());
    const all = nextBatch(plan, 8);
    assert.equal(all.continuing, false);
    assert.deepEqual(
      all.steps.map((s) => s.id),
      ['gas-run', 'relax-clean-run', 'relax-ontop-run', 'relax-fcc-run'],
    );
    assert.deepEqual(
      nextBatch(plan, 2).steps.map((s) => s.id),
      ['gas-run', 'relax-clean-run'],
    );
    assert.deepEqual(
      nextBatch(plan, 1).steps.map((s) => s.id),
      ['gas-run'],
      'a limit of one runs steps one at a time',
    );
  });

  it('runs any other step alone, and continues every step a stopped process left running', () => {
    const plan = sitePreferencePlan();
    const first = nextBatch(plan, 8);
    assert.equal(first.steps.length, 1);
    assert.notEqual(first.steps[0]!.tool, 'run_pw');
    const ready = upToTheRuns(plan);
    const left = {
      ...ready,
      steps: ready.steps.map((s): PlanStep => (s.id === 'relax-ontop-run' || s.id === 'relax-fcc-run' ? { ...s, status: 'running' } : s)),
    };
    const resumed = nextBatch(left, 1);
    assert.equal(resumed.continuing, true);
    assert.deepEqual(
      resumed.steps.map((s) => s.id),
      ['relax-ontop-run', 'relax-fcc-run'],
    );
    // the gas run is ready before the slab is built: the builders go first, so it joins the relaxations
    const gasReady = {
      ...plan,
      steps: plan.steps.map(
        (s): PlanStep => (['pseudopotentials', 'gas-molecule', 'gas-input'].includes(s.id) ? { ...s, status: 'done' } : s),
      ),
    };
    assert.ok(gasReady.steps.some((s) => s.id === 'gas-run') && nextBatch(gasReady, 8).steps[0]!.id !== 'gas-run');
    assert.deepEqual(
      nextBatch(gasReady, 8).steps.map((s) => s.tool === 'run_pw'),
      [false],
    );
    const finished = { ...plan, steps: plan.steps.map((s): PlanStep => ({ ...s, status: 'done' })) };
    assert.deepEqual(nextBatch(finished, 8).steps, []);
  });

  it('keeps every status change when steps end at the same moment', async () => {
    // a canvas whose writes take a while, as the event log's fsync does
    const versions: unknown[] = [];
    const canvas: PlanCanvas = {
      read: (): ReadResult => (versions.length ? { ok: true, value: versions.at(-1) } : { ok: false }) as ReadResult,
      write: async (_key, value): Promise<WriteResult> => {
        await new Promise((r) => setTimeout(r, 5));
        versions.push(structuredClone(value));
        return { ok: true } as WriteResult;
      },
    };
    const plan = upToTheRuns(sitePreferencePlan());
    versions.push(plan);
    const runs = ['gas-run', 'relax-clean-run', 'relax-ontop-run', 'relax-fcc-run'];
    // two stores on one canvas, as the supervisor and a tool each hold one
    const [a, b] = [new PlanStore(canvas), new PlanStore(canvas)];
    await Promise.all(runs.map((id, i) => (i % 2 ? a : b).setStatus(id, 'done', `${id} done`)));
    const last = versions.at(-1) as Plan;
    assert.deepEqual(
      runs.map((id) => last.steps.find((s) => s.id === id)!.status),
      ['done', 'done', 'done', 'done'],
    );
    assert.equal(last.version, plan.version + 4, 'one new version per change');
  });
});
