// The process running the job service dies while pw.x runs; pw.x (in its own process
// group, writing to a file) carries on, and a new service resumes watching it from the
// run's canvas log: same pid, no second start, completed with its energy.
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
      const states = log.events().filter((e) => e.kind === 'job.transition').map((e) => (e.payload as JobRecord).state);
      assert.equal(states.filter((s) => s === 'running').length, 1, 'pw.x was started once');
      const outcome = readPwOutcome(fs.readFileSync(path.join(service.jobDir(running.id), 'al.out'), 'utf8'));
      assert.ok(outcome.jobDone && outcome.totalEnergyRy! < -4);
    } finally {
      await service.dispose();
      await log.close();
    }
  });
});
