// bench:sol27's cost of a run read from its event log: the wall time a DREAMS process drove
// it, the pw.x time within that, and the overhead — also for a run that was interrupted and
// resumed, whose idle gap is neither.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activeIntervals, runCost } from '../../../scripts/bench/sol27/measure';
import type { CanvasEvent } from '../../../src/core/canvas/types';

const T0 = Date.parse('2026-12-01T00:00:00Z');
let seq = 0;
const at = (s: number, kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({ v: 1, seq: ++seq, ts: new Date(T0 + s * 1000).toISOString(), actor: { kind: 'framework', id: 'test' }, kind, ...(key ? { key } : {}), payload } as unknown as CanvasEvent);
const state = (s: number, st: string) => at(s, 'run.state', { state: st }, 'run/state');
const job = (s: number, id: string, st: string, extra: Record<string, unknown> = {}) =>
  at(s, 'job.transition', { id, backend: 'local', state: st, program: 'pw.x', input: 'pw.in', files: [], pseudopotentials: [], ...extra }, `jobs/${id}`);

describe('bench:sol27 run cost', () => {
  it('an uninterrupted run: wall time from its start to its end, overhead the time no pw.x ran', () => {
    const ev = [state(0, 'running'), job(10, 'j1', 'running', { startedAt: new Date(T0 + 10_000).toISOString() }),
      job(70, 'j1', 'completed', { startedAt: new Date(T0 + 10_000).toISOString(), endedAt: new Date(T0 + 70_000).toISOString() }), state(80, 'completed')];
    assert.deepEqual(activeIntervals(ev), [[T0, T0 + 80_000]]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-cost-'));
    try {
      const c = runCost(dir, ev);
      assert.equal(c.pwRuns, 1);
      assert.equal(c.runWallSeconds, 80);
      assert.equal(c.pwWallSeconds, 60);
      assert.equal(c.overheadSeconds, 20);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a run whose process died and was resumed an hour later: the gap counts as neither run nor pw.x time', () => {
    const started = new Date(T0 + 10_000).toISOString();
    const ev = [state(0, 'running'), job(10, 'j1', 'running', { startedAt: started }), at(50, 'job.progress', { id: 'j1' }),
      // the process is gone from 50 s; pw.x runs on alone and ends at 1000 s; a new process resumes at 3600 s
      state(3600, 'running'), job(3601, 'j1', 'completed', { startedAt: started, endedAt: new Date(T0 + 1_000_000).toISOString() }),
      job(3610, 'j2', 'completed', { startedAt: new Date(T0 + 3_605_000).toISOString(), endedAt: new Date(T0 + 3_640_000).toISOString() }), state(3650, 'completed')];
    assert.deepEqual(activeIntervals(ev), [[T0, T0 + 50_000], [T0 + 3_600_000, T0 + 3_650_000]]);
    const c = runCost(os.tmpdir(), ev);
    assert.equal(c.runWallSeconds, 100);
    assert.equal(c.pwWallSeconds, 40 + 35, 'j1 inside the first span, j2 inside the second');
    assert.equal(c.overheadSeconds, 25);
  });

  it('a paused run: the pause is not wall time', () => {
    const ev = [state(0, 'running'), state(30, 'paused'), state(600, 'running'), state(630, 'completed')];
    assert.deepEqual(activeIntervals(ev), [[T0, T0 + 30_000], [T0 + 600_000, T0 + 630_000]]);
  });
});
