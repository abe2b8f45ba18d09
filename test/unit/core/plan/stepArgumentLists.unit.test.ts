// A step argument that lists hints ("$step.<id>.<name>", "$all.<id>.<name>", mixed): each hint is
// resolved against the run, in order, so the call carries the artifacts' references, never the
// hint strings; a hint whose step has no result yet, or that cannot stand in a list, is named.
import assert from 'node:assert/strict';
import { artifactRefListSchema } from '../../../../src/core/guard/schemaAnnotations';
import { pendingStepCalls, type RunProvenance, type StepContext } from '../../../../src/core/plan/stepArguments';
import { STEP_START_EVENT } from '../../../../src/core/plan/stepRecords';
import type { PlanStep } from '../../../../src/core/plan/types';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import type { ArtifactRecord, ToolCallRecord } from '../../../../src/core/provenance/types';

// Three single-run steps (bulk, slab, molecule) and a sweep step with two energies, each done.
const RUNS: Record<string, { value: number | Record<string, number> }[]> = {
  bulk: [{ value: -10.5 }],
  slab: [{ value: -52.25 }],
  molecule: [{ value: { energy: -3.5, zpe: 0.1 } }],
  sweep: [{ value: -1 }, { value: -2 }],
};

function context(): StepContext {
  const calls: ToolCallRecord[] = [];
  const artifacts = new Map<string, ArtifactRecord>();
  const events: CanvasEvent[] = [];
  let seq = 0;
  let n = 0;
  const event = (kind: string, payload: unknown) =>
    events.push({ seq: ++seq, ts: '2026-12-05T00:00:00.000Z', kind, payload } as CanvasEvent);
  for (const [step, runs] of Object.entries(RUNS)) {
    event(STEP_START_EVENT, { id: step, attempt: 1, worker: 'dft', tool: 'run_pw' });
    for (const r of runs) {
      const id = `a-${++n}`;
      const call = { id: `c-${n}`, tool: 'run_pw', step, status: 'ok', args: {}, reasons: {}, outputs: [id] } as unknown as ToolCallRecord;
      artifacts.set(id, {
        id,
        kind: 'scalar',
        name: 'total_energy',
        value: r.value,
        unit: 'eV',
        status: 'final',
        creator: call.id,
        inputs: [],
      } as unknown as ArtifactRecord);
      calls.push(call);
      event('provenance.call', call);
    }
  }
  const provenance = {
    call: (id: string) => calls.find((c) => c.id === id),
    artifact: (id: string) => artifacts.get(id),
    calls: () => calls,
  } as unknown as RunProvenance;
  return { events, provenance, settings: {} };
}

const SCHEMA = {
  type: 'object',
  properties: {
    energies: artifactRefListSchema('the energies', { names: ['total_energy'] }),
    values: { type: 'array', items: { type: 'number' } },
  },
};

const step = (args: Record<string, unknown>): PlanStep => ({
  id: 'difference',
  title: 'The energy difference',
  worker: 'dft',
  tool: 'energy_difference',
  status: 'running',
  args,
  reasons: {},
});

describe('step arguments: a list of hints', () => {
  it('resolves a list of "$step" hints to the references of the artifacts they name, in order', () => {
    const r = pendingStepCalls(step({ energies: ['$step.slab.total_energy', '$step.bulk.total_energy'] }), SCHEMA, context());
    assert.ok(r.ok, r.ok ? '' : r.problem);
    assert.deepEqual(r.calls[0]!.arguments.energies, ['a-2', 'a-1']);
    assert.deepEqual(r.calls[0]!.references, {});
    assert.match(r.calls[0]!.reasons.energies!, /a-2 \(total_energy of step slab\)/);
    assert.match(r.calls[0]!.reasons.energies!, /a-1 \(total_energy of step bulk\)/);
  });

  it('mixes "$step" and "$all" hints, and keeps a path into the artifact', () => {
    const r = pendingStepCalls(
      step({ energies: ['$step.molecule.total_energy.energy', '$all.sweep.total_energy', '$step.bulk.total_energy'] }),
      SCHEMA,
      context(),
    );
    assert.ok(r.ok, r.ok ? '' : r.problem);
    assert.deepEqual(r.calls[0]!.arguments.energies, ['a-3.energy', 'a-4', 'a-5', 'a-1']);
  });

  it('gives the values of a list of "$step" hints to an argument that takes values, not references', () => {
    const r = pendingStepCalls(step({ values: ['$step.bulk.total_energy', '$step.molecule.total_energy.zpe'] }), SCHEMA, context());
    assert.ok(r.ok, r.ok ? '' : r.problem);
    assert.deepEqual(r.calls[0]!.arguments.values, [-10.5, 0.1]);
    assert.match(r.calls[0]!.reasons.values!, /a-1 \(total_energy of step bulk\) = -10\.5/);
  });

  it('names the hint whose step has no result yet, and a hint that cannot stand in a list, instead of sending the strings', () => {
    const missing = pendingStepCalls(step({ energies: ['$step.bulk.total_energy', '$step.gas.total_energy'] }), SCHEMA, context());
    assert.deepEqual(missing, { ok: false, problem: 'step gas has no final total_energy yet (needed by difference.energies)' });
    const each = pendingStepCalls(step({ energies: ['$step.bulk.total_energy', '$run.backend'] }), SCHEMA, context());
    assert.equal(each.ok, false);
    assert.match(each.ok ? '' : each.problem, /energies of step difference lists "\$run\.backend"/);
    const typo = pendingStepCalls(step({ energies: ['$step.bulk.total_energy', '$step.slab'] }), SCHEMA, context());
    assert.equal(typo.ok, false);
    assert.match(typo.ok ? '' : typo.problem, /energies of step difference lists "\$step\.slab", which is not a hint/);
  });

  it('leaves a list of plain values as it is, and a reference written out beside hints', () => {
    const r = pendingStepCalls(step({ values: [1, 2, 3], energies: ['a-4', '$step.bulk.total_energy'] }), SCHEMA, context());
    assert.ok(r.ok, r.ok ? '' : r.problem);
    assert.deepEqual(r.calls[0]!.arguments.values, [1, 2, 3]);
    assert.deepEqual(r.calls[0]!.arguments.energies, ['a-4', 'a-1']);
  });
});
