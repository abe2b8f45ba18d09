import assert from 'node:assert/strict';
import { applyPlanEdit, dependentsOf } from '../../../../src/core/plan/edits';
import { nextReadyStep } from '../../../../src/core/plan/store';
import {
  extensionRefusal,
  extensionsSoFar,
  MAX_EXTENSIONS,
  replanLimitFor,
  sweepExtensionEdits,
  furtherSweepValues,
} from '../../../../src/core/agents/sweepExtension';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { Plan, PlanStep } from '../../../../src/core/plan/types';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';

const registry = new ToolRegistry();
const roles = (tool: string) => registry.get(tool)?.roles;

function latticePlan(): Plan {
  const { steps } = prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05 }, {});
  return { objective: 'a(Al)', workflow: 'lattice-constant', steps: steps.map((s) => ({ ...s, status: 'pending' })), version: 1 };
}

const withStatus = (plan: Plan, status: Record<string, PlanStep['status']>): Plan => ({
  ...plan,
  steps: plan.steps.map((s) => ({ ...s, status: status[s.id] ?? s.status })),
});
const refusal = (plan: Plan, edit: unknown): string => {
  const r = applyPlanEdit(plan, edit, roles);
  assert.equal(r.ok, false, `expected a refusal of ${JSON.stringify(edit)}`);
  return (r as { reason: string }).reason;
};

describe('plan edits', () => {
  it('inserts a step after another, checked against the catalogue, and versions the plan', () => {
    const plan = latticePlan();
    const r = applyPlanEdit(
      plan,
      {
        op: 'insert',
        after: 'structure',
        step: {
          id: 'note',
          title: 'Note the start',
          worker: 'dft',
          tool: 'canvas_write',
          args: { key: 'notes/start', value: 'x', reason: 'r' },
        },
      },
      roles,
    );
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
    assert.match(
      refusal(plan, { op: 'insert', step: { id: 'Bad Id', title: 't', worker: 'dft', tool: 'build_bulk' } }),
      /edit\.step\.id: must match pattern/,
    );
    assert.match(
      refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'dft', tool: 'run_shell' } }),
      /there is no tool "run_shell"/,
    );
    assert.match(
      refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'hpc', tool: 'fit_eos' } }),
      /the hpc worker cannot call fit_eos; it belongs to dft/,
    );
    assert.match(
      refusal(plan, { op: 'insert', step: { id: 'structure', title: 't', worker: 'dft', tool: 'build_bulk' } }),
      /a step "structure" already exists/,
    );
    assert.match(
      refusal(plan, {
        op: 'insert',
        step: { id: 'x', title: 't', worker: 'dft', tool: 'fit_eos', args: { energies: '$all.eos-runs.total_energy' } },
      }),
      /refers to step "eos-runs" but the step does not depend on it/,
    );
    assert.match(
      refusal(plan, { op: 'insert', step: { id: 'x', title: 't', worker: 'dft', tool: 'fit_eos', dependsOn: ['nowhere'] } }),
      /depends on "nowhere", which is not in the plan/,
    );
    assert.match(refusal(plan, { op: 'delete', id: 'eos-fit', reason: 'not needed' }), /lattice depends on it/);
    assert.match(refusal(plan, { op: 'delete', id: 'eos-fit' }), /reason is missing/);
    assert.match(
      refusal(withStatus(plan, { structure: 'running' }), { op: 'modify', id: 'structure', changes: { title: 'x' } }),
      /structure is running/,
    );
    assert.match(refusal(plan, { op: 'modify', id: 'structure', changes: { dependsOn: ['lattice'] } }), /a cycle/);
  });

  it('a modified step and everything after it runs again; the rest keeps its results', () => {
    const done = withStatus(latticePlan(), Object.fromEntries(latticePlan().steps.map((s) => [s.id, 'done'])));
    const r = applyPlanEdit(
      done,
      { op: 'modify', id: 'eos-input', changes: { args: { ...done.steps.find((s) => s.id === 'eos-input')!.args, mixingBeta: 0.3 } } },
      roles,
    );
    assert.ok(r.ok);
    const status = Object.fromEntries(r.plan.steps.map((s) => [s.id, s.status]));
    assert.deepEqual(
      ['eos-input', 'eos-series', 'eos-runs', 'eos-fit', 'lattice', 'report'].map((id) => status[id]),
      Array(6).fill('pending'),
    );
    assert.equal(status['k-choice'], 'done');
    assert.match(r.message, /to run again: eos-input, eos-series, eos-runs, eos-fit, lattice, report/);
    assert.deepEqual(dependentsOf(done, 'lattice'), ['report']);
    assert.equal(nextReadyStep(r.plan)!.id, 'eos-input');
  });

  it('extends an unconverged sweep by one value at a time, each a series whose run the selection also reads', () => {
    const plan = withStatus(latticePlan(), {
      structure: 'done',
      pseudopotentials: 'done',
      'cutoff-input': 'done',
      'cutoff-series': 'done',
      'cutoff-runs': 'done',
      'bulk-modulus-input': 'done',
      'bulk-modulus-series': 'done',
      'bulk-modulus-runs': 'done',
      'cutoff-choice': 'failed',
    });
    const sel = {
      parameter: 'ecutwfc' as const,
      tested: [20, 30, 40, 50].map((value) => ({ value, energyEvPerAtom: -57, deltaMevPerAtom: 5 })),
      chosenValue: 50,
      chosen: {},
      toleranceMevPerAtom: 1,
      converged: false,
    };
    // the sweep's own last step, one value; the value the selection named when it named one
    assert.deepEqual(furtherSweepValues(sel), [60]);
    assert.deepEqual(furtherSweepValues({ ...sel, extension: { value: 65, withinBudget: true } }), [65]);
    assert.deepEqual(
      furtherSweepValues({
        parameter: 'kspacing',
        tested: [0.4, 0.3, 0.2].map((value) => ({ value, energyEvPerAtom: 0, deltaMevPerAtom: 0 })),
      }),
      [0.16],
    );
    const extend = (p: Plan, s: typeof sel): Plan => {
      for (const edit of sweepExtensionEdits(p, p.steps.find((x) => x.id === 'cutoff-choice')!, s, 'not converged')!) {
        const r = applyPlanEdit(p, edit, roles);
        assert.ok(r.ok, (r as { reason?: string }).reason);
        p = r.plan;
      }
      return p;
    };
    let p = extend(plan, sel);
    const choice = p.steps.find((s) => s.id === 'cutoff-choice')!;
    assert.deepEqual(choice.args!.energies, ['$all.cutoff-runs.total_energy', '$all.cutoff-runs-2.total_energy']);
    assert.equal(choice.status, 'pending');
    assert.deepEqual(p.steps.find((s) => s.id === 'cutoff-series-2')!.args!.values, [60]);
    assert.equal(p.steps.find((s) => s.id === 'cutoff-runs')!.status, 'done', 'the runs already made are kept');
    assert.equal(nextReadyStep(p)!.id, 'cutoff-series-2');
    // still not converged at 60: the next extension is named after the sweep, after the latest runs
    p = extend(withStatus(p, { 'cutoff-series-2': 'done', 'cutoff-runs-2': 'done', 'cutoff-choice': 'failed' }), {
      ...sel,
      tested: [20, 30, 40, 50, 60].map((value) => ({ value, energyEvPerAtom: -57, deltaMevPerAtom: 5 })),
    });
    assert.deepEqual(p.steps.find((s) => s.id === 'cutoff-choice')!.args!.energies, [
      '$all.cutoff-runs.total_energy',
      '$all.cutoff-runs-2.total_energy',
      '$all.cutoff-runs-3.total_energy',
    ]);
    assert.deepEqual(p.steps.find((s) => s.id === 'cutoff-series-3')!.args!.values, [70]);
    const ids = p.steps.map((s) => s.id);
    assert.ok(ids.indexOf('cutoff-series-3') > ids.indexOf('cutoff-runs-2'));
  });

  it('does not extend past the budget without asking: the refusal names the value, its predicted time and the budget', () => {
    const sel = {
      parameter: 'kspacing' as const,
      extension: {
        value: 0.081,
        kMesh: [36, 36, 36] as [number, number, number],
        predictedSeconds: 2400,
        predictedFrom: '2.6 × the 923 s of the run at 135 Ry',
        budgetSeconds: 1800,
        withinBudget: false,
      },
    };
    assert.match(
      extensionRefusal(sel)!,
      /extending the kspacing sweep to 0\.081 1\/Å \(36×36×36\) is predicted to take ~2400 s of pw\.x \(2\.6 × the 923 s .*\), over the extension budget of 1800 s\. It is not run without asking: raise extensionBudgetSeconds/,
    );
    assert.equal(extensionRefusal({ ...sel, extension: { ...sel.extension, predictedSeconds: 900, withinBudget: true } }), undefined);
    assert.equal(extensionRefusal({ parameter: 'ecutwfc' }), undefined, 'an old selection without an extension: no budget to hold it to');
    // a sweep extended eight times without converging is not extended a ninth time without asking
    assert.match(
      extensionRefusal({ ...sel, extension: { ...sel.extension, withinBudget: true } }, MAX_EXTENSIONS)!,
      /extended 8 times without showing convergence/,
    );
    // so a selection step gets a replanning round per extension, other steps the supervisor's own limit
    assert.equal(replanLimitFor({ tool: 'select_converged_settings' }, 2), MAX_EXTENSIONS + 1);
    assert.equal(replanLimitFor({ tool: 'run_pw' }, 2), 2);
    assert.equal(
      extensionsSoFar({
        id: 'k-choice',
        title: 't',
        worker: 'dft',
        tool: 'select_converged_settings',
        status: 'failed',
        args: { energies: ['$all.k-runs.total_energy', '$all.k-runs-2.total_energy', '$all.k-runs-3.total_energy'] },
      }),
      2,
    );
  });
});
