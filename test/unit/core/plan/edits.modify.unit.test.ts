import assert from 'node:assert/strict';
import { applyPlanEdit } from '../../../../src/core/plan/edits';
import { ToolRegistry } from '../../../../src/core/agents/toolRegistry';
import type { Plan } from '../../../../src/core/plan/types';
import { prepareWorkflow } from '../../../../src/core/workflows/objective';

const registry = new ToolRegistry();
const roles = (tool: string) => registry.get(tool)?.roles;

function latticePlan(): Plan {
  const { steps } = prepareWorkflow('lattice-constant', { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05 }, {});
  return { objective: 'a(Al)', workflow: 'lattice-constant', steps: steps.map((s) => ({ ...s, status: 'done' })), version: 1 };
}

const step = (p: Plan, id: string) => p.steps.find((s) => s.id === id)!;

describe('plan edits: modify', () => {
  it('changes only the arguments it names: the others, hints included, stay as planned', () => {
    const plan = latticePlan();
    const before = step(plan, 'eos-input');
    const r = applyPlanEdit(
      plan,
      { op: 'modify', id: 'eos-input', changes: { args: { mixingBeta: 0.3 }, reasons: { mixingBeta: 'advisor a-40: the SCF sloshed' } } },
      roles,
    );
    assert.ok(r.ok, (r as { reason?: string }).reason);
    const after = step(r.plan, 'eos-input');
    assert.deepEqual(after.args, { ...before.args, mixingBeta: 0.3 });
    assert.equal(
      (step(r.plan, 'eos-input').args as Record<string, unknown>).ecutwfcRy,
      '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy',
      'a hint not named is kept',
    );
    assert.deepEqual(after.reasons, { ...before.reasons, mixingBeta: 'advisor a-40: the SCF sloshed' });
    assert.match(
      r.message,
      /modified step eos-input \(args\.mixingBeta \(unset\) → 0\.3, reasons\.mixingBeta\); to run again: eos-input, eos-series/,
    );
  });

  it('removes an argument given as null, and its reason with it when the reason is null too', () => {
    const plan = latticePlan();
    const r = applyPlanEdit(
      plan,
      { op: 'modify', id: 'eos-input', changes: { args: { degaussRy: null }, reasons: { degaussRy: null } } },
      roles,
    );
    assert.ok(r.ok, (r as { reason?: string }).reason);
    assert.equal('degaussRy' in step(r.plan, 'eos-input').args!, false);
    assert.equal('degaussRy' in step(r.plan, 'eos-input').reasons!, false);
    assert.match(r.message, /args\.degaussRy removed/);
  });

  it('replaces the other fields it names whole: dependsOn and the title', () => {
    const plan = latticePlan();
    const r = applyPlanEdit(
      plan,
      { op: 'modify', id: 'lattice', changes: { title: 'a from V0', dependsOn: ['eos-fit', 'structure'] } },
      roles,
    );
    assert.ok(r.ok, (r as { reason?: string }).reason);
    assert.equal(step(r.plan, 'lattice').title, 'a from V0');
    assert.deepEqual(step(r.plan, 'lattice').dependsOn, ['eos-fit', 'structure']);
    assert.deepEqual(step(r.plan, 'lattice').args, step(plan, 'lattice').args);
  });

  it('refuses a null reason in an insert (only modify removes)', () => {
    const r = applyPlanEdit(
      latticePlan(),
      { op: 'insert', step: { id: 'x', title: 't', worker: 'dft', tool: 'canvas_read', args: { key: 'plan' }, reasons: { key: null } } },
      roles,
    );
    assert.equal(r.ok, false);
  });
});
