// Why a step failed, as the supervisor replans from it and the user reads it: a selection that
// could not show convergence fails its step, and the reason carries the selection's advice (what
// to add), not only the ids of its provisional results.
import assert from 'node:assert/strict';
import { assessStep, type RunProvenance, type StepContext } from '../../../../src/core/plan/stepArguments';
import { STEP_START_EVENT } from '../../../../src/core/plan/stepRecords';
import type { PlanStep } from '../../../../src/core/plan/types';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import type { ArtifactRecord, ToolCallRecord } from '../../../../src/core/provenance/types';
import { selectConvergedSlab, type SlabVariant } from '../../../../src/core/dft/slabSelection';

const STEP: PlanStep = {
  id: 'layers-choice',
  title: 'Choose the layers',
  worker: 'dft',
  tool: 'select_converged_slab',
  status: 'running',
  args: { values: ['a-1', 'a-2', 'a-3'], dimension: 'layers', toleranceEv: 0.02 },
  reasons: {},
};

function context(value: unknown, status: ArtifactRecord['status']): StepContext {
  const call = {
    id: 'c-9',
    tool: 'select_converged_slab',
    step: STEP.id,
    status: 'ok',
    args: {},
    reasons: {},
    outputs: ['a-9'],
  } as unknown as ToolCallRecord;
  const artifact = {
    id: 'a-9',
    kind: 'table',
    name: 'converged_slab',
    value,
    status,
    creator: 'c-9',
    inputs: [],
  } as unknown as ArtifactRecord;
  const event = (seq: number, kind: string, payload: unknown) =>
    ({ seq, ts: '2026-12-03T00:00:00.000Z', kind, payload }) as unknown as CanvasEvent;
  const provenance = {
    call: (id: string) => (id === call.id ? call : undefined),
    artifact: (id: string) => (id === artifact.id ? artifact : undefined),
    calls: () => [call],
  } as unknown as RunProvenance;
  return {
    events: [event(1, STEP_START_EVENT, { id: STEP.id, attempt: 1, worker: 'dft', tool: STEP.tool }), event(2, 'provenance.call', call)],
    provenance,
    settings: {},
  };
}

const variant = (layers: number, valueEv: number): SlabVariant => ({
  layers,
  vacuumAngstrom: 5,
  fixedLayers: 1,
  valueEv,
  slab: `s-${layers}`,
  source: `d-${layers}`,
});

describe('why a step failed', () => {
  it("a layer sweep that did not converge fails its step with the selection's advice", () => {
    // ΔBE of the toy CO/Pt(111) layer sweep: 2, 3, 4 layers
    const sel = selectConvergedSlab([variant(2, -0.462), variant(3, -0.33), variant(4, -0.42)], 'layers', 0.02);
    assert.equal(sel.converged, false);
    const verdict = assessStep(STEP, {}, context(sel, 'provisional'));
    assert.equal(verdict.state, 'failed');
    const reason = verdict.state === 'failed' ? verdict.reason : '';
    assert.match(reason, /^c-9 select_converged_slab gave provisional a-9 converged_slab: /);
    assert.ok(reason.endsWith(sel.advice!), reason);
    assert.match(reason, /layers 5 and 6/);
  });

  it('a provisional result without advice keeps the short reason, and a final one is done', () => {
    const plain = assessStep(STEP, {}, context({ converged: false }, 'provisional'));
    assert.deepEqual(plain, { state: 'failed', reason: 'c-9 select_converged_slab gave provisional a-9 converged_slab' });
    const sel = selectConvergedSlab([variant(3, -0.3), variant(4, -0.305), variant(5, -0.31)], 'layers', 0.02);
    assert.equal(sel.converged, true);
    assert.deepEqual(assessStep(STEP, {}, context(sel, 'final')), { state: 'done', calls: ['c-9'] });
  });
});
