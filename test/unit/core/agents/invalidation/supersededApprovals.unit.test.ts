import assert from 'node:assert/strict';
import { supersession } from '../../../../../src/core/agents/invalidation/supersededApprovals';
import type { ArtifactRecord, ToolCallRecord } from '../../../../../src/core/provenance/types';
import type { StepContext } from '../../../../../src/core/plan/stepArguments';
import type { Plan } from '../../../../../src/core/plan/types';

const call = (id: string, step: string, tool: string, outputs: string[], args: Record<string, unknown> = {}): ToolCallRecord => ({
  id,
  tool,
  step,
  outputs,
  status: 'ok',
  args: Object.fromEntries(Object.entries(args).map(([k, value]) => [k, { value }])),
  reasons: {},
  context: '',
  verdicts: [],
  agent: { role: 'dft' },
  startedAt: '2026-01-01T00:00:00Z',
});
const artifact = (id: string, creator: string, status: ArtifactRecord['status'] = 'final'): ArtifactRecord => ({
  id,
  creator,
  status,
  kind: 'table',
  name: 'converged_settings',
  contentHash: id,
  inputs: [],
  concerns: [],
  createdAt: '2026-01-01T00:00:00Z',
});

function context(calls: ToolCallRecord[], artifacts: ArtifactRecord[], plan: Plan): StepContext {
  return {
    events: [],
    plan,
    settings: {},
    provenance: {
      calls: () => calls,
      call: (id) => calls.find((c) => c.id === id),
      artifact: (id) => artifacts.find((a) => a.id === id),
      artifacts: () => artifacts,
    },
  };
}

const plan: Plan = {
  objective: 'a',
  version: 3,
  steps: [
    { id: 'cutoff-choice', title: 'choose', worker: 'dft', tool: 'select_converged_settings', status: 'done' },
    { id: 'runs', title: 'run', worker: 'hpc', tool: 'run_pw', args: { input: '$each.series.pw_input' }, status: 'done' },
  ],
};

describe('approvals on superseded results', () => {
  it("a provisional selection the extended sweep replaced is superseded by the step's later call", () => {
    const first = call('c-9', 'cutoff-choice', 'select_converged_settings', ['a-30']);
    const later = call('c-20', 'cutoff-choice', 'select_converged_settings', ['a-41']);
    const ctx = context([first, later], [artifact('a-30', 'c-9', 'provisional'), artifact('a-41', 'c-20')], plan);
    assert.deepEqual(supersession(first, ctx), { reason: 'superseded: step cutoff-choice ran again and c-20 made a-41', by: 'c-20' });
    assert.equal(supersession(later, ctx), undefined, 'the call the step stands on still counts');
  });

  it('a result that went stale is superseded; a run of a series is superseded only by a later run of the same item', () => {
    const stale = call('c-9', 'cutoff-choice', 'select_converged_settings', ['a-30']);
    const runA = call('c-11', 'runs', 'run_pw', ['a-32'], { input: 'a-20' });
    const runB = call('c-12', 'runs', 'run_pw', ['a-33'], { input: 'a-21' });
    const ctx = context(
      [stale, runA, runB],
      [artifact('a-30', 'c-9', 'stale'), artifact('a-32', 'c-11', 'provisional'), artifact('a-33', 'c-12')],
      plan,
    );
    assert.match(supersession(stale, ctx)!.reason, /^superseded: its result a-30 went stale$/);
    assert.equal(supersession(runA, ctx), undefined, "another item's run does not supersede it");
    const rerunA = call('c-15', 'runs', 'run_pw', ['a-40'], { input: 'a-20' });
    const ctx2 = context(
      [stale, runA, runB, rerunA],
      [artifact('a-32', 'c-11', 'provisional'), artifact('a-33', 'c-12'), artifact('a-40', 'c-15')],
      plan,
    );
    assert.deepEqual(supersession(runA, ctx2), { reason: 'superseded: step runs ran again and c-15 made a-40 for a-20', by: 'c-15' });
  });
});
