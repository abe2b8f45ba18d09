// The jobs list as a fold over events, the one the job service, the CLI and the VS Code jobs
// view all read.
import assert from 'node:assert/strict';
import type { EventBody } from '../../../../src/core/canvas/types';
import { foldJobEvents } from '../../../../src/core/hpc/jobStore';
import type { JobRecord, JobState } from '../../../../src/core/hpc/types';

const job = (state: JobState, extra: Partial<JobRecord> = {}): EventBody<'job.transition'> => ({
  kind: 'job.transition',
  payload: {
    id: 'j-1',
    backend: 'local',
    state,
    program: 'pw.x',
    input: 'pw.in',
    files: [],
    pseudopotentials: [],
    outputs: [],
    createdAt: 't0',
    updatedAt: 't0',
    ...extra,
  },
});
const progress = (scfIteration: number): EventBody<'job.progress'> => ({
  kind: 'job.progress',
  payload: { id: 'j-1', progress: { scfIteration, updatedAt: 't' } },
});

describe('the jobs fold', () => {
  it('keeps the last snapshot of each job, in creation order', () => {
    const other: EventBody<'job.transition'> = { kind: 'job.transition', payload: { ...job('queued').payload, id: 'j-2' } };
    assert.deepEqual(
      foldJobEvents([job('queued'), other, job('running')]).map((j) => [j.id, j.state]),
      [
        ['j-1', 'running'],
        ['j-2', 'queued'],
      ],
    );
  });

  it("keeps a job's live progress across its next transition, until a snapshot brings its own", () => {
    const [running] = foldJobEvents([job('submitted'), job('running'), progress(7), job('running', { pid: 42 })]);
    assert.equal(running!.progress?.scfIteration, 7);
    assert.equal(running!.pid, 42);
    const [done] = foldJobEvents([job('running'), progress(7), job('completed', { progress: { scfIteration: 9, updatedAt: 't' } })]);
    assert.equal(done!.progress?.scfIteration, 9);
  });

  it('ignores progress for a job it has not seen', () => {
    assert.deepEqual(foldJobEvents([progress(3)]), []);
  });
});
