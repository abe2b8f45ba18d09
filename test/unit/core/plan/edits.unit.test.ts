import assert from 'node:assert/strict';
import { applyPlanEdit, dependentsOf } from '../../../../src/core/plan/edits';
import { nextReadyStep } from '../../../../src/core/plan/store';
import { sweepExtensionEdits, furtherSweepValues } from '../../../../src/core/agents/sweepExtension';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { Plan, PlanStep } from '../../../../src/core/plan/types';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';

const registry = new ToolRegistry();
const roles = (tool: string) => registry.get(tool)?.roles;

function latticePlan(): Plan {
  const { steps } = prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05 }, {});
  return { objective: 'a(Al)', workflow: 'lattice-constant', steps: steps.map((s) => ({ ...s, status: 'pending' })), version: 1 };
}

const withStatus = (plan: Plan, status: Record<string, PlanStep['status']>): Plan => ({ ...plan, steps: plan.steps.map((s) => ({ ...s, status: status[s.id] ?? s.status })) });
const refusal = (plan: Plan, edit: unknown): string => {
  const r = applyPlanEdit(plan, edit, roles);
  assert.equal(r.ok, false, `expected a refusal of ${JSON.stringify(edit)}`);
  return (r as { reason: string }).reason;
};

describe('plan edits', () => {
  it('inserts a step after another, checked against the catalogue, and versions the plan', () => {
    const plan = latticePlan();
    const r = applyPlanEdit(plan, { op: 'insert', after: 'structure', step: { id: 'note', title: 'Note the start', worker: 'dft', tool: 'canvas_write', args: { key: 'notes/start', value: 'x', reason: 'r' } } }, roles);
    assert.ok(r.ok);
    assert.equal(r.plan.steps[1]!.id, 'note');
    assert.equal(r.plan.steps[1]!.status, 'pending');
    assert.equal(r.plan.version, 2);
    assert.equal(plan.steps.length + 1, r.plan.steps.length);
  });

  it('refuses invalid edits with the reason, leaving the plan unchanged', () => {
    const plan = latticePlan();
    assert.match(refusal(plan, { op: 'rename', id: 'structure' }), /op must be "insert", "modify" or "delete"/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'dft' } }), /tool is missing/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'Bad Id', title: 't', worker: 'dft', tool: 'build_bulk' } }), /edit\.step\.id: must match pattern/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'dft', tool: 'run_shell' } }), /there is no tool "run_shell"/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'hpc', tool: 'fit_eos' } }), /the hpc worker cannot call fit_eos; it belongs to dft/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'structure', title: 't', worker: 'dft', tool: 'build_bulk' } }), /a step "structure" already exists/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'dft', tool: 'fit_eos', args: { energies: '$all.eos-runs.total_energy' } } }), /refers to step "eos-runs" but the step does not depend on it/);
    assert.match(refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'dft', tool: 'fit_eos', dependsOn: ['nowhere'] } }), /depends on "nowhere", which is not in the plan/);
    assert.match(refusal(plan, { op: 'delete', id: 'eos-fit', reason: 'not needed' }), /lattice depends on it/);
    assert.match(refusal(plan, { op: 'delete', id: 'eos-fit' }), /reason is missing/);
    assert.match(refusal(withStatus(plan, { structure: 'running' }), { op: 'modify', id: 'structure', changes: { title: 'x' } }), /structure is running/);
    assert.match(refusal(plan, { op: 'modify', id: 'structure', changes: { dependsOn: ['lattice'] } }), /a cycle/);
  });

  it('a modified step and everything after it runs again; the rest keeps its results', () => {
    const done = withStatus(latticePlan(), Object.fromEntries(latticePlan().steps.map((s) => [s.id, 'done'])));
    const r = applyPlanEdit(done, { op: 'modify', id: 'eos-input', changes: { args: { ...done.steps.find((s) => s.id === 'eos-input')!.args, mixingBeta: 0.3 } } }, roles);
    assert.ok(r.ok);
    const status = Object.fromEntries(r.plan.steps.map((s) => [s.id, s.status]));
    assert.deepEqual(['eos-input', 'eos-series', 'eos-runs', 'eos-fit', 'lattice', 'report'].map((id) => status[id]), Array(6).fill('pending'));
    assert.equal(status['k-choice'], 'done');
    assert.match(r.message, /to run again: eos-input, eos-series, eos-runs, eos-fit, lattice, report/);
    assert.deepEqual(dependentsOf(done, 'lattice'), ['report']);
    assert.equal(nextReadyStep(r.plan)!.id, 'eos-input');
  });

  it('extends an unconverged sweep with a second series whose runs the selection also reads', () => {
    const plan = withStatus(latticePlan(), { structure: 'done', pseudopotentials: 'done', 'cutoff-input': 'done', 'cutoff-series': 'done', 'cutoff-runs': 'done', 'cutoff-choice': 'failed' });
    const sel = { parameter: 'ecutwfc' as const, tested: [20, 25, 30, 35, 45].map((value) => ({ value, energyEvPerAtom: -57, deltaMevPerAtom: 5 })), chosenValue: 45, chosen: {}, toleranceMevPerAtom: 1, converged: false };
    assert.deepEqual(furtherSweepValues(sel), [55, 65, 75]);
    assert.deepEqual(furtherSweepValues({ parameter: 'kspacing', tested: [0.4, 0.3, 0.2].map((value) => ({ value, energyEvPerAtom: 0, deltaMevPerAtom: 0 })) }), [0.133333, 0.0888889, 0.0592593]);
    let p = plan;
    for (const edit of sweepExtensionEdits(plan, plan.steps.find((s) => s.id === 'cutoff-choice')!, sel, 'not converged')!) {
      const r = applyPlanEdit(p, edit, roles);
      assert.ok(r.ok, (r as { reason?: string }).reason);
      p = r.plan;
    }
    const choice = p.steps.find((s) => s.id === 'cutoff-choice')!;
    assert.deepEqual(choice.args!.energies, ['$all.cutoff-runs.total_energy', '$all.cutoff-runs-2.total_energy']);
    assert.equal(choice.status, 'pending');
    assert.deepEqual(p.steps.find((s) => s.id === 'cutoff-series-2')!.args!.values, [55, 65, 75]);
    assert.equal(p.steps.find((s) => s.id === 'cutoff-runs')!.status, 'done', 'the runs already made are kept');
    assert.equal(nextReadyStep(p)!.id, 'cutoff-series-2');
  });
});
