// bench:sol27's cost of a run read from its event log: the wall time a DREAMS process drove
// it, the pw.x time within that, and the overhead — also for a run that was interrupted and
// resumed, whose idle gap is neither.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activeIntervals, pwCpuSeconds, runCost } from '../../../../../scripts/bench/sol27/measure';
import type { CanvasEvent } from '../../../../../src/core/canvas/types';

const T0 = Date.parse('2026-12-01T00:00:00Z');
let seq = 0;
const at = (s: number, kind: string, payload: unknown, key?: string): CanvasEvent =>
  ({
    v: 1,
    seq: ++seq,
    ts: new Date(T0 + s * 1000).toISOString(),
    actor: { kind: 'framework', id: 'test' },
    kind,
    ...(key ? { key } : {}),
    payload,
  }) as unknown as CanvasEvent;
const state = (s: number, st: string) => at(s, 'run.state', { state: st }, 'run/state');
const job = (s: number, id: string, st: string, extra: Record<string, unknown> = {}) =>
  at(
    s,
    'job.transition',
    { id, backend: 'local', state: st, program: 'pw.x', input: 'pw.in', files: [], pseudopotentials: [], ...extra },
    `jobs/${id}`,
  );

describe('bench:sol27 run cost', () => {
  it('an uninterrupted run: wall time from its start to its end, overhead the time no pw.x ran', () => {
    const ev = [
      state(0, 'running'),
      job(10, 'j1', 'running', { startedAt: new Date(T0 + 10_000).toISOString() }),
      job(70, 'j1', 'completed', { startedAt: new Date(T0 + 10_000).toISOString(), endedAt: new Date(T0 + 70_000).toISOString() }),
      state(80, 'completed'),
    ];
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
    const ev = [
      state(0, 'running'),
      job(10, 'j1', 'running', { startedAt: started }),
      at(50, 'job.progress', { id: 'j1' }),
      // the process is gone from 50 s; pw.x runs on alone and ends at 1000 s; a new process resumes at 3600 s
      state(3600, 'running'),
      job(3601, 'j1', 'completed', { startedAt: started, endedAt: new Date(T0 + 1_000_000).toISOString() }),
      job(3610, 'j2', 'completed', { startedAt: new Date(T0 + 3_605_000).toISOString(), endedAt: new Date(T0 + 3_640_000).toISOString() }),
      state(3650, 'completed'),
    ];
    assert.deepEqual(activeIntervals(ev), [
      [T0, T0 + 50_000],
      [T0 + 3_600_000, T0 + 3_650_000],
    ]);
    const c = runCost(os.tmpdir(), ev);
    assert.equal(c.runWallSeconds, 100);
    assert.equal(c.pwWallSeconds, 40 + 35, 'j1 inside the first span, j2 inside the second');
    assert.equal(c.overheadSeconds, 25);
  });

  it('a paused run: the pause is not wall time', () => {
    const ev = [state(0, 'running'), state(30, 'paused'), state(600, 'running'), state(630, 'completed')];
    assert.deepEqual(activeIntervals(ev), [
      [T0, T0 + 30_000],
      [T0 + 600_000, T0 + 630_000],
    ]);
  });

  // the closing clock in the forms pw.x 6.7 prints (lines from this machine's runs), and a killed run's last progress line
  it('pw.x CPU time: seconds, minutes, past an hour (no seconds printed), and a run killed before its clock', () => {
    const tail = (clock: string) =>
      `     total cpu time spent up to now is       12.0 secs\n\n${clock}\n\n   This run was terminated on:  5:59:22   2Dec2026\n`;
    assert.equal(pwCpuSeconds(tail('     PWSCF        :     55.72s CPU   1m35.81s WALL')), 55.72);
    assert.equal(pwCpuSeconds(tail('     PWSCF        :  13m13.90s CPU  16m20.45s WALL')), 13 * 60 + 13.9);
    assert.equal(pwCpuSeconds(tail('     PWSCF        :      1h 8m CPU      1h25m WALL')), 3600 + 8 * 60);
    const killed =
      '     total cpu time spent up to now is     4190.2 secs\n\n     total energy = -828.7\n     total cpu time spent up to now is     4215.5 secs\n\n     negative rho (up, down):  2.237E-04 0.000E+00\n';
    assert.equal(pwCpuSeconds(killed), 4215.5, 'the last progress line, not the first');
    assert.equal(pwCpuSeconds('     Program PWSCF v.6.7MaX starts on  2Dec2026 at  5:12:29\n'), undefined);
  });

  it('a run cost counts a relaxation past an hour and a killed job from their outputs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-cost-'));
    try {
      const outputs: Record<string, string> = {
        j1: '     total cpu time spent up to now is     4080.0 secs\n     PWSCF        :      1h 8m CPU      1h25m WALL\n',
        j2: '     total cpu time spent up to now is      600.5 secs\n',
      };
      for (const [id, text] of Object.entries(outputs)) {
        fs.mkdirSync(path.join(dir, 'jobs', id), { recursive: true });
        fs.writeFileSync(path.join(dir, 'jobs', id, 'pw.out'), text);
      }
      const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
      const ev = [
        state(0, 'running'),
        job(5100, 'j1', 'completed', { startedAt: iso(0), endedAt: iso(5100) }),
        job(5800, 'j2', 'failed', { startedAt: iso(5100), endedAt: iso(5800) }),
        state(5800, 'failed'),
      ];
      assert.equal(runCost(dir, ev).pwCpuSeconds, 4080 + 600.5);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
