// Local runner against the real pw.x: progress, completion, failure text, process-group
// cancellation and the concurrency limit, all through the JobService.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { LocalRunner, outputNameFor } from '../../src/core/hpc/localRunner';
import { readPwOutcome } from '../../src/core/dft/qe/jobFacts';
import type { JobRecord } from '../../src/core/hpc/types';

const fixtures = path.resolve(__dirname, '../fixtures/hpc');
const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const alPseudo = [{ name: 'Al.pz-vbc.UPF', path: path.join(pseudoDir, 'Al.pz-vbc.UPF') }];
const input = (name: string) => ({ name: 'al.in', text: fs.readFileSync(path.join(fixtures, name), 'utf8') });

const commandOf = (pid: number): string | undefined => {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** Process ids whose environment carries DREAMS_JOB_ID=<id> (pw.x, mpirun and its ranks). */
function processesOfJob(id: string): number[] {
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (fs.readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(`DREAMS_JOB_ID=${id}`)) pids.push(Number(d));
    } catch {
      // process ended while we looked
    }
  }
  return pids;
}

/**
 * Waits until no process of the job is left. A singleton Open MPI pw.x starts an `orted`
 * in its own session that exits by itself shortly after pw.x does.
 */
async function noProcessesLeft(id: string, withinMs = 20_000): Promise<number[]> {
  const until = Date.now() + withinMs;
  let left = processesOfJob(id);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesOfJob(id);
  }
  return left;
}

/** Resolves at the job's first SCF iteration; rejects, with the job's error, if it ends before one. */
function firstScfIteration(service: JobService, id: string): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    service.onDidChange((j) => {
      if (j.id !== id) return;
      if ((j.progress?.scfIteration ?? 0) >= 1) resolve();
      else if (['completed', 'failed', 'cancelled'].includes(j.state))
        reject(new Error(`job ${id} ended ${j.state} before its first SCF iteration: ${j.error ?? ''}`));
    }),
  );
}

async function open(runDir: string, pwCommand: string, maxConcurrent = 1) {
  const store = new MemoryJobStore();
  const service = await JobService.open({
    store,
    runDir,
    progressIntervalMs: 0,
    backend: (name, updates) => {
      assert.equal(name, 'local');
      return new LocalRunner(updates, { pwCommand, maxConcurrent, watchIntervalMs: 100, killGraceMs: 3000 });
    },
  });
  return { store, service };
}

describe('local pw.x runner', () => {
  let runDir: string;
  beforeEach(() => (runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-hpc-local-'))));
  afterEach(() => fs.rmSync(runDir, { recursive: true, force: true }));

  it('runs an fcc Al SCF to completion, with live progress and hashed outputs', async () => {
    const { store, service } = await open(runDir, 'pw.x');
    const job = await service.create({ backend: 'local', input: input('al-fcc-scf.in'), pseudopotentials: alPseudo });
    const seen: JobRecord[] = [];
    service.onDidChange((j) => seen.push(j));
    await service.submit(job.id);
    const done = await service.waitFor(job.id);
    assert.equal(done.state, 'completed', done.error);
    const out = fs.readFileSync(path.join(runDir, 'jobs', job.id, outputNameFor('al.in')), 'utf8');
    const outcome = readPwOutcome(out);
    assert.ok(outcome.totalEnergyRy! < -4 && outcome.totalEnergyRy! > -4.3, `energy ${outcome.totalEnergyRy}`);
    assert.equal(done.progress?.totalEnergyRy, outcome.totalEnergyRy);
    assert.ok(
      seen.some((j) => (j.progress?.scfIteration ?? 0) >= 1 && j.state === 'running'),
      'no SCF iteration was reported while running',
    );
    assert.ok(seen.some((j) => j.progress?.estimatedAccuracyRy !== undefined));
    assert.deepEqual(
      done.outputs.map((o) => o.name),
      ['al.out'],
    );
    assert.match(done.outputs[0]!.sha256!, /^[0-9a-f]{64}$/);
    const states = store.events.filter((e) => e.kind === 'job.transition').map((e) => (e.payload as JobRecord).state);
    assert.deepEqual(states, ['draft', 'validated', 'submitted', 'running', 'completed']);
    await service.dispose();
  });

  it('splits an mpirun job into k-point pools from its k-points (-nk)', async () => {
    // 6×6×6 fcc Al: 16 irreducible k-points, two processes: two pools (about 2 s)
    const { service } = await open(runDir, 'mpirun -np 2 pw.x');
    const job = await service.create({ backend: 'local', input: input('al-fcc-scf.in'), pseudopotentials: alPseudo });
    await service.submit(job.id);
    const done = await service.waitFor(job.id);
    assert.equal(done.state, 'completed', done.error);
    const out = fs.readFileSync(path.join(runDir, 'jobs', job.id, outputNameFor('al.in')), 'utf8');
    assert.match(out, /K-points division:\s+npool\s+=\s+2/);
    await service.dispose();
  });

  it("reports a pw.x failure on bad input with pw.x's own error text", async () => {
    const { service } = await open(runDir, 'pw.x');
    const job = await service.create({ backend: 'local', input: input('al-fcc-bad.in'), pseudopotentials: alPseudo });
    await service.submit(job.id);
    const done = await service.waitFor(job.id);
    assert.equal(done.state, 'failed');
    assert.match(done.error!, /Error in routine\s+read_namelists/);
    assert.match(done.error!, /bad line in namelist &system: "\s*ecutwfcc = 15.0"/);
    assert.notEqual(done.exitCode, 0);
    await service.dispose();
  });

  it('cancel ends mpirun and every pw.x rank (the whole process group)', async () => {
    const { service } = await open(runDir, 'mpirun -np 2 pw.x');
    const job = await service.create({ backend: 'local', input: input('al-fcc-slow.in'), pseudopotentials: alPseudo });
    const firstIteration = firstScfIteration(service, job.id);
    await service.submit(job.id);
    await firstIteration;
    const before = processesOfJob(job.id);
    assert.ok(before.length >= 3, `expected mpirun and two ranks, found pids ${before.join(', ')}`);
    const cancelled = await service.cancel(job.id);
    assert.equal(cancelled.state, 'cancelled');
    assert.deepEqual(await noProcessesLeft(job.id), []);
    await service.dispose();
  });

  it('cancel also ends pw.x under a launcher that ignores SIGTERM and does not pass it on', async () => {
    const launcher = path.join(fixtures, 'stubborn-launcher.mjs');
    const { service } = await open(runDir, `${process.execPath} ${launcher} pw.x`);
    const job = await service.create({ backend: 'local', input: input('al-fcc-slow.in'), pseudopotentials: alPseudo });
    const firstIteration = firstScfIteration(service, job.id);
    await service.submit(job.id);
    await firstIteration;
    assert.ok(processesOfJob(job.id).length >= 2, 'launcher and pw.x should both be running');
    assert.equal((await service.cancel(job.id)).state, 'cancelled');
    assert.deepEqual(await noProcessesLeft(job.id), []);
    await service.dispose();
  });

  it('runs no more jobs at once than the limit; the rest wait as queued', async () => {
    const { service } = await open(runDir, 'pw.x', 1);
    let running = 0;
    let maxRunning = 0;
    const states = new Map<string, string[]>();
    service.onDidChange((j) => {
      const s = states.get(j.id) ?? [];
      if (s.at(-1) !== j.state) s.push(j.state);
      states.set(j.id, s);
      running = service.list().filter((x) => x.state === 'running').length;
      maxRunning = Math.max(maxRunning, running);
    });
    const a = await service.create({ backend: 'local', input: input('al-fcc-scf.in'), pseudopotentials: alPseudo });
    const b = await service.create({ backend: 'local', input: input('al-fcc-scf.in'), pseudopotentials: alPseudo });
    await service.submit(a.id);
    await service.submit(b.id);
    assert.equal(service.get(b.id)!.state, 'queued');
    const [da, db] = await Promise.all([service.waitFor(a.id), service.waitFor(b.id)]);
    assert.equal(da.state, 'completed');
    assert.equal(db.state, 'completed');
    assert.equal(maxRunning, 1);
    assert.deepEqual(states.get(b.id), ['draft', 'validated', 'submitted', 'queued', 'running', 'completed']);
    await service.dispose();
  });

  it('keeps the limit when jobs are submitted together: a starting job holds its slot, and a finished job frees one slot only', async () => {
    const { service } = await open(runDir, 'pw.x', 1);
    let maxRunning = 0;
    let maxProcesses = 0;
    const jobs = await Promise.all(
      [0, 1, 2].map(() => service.create({ backend: 'local', input: input('al-fcc-scf.in'), pseudopotentials: alPseudo })),
    );
    service.onDidChange(() => {
      maxRunning = Math.max(maxRunning, service.list().filter((x) => x.state === 'running').length);
      // pw.x itself: Open MPI's singleton start leaves a helper daemon a moment after pw.x ends
      const live = jobs.filter((j) => processesOfJob(j.id).some((pid) => commandOf(pid) === 'pw.x'));
      maxProcesses = Math.max(maxProcesses, live.length);
    });
    await Promise.all(jobs.map((j) => service.submit(j.id)));
    const done = await Promise.all(jobs.map((j) => service.waitFor(j.id)));
    assert.deepEqual(
      done.map((d) => d.state),
      ['completed', 'completed', 'completed'],
      done.map((d) => d.error ?? '').join(' | '),
    );
    assert.equal(maxRunning, 1, 'jobs running at once');
    assert.equal(maxProcesses, 1, 'pw.x processes of different jobs at once');
    await service.dispose();
  });
});
