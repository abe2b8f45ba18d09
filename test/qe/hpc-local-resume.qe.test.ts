// The process running the job service dies while pw.x runs; pw.x (in its own process
// group, writing to a file) carries on, and a new service resumes watching it from the
// run's canvas log: same pid, no second start, completed with its energy. Also when the
// process dies in the instant between starting pw.x and recording it: the restarted service
// finds that pw.x by the job id in its environment, or its output if it has ended meanwhile.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { openEventLog } from '../../src/core/canvas/eventLog';
import { CanvasJobStore } from '../../src/core/hpc/canvasJobStore';
import { JobService } from '../../src/core/hpc/jobService';
import { LocalRunner } from '../../src/core/hpc/localRunner';
import { readPwOutcome } from '../../src/core/dft/qe/jobFacts';
import type { JobRecord } from '../../src/core/hpc/types';

const fixtures = path.resolve(__dirname, '../fixtures/hpc');
const pseudoDir = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

/**
 * The pw.x launches of a job still alive: processes whose environment carries DREAMS_JOB_ID=<id>
 * and whose parent's does not (Open MPI's helpers under pw.x inherit the variable).
 */
function processesOfJob(id: string): number[] {
  const carrying = new Map<number, number>();
  for (const p of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`DREAMS_JOB_ID=${id}`))
        carrying.set(Number(p), Number(ppid));
    } catch {
      // gone meanwhile
    }
  }
  return [...carrying]
    .filter(([, parent]) => !carrying.has(parent))
    .map(([pid]) => pid)
    .sort((a, b) => a - b);
}

/** Run the service child until it kills itself between starting pw.x and recording it; the job's id. */
async function killedAtSpawn(runDir: string, inputText: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'hpc/localServiceChild.ts')], {
    env: {
      ...process.env,
      DREAMS_CHILD: JSON.stringify({
        runDir,
        killBeforeRunning: true,
        input: { name: 'al.in', text: inputText },
        pseudopotentials: [{ name: 'Al.pz-vbc.UPF', path: path.join(pseudoDir, 'Al.pz-vbc.UPF') }],
      }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('exit', (c, sig) => r([c, sig])));
  assert.equal(signal, 'SIGKILL', 'the service died at the spawn');
  const { log } = await openEventLog(path.join(runDir, 'events.jsonl'), { mode: 'reader' });
  try {
    const jobs = log
      .events()
      .filter((e) => e.kind === 'job.transition')
      .map((e) => e.payload as JobRecord);
    assert.ok(
      jobs.length > 0 && !jobs.some((j) => j.state === 'running'),
      `no 'running' on record: ${jobs.map((j) => j.state).join(' → ')}`,
    );
    return jobs.at(-1)!.id;
  } finally {
    await log.close();
  }
}

async function resumeService(runDir: string) {
  const { log } = await openEventLog(path.join(runDir, 'events.jsonl'), { mode: 'writer' });
  const service = await JobService.open({
    store: new CanvasJobStore(log),
    runDir,
    backend: (_n, updates) => new LocalRunner(updates, { pwCommand: 'pw.x', watchIntervalMs: 100 }),
  });
  return { log, service, close: async () => (await service.dispose(), await log.close()) };
}

describe('local runner: restart', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-hpc-resume-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a killed service is restarted from the canvas log and resumes watching the same pw.x', async () => {
    const runDir = path.join(dir, 'run');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'hpc/localServiceChild.ts')], {
      env: {
        ...process.env,
        DREAMS_CHILD: JSON.stringify({
          runDir,
          input: { name: 'al.in', text: fs.readFileSync(path.join(fixtures, 'al-fcc-medium.in'), 'utf8') },
          pseudopotentials: [{ name: 'Al.pz-vbc.UPF', path: path.join(pseudoDir, 'Al.pz-vbc.UPF') }],
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const seen: { id: string; state: string; pid?: number; scf?: number }[] = [];
    readline.createInterface({ input: child.stdout! }).on('line', (l) => seen.push(JSON.parse(l)));
    let exitCode: number | null | undefined;
    const exited = new Promise((r) => child.once('exit', (c) => r((exitCode = c))));
    const end = Date.now() + 60_000;
    let running: (typeof seen)[number] | undefined;
    while (!(running = seen.find((s) => s.state === 'running' && (s.scf ?? 0) >= 1))) {
      if (exitCode !== undefined) throw new Error(`the service child exited early (code ${exitCode})`);
      if (Date.now() > end) throw new Error('pw.x never reported an SCF iteration');
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    await exited;
    process.kill(running.pid!, 0); // pw.x outlived the process that started it

    const { log } = await openEventLog(path.join(runDir, 'events.jsonl'), { mode: 'writer' });
    const service = await JobService.open({
      store: new CanvasJobStore(log),
      runDir,
      backend: (_n, updates) => new LocalRunner(updates, { pwCommand: 'pw.x', watchIntervalMs: 100 }),
    });
    try {
      assert.equal(service.get(running.id)!.state, 'running');
      const done = await service.waitFor(running.id);
      assert.equal(done.state, 'completed', done.error);
      assert.equal(done.pid, running.pid, 'the same pw.x process finished the job');
      const states = log
        .events()
        .filter((e) => e.kind === 'job.transition')
        .map((e) => (e.payload as JobRecord).state);
      assert.equal(states.filter((s) => s === 'running').length, 1, 'pw.x was started once');
      const outcome = readPwOutcome(fs.readFileSync(path.join(service.jobDir(running.id), 'al.out'), 'utf8'));
      assert.ok(outcome.jobDone && outcome.totalEnergyRy! < -4);
    } finally {
      await service.dispose();
      await log.close();
    }
  });

  it('a service killed between starting pw.x and recording it finds that pw.x on restart instead of starting a second', async () => {
    const runDir = path.join(dir, 'run');
    // about 5 s of pw.x: still running when the service is back
    const input = fs.readFileSync(path.join(fixtures, 'al-fcc-scf.in'), 'utf8').replace(/^\s*6 6 6 0 0 0$/m, '  20 20 20 0 0 0');
    const id = await killedAtSpawn(runDir, input);
    const [first] = processesOfJob(id);
    assert.ok(first, 'pw.x outlived the service that started it');
    const { log, service, close } = await resumeService(runDir);
    try {
      assert.deepEqual(processesOfJob(id), [first], 'one pw.x for the job after the restart');
      const done = await service.waitFor(id);
      assert.equal(done.state, 'completed', done.error);
      assert.equal(done.pid, first, 'the pw.x the killed service started finished the job');
      const states = log
        .events()
        .filter((e) => e.kind === 'job.transition')
        .map((e) => (e.payload as JobRecord).state);
      assert.equal(states.filter((s) => s === 'running').length, 1);
      const outcome = readPwOutcome(fs.readFileSync(path.join(service.jobDir(id), 'al.out'), 'utf8'));
      assert.ok(outcome.jobDone && outcome.totalEnergyRy! < -4);
    } finally {
      for (const p of processesOfJob(id)) process.kill(-p, 'SIGKILL');
      await close();
    }
  });

  it('a service killed at the spawn of a pw.x that ends before the restart takes its result from the output, without running it again', async () => {
    const runDir = path.join(dir, 'run');
    const id = await killedAtSpawn(runDir, fs.readFileSync(path.join(fixtures, 'al-fcc-scf.in'), 'utf8'));
    const end = Date.now() + 60_000;
    while (processesOfJob(id).length > 0) {
      if (Date.now() > end) throw new Error('pw.x did not end within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const out = path.join(runDir, 'jobs', id, 'al.out');
    const written = fs.readFileSync(out, 'utf8');
    assert.ok(readPwOutcome(written).jobDone, 'pw.x ran to the end unwatched');
    const { service, close } = await resumeService(runDir);
    try {
      const done = await service.waitFor(id);
      assert.equal(done.state, 'completed', done.error);
      assert.deepEqual(processesOfJob(id), [], 'no pw.x started again');
      assert.equal(fs.readFileSync(out, 'utf8'), written, "the output is the first run's, not overwritten");
    } finally {
      for (const p of processesOfJob(id)) process.kill(-p, 'SIGKILL');
      await close();
    }
  });
});
