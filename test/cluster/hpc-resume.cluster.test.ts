// Restarts: the runner process dies mid-run and a new one resumes monitoring from the
// run's canvas log; a submission cut short is retried and finds the scheduler's job.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { openEventLog } from '../../src/core/canvas/eventLog';
import { JobBackends } from '../../src/core/hpc/backends';
import { CanvasJobStore } from '../../src/core/hpc/canvasJobStore';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { loadSshConfig } from '../../src/core/hpc/ssh/sshConfig';
import type { JobRecord } from '../../src/core/hpc/types';
import { alPseudo, makeTestCluster, readInput, until, type TestCluster } from './hpc/clusterFixture';

function backendsFor(cluster: TestCluster) {
  return new JobBackends({
    local: { pwCommand: 'pw.x' },
    profiles: [cluster.profile()],
    sshConfig: loadSshConfig(cluster.sshConfigFile),
    pollSeconds: 1,
  });
}

const schedulerJobsNamed = (cluster: TestCluster, id: string) =>
  cluster.ssh(`squeue -h --states=all -n ${id} -o %i`).trim().split('\n').filter(Boolean);

describe('remote runner: restarts', () => {
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => cluster.cleanup());

  it('a runner killed mid-run is restarted from the canvas log, resumes monitoring and submits nothing twice', async () => {
    const runDir = path.join(cluster.dir, 'run');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'hpc/serviceChild.ts')], {
      env: {
        ...process.env,
        DREAMS_CHILD: JSON.stringify({
          runDir,
          profile: cluster.profile(),
          sshConfigFile: cluster.sshConfigFile,
          input: { name: 'al.in', text: readInput('al-fcc-medium.in') },
          pseudopotentials: alPseudo,
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: { event: string; id: string; state?: string; submitCommands?: number }[] = [];
    readline.createInterface({ input: child.stdout! }).on('line', (l) => lines.push(JSON.parse(l)));
    let exitCode: number | null | undefined;
    const exited = new Promise((r) => child.once('exit', (code) => r((exitCode = code))));
    const running = await until(
      'the child to see the job running',
      () => {
        if (exitCode !== undefined) throw new Error(`the service child exited early (code ${exitCode})`);
        return lines.find((l) => l.event === 'state' && l.state === 'running');
      },
      90_000,
    );
    const submitted = lines.find((l) => l.event === 'submitted')!;
    assert.equal(submitted.submitCommands, 1);
    child.kill('SIGKILL');
    await exited;

    const { log, recovery } = await openEventLog(path.join(runDir, 'events.jsonl'), { mode: 'writer' });
    assert.ok(recovery.staleLock, "the dead runner's writer lock was taken over");
    const backends = backendsFor(cluster);
    const service = await JobService.open({ store: new CanvasJobStore(log), runDir, backend: backends.create });
    try {
      assert.equal(service.get(running.id)!.state, 'running', 'the restarted service knows the job from the log');
      const done = await service.waitFor(running.id);
      assert.equal(done.state, 'completed', done.error);
      assert.equal(backends.runners.get('testcluster')!.stats.submitCommands, 0, 'the restarted runner submitted nothing');
      assert.equal(schedulerJobsNamed(cluster, running.id).length, 1, 'one SLURM job carries the id');
      const submittedEvents = log.events().filter((e) => e.kind === 'job.transition' && (e.payload as JobRecord).state === 'submitted');
      assert.equal(submittedEvents.length, 1);
    } finally {
      await service.dispose();
      await backends.close();
      await log.close();
    }
  });

  it('a submission cut short (crash before the scheduler id was recorded) is retried and finds the existing scheduler job', async () => {
    const runDir = path.join(cluster.dir, 'run');
    const first = backendsFor(cluster);
    const store = new MemoryJobStore();
    const a = await JobService.open({ store, runDir, backend: first.create });
    const job = await a.create({
      backend: 'testcluster',
      input: { name: 'al.in', text: readInput('al-fcc-medium.in') },
      pseudopotentials: alPseudo,
    });
    const submitted = await a.submit(job.id);
    await a.dispose();
    await first.close();

    // The log as a crash right after sbatch would leave it: submit requested, no scheduler id.
    const cut = store.events.findIndex((e) => (e.payload as JobRecord).state === 'submitted');
    for (const markerGone of [false, true]) {
      if (markerGone) cluster.ssh(`rm -f ${submitted.workDir}/.dreams-scheduler-id`);
      const crashed = new MemoryJobStore();
      crashed.events.push(...store.events.slice(0, cut));
      assert.equal(crashed.jobs()[0]!.state, 'validated');
      assert.ok(crashed.jobs()[0]!.submitRequestedAt);
      const again = backendsFor(cluster);
      const b = await JobService.open({ store: crashed, runDir, backend: again.create });
      try {
        const resumed = b.get(job.id)!;
        assert.equal(
          resumed.state,
          'submitted',
          `resume retried the submission (marker ${markerGone ? 'gone: found by job name' : 'present'})`,
        );
        assert.equal(resumed.schedulerId, submitted.schedulerId);
        assert.equal(schedulerJobsNamed(cluster, job.id).length, 1);
      } finally {
        await b.dispose();
        await again.close();
      }
    }
  });
});
