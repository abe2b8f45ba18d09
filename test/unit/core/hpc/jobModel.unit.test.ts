import assert from 'node:assert/strict';
import {
  canTransition,
  checkJobFileName,
  IllegalJobTransitionError,
  JOB_ID_PATTERN,
  JOB_TRANSITIONS,
  newJobId,
  transitionJob,
  updateJob,
} from '../../../../src/core/hpc/jobModel';
import type { JobRecord, JobState } from '../../../../src/core/hpc/types';

const STATES: JobState[] = ['draft', 'validated', 'submitted', 'queued', 'running', 'completed', 'failed', 'cancelled'];
const job = (state: JobState): JobRecord => ({
  id: 'job-1',
  backend: 'local',
  state,
  program: 'pw.x',
  input: 'a.in',
  files: [],
  pseudopotentials: [],
  outputs: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('job state machine', () => {
  it('allows exactly the moves in the table and refuses every other one with a clear error', () => {
    for (const from of STATES) {
      for (const to of STATES) {
        if (JOB_TRANSITIONS[from].includes(to)) {
          assert.equal(transitionJob(job(from), to).state, to);
        } else {
          assert.throws(
            () => transitionJob(job(from), to),
            (e: Error) => e instanceof IllegalJobTransitionError && e.message.includes(`'${from}' to '${to}'`),
          );
        }
      }
    }
  });

  it("follows the issue's lifecycle and never moves backwards", () => {
    const path: JobState[] = ['draft', 'validated', 'submitted', 'queued', 'running', 'completed'];
    for (let i = 0; i + 1 < path.length; i++) assert.ok(canTransition(path[i]!, path[i + 1]!));
    for (let i = 1; i < path.length; i++)
      for (let j = 0; j < i; j++) assert.ok(!canTransition(path[i]!, path[j]!), `${path[i]} → ${path[j]}`);
    for (const t of ['completed', 'failed', 'cancelled'] as const) {
      assert.deepEqual(JOB_TRANSITIONS[t], []);
      assert.throws(() => updateJob(job(t), { error: 'x' }), /can no longer change/);
    }
    assert.throws(() => transitionJob(job('completed'), 'running'), /'completed' is final/);
  });

  it('stamps submission, start and end times once', () => {
    const at = new Date('2026-02-02T10:00:00Z');
    const s = transitionJob(job('validated'), 'submitted', {}, at);
    assert.equal(s.submittedAt, at.toISOString());
    const r = transitionJob(s, 'running', {}, new Date('2026-02-02T10:05:00Z'));
    const c = transitionJob(r, 'completed', {}, new Date('2026-02-02T10:09:00Z'));
    assert.deepEqual(
      [c.submittedAt, c.startedAt, c.endedAt],
      ['2026-02-02T10:00:00.000Z', '2026-02-02T10:05:00.000Z', '2026-02-02T10:09:00.000Z'],
    );
  });

  it('makes ids a scheduler accepts as a job name, and refuses path-like file names', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newJobId()));
    assert.equal(ids.size, 50);
    for (const id of ids) assert.match(id, JOB_ID_PATTERN);
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\0b'])
      assert.throws(() => checkJobFileName(bad, 'input file name'), /not a plain file name/);
    checkJobFileName("-x 'q' $(y)\n.in", 'input file name');
  });
});
