/**
 * What a finished run cost, read from its event log and job outputs: pw.x runs, their CPU
 * and wall time, and the orchestration overhead — the run's wall time during which no
 * pw.x was running (planning, guard, provenance, input writing, job start-up).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CanvasEvent } from '../../../src/core/canvas/types';
import { parseQeDuration } from '../../../src/core/dft/qe/output/qeTime';
import { foldJobEvents } from '../../../src/core/hpc/jobStore';

export interface RunCost {
  /** pw.x processes the run started (jobs). */
  pwRuns: number;
  /** run_pw results taken from an earlier identical run of the same study instead of running pw.x. */
  reusedRuns: number;
  pwCpuSeconds: number;
  /** Time with at least one pw.x running (union of the jobs' intervals), s. */
  pwWallSeconds: number;
  runWallSeconds: number;
  overheadSeconds: number;
  overheadFraction: number;
}

/**
 * pw.x's CPU seconds from its output: its closing clock ("PWSCF : 55.72s CPU 1m35.81s WALL",
 * "PWSCF : 1h 8m CPU 1h25m WALL" — QE drops the seconds past an hour), or, for a run stopped
 * before it printed that (killed, out of walltime), the last "total cpu time spent up to now"
 * line, a lower bound short of at most one SCF iteration.
 */
export function pwCpuSeconds(out: string): number | undefined {
  const clock = /^\s*PWSCF\s*:(.*?)CPU(.*?)WALL/m.exec(out);
  const total = clock ? parseQeDuration(clock[1]!) : undefined;
  if (total !== undefined) return total;
  const upToNow = [...out.matchAll(/total cpu time spent up to now is\s+([\d.]+)\s+secs/g)].at(-1);
  return upToNow ? Number(upToNow[1]) : undefined;
}

export function unionSeconds(intervals: [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = [-Infinity, -Infinity];
  for (const [a, b] of sorted) {
    if (a > end) {
      if (end > start) total += end - start;
      [start, end] = [a, b];
    } else end = Math.max(end, b);
  }
  if (end > start) total += end - start;
  return total / 1000;
}

export function runCost(runDir: string, events: readonly CanvasEvent[]): RunCost {
  const jobs = foldJobEvents(events).filter((j) => j.startedAt && j.endedAt);
  let cpu = 0;
  for (const j of jobs) {
    const dir = path.join(runDir, 'jobs', j.id);
    const out = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.out')) : undefined;
    cpu += (out && pwCpuSeconds(fs.readFileSync(path.join(dir, out), 'utf8'))) || 0;
  }
  const active = activeIntervals(events);
  const runWall = active.reduce((s, [a, b]) => s + (b - a), 0) / 1000;
  // pw.x time inside those spans only: a job that ran on while no DREAMS process was there is not overhead
  const pwWall = unionSeconds(jobs.flatMap((j) => clip([Date.parse(j.startedAt!), Date.parse(j.endedAt!)], active)));
  const reusedRuns = events
    .filter((e) => e.kind === 'provenance.artifact')
    .filter((e) => {
      const a = e.payload as { name?: string; meta?: { reusedFrom?: unknown } };
      return a.name === 'total_energy' && !!a.meta?.reusedFrom;
    }).length;
  return {
    pwRuns: jobs.length,
    reusedRuns,
    pwCpuSeconds: cpu,
    pwWallSeconds: pwWall,
    runWallSeconds: runWall,
    overheadSeconds: runWall - pwWall,
    overheadFraction: runWall > 0 ? (runWall - pwWall) / runWall : 0,
  };
}

/**
 * The spans in which a DREAMS process drove the run, in ms: from each "running" state to the
 * next state; when the process died and a later one resumed the run (a "running" state
 * follows a "running" state), to the last event before the resume.
 */
export function activeIntervals(events: readonly CanvasEvent[]): [number, number][] {
  const out: [number, number][] = [];
  let start: number | undefined;
  let lastTs = -Infinity;
  for (const e of events) {
    const ts = Date.parse(e.ts);
    if (e.kind === 'run.state') {
      const state = (e.payload as { state?: string }).state;
      if (start !== undefined) out.push([start, state === 'running' ? lastTs : ts]);
      start = state === 'running' ? ts : undefined;
    }
    lastTs = ts;
  }
  if (start !== undefined) out.push([start, lastTs]);
  if (!out.length && events.length) out.push([Date.parse(events[0]!.ts), Date.parse(events.at(-1)!.ts)]);
  return out.filter(([a, b]) => b > a);
}

/** The parts of one interval inside any of the (disjoint, ordered) spans. */
function clip([a, b]: [number, number], spans: [number, number][]): [number, number][] {
  return spans.map(([s, t]) => [Math.max(a, s), Math.min(b, t)] as [number, number]).filter(([x, y]) => y > x);
}
