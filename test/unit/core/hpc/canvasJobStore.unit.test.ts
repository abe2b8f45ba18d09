// Jobs persist in the run's canvas event log (the real EventLog) and come back on reopen.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEventLog } from '../../../../src/core/canvas/eventLog';
import { CanvasJobStore } from '../../../../src/core/hpc/canvasJobStore';
import { transitionJob } from '../../../../src/core/hpc/jobModel';
import type { JobRecord } from '../../../../src/core/hpc/types';

describe('canvas job store', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-jobstore-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes job.transition and job.progress events under jobs/<id> and folds them back after a reopen', async () => {
    const file = path.join(dir, 'events.jsonl');
    const { log } = await openEventLog(file, { mode: 'writer' });
    const store = new CanvasJobStore(log);
    const draft: JobRecord = {
      id: 'job-a',
      backend: 'local',
      state: 'draft',
      program: 'pw.x',
      input: 'a.in',
      files: [],
      pseudopotentials: [],
      outputs: [],
      createdAt: 't',
      updatedAt: 't',
    };
    const validated = transitionJob(draft, 'validated');
    const submitted = transitionJob(validated, 'submitted');
    const running = transitionJob(submitted, 'running', { pid: 42 });
    for (const j of [draft, validated, submitted, running]) await store.recordTransition(j);
    await store.recordProgress('job-a', { scfIteration: 3, estimatedAccuracyRy: 1e-4, updatedAt: 'now' });
    const kinds = log.events().map((e) => [e.kind, e.key, e.actor.id]);
    assert.deepEqual(kinds.at(-1), ['job.progress', 'jobs/job-a', 'hpc']);
    assert.equal(kinds.filter(([k]) => k === 'job.transition').length, 4);
    await log.close();

    const { log: again } = await openEventLog(file, { mode: 'reader' });
    const jobs = new CanvasJobStore(again).jobs();
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]!.state, 'running');
    assert.equal(jobs[0]!.pid, 42);
    assert.equal(jobs[0]!.progress?.scfIteration, 3);
    await again.close();
  });
});
