// The remote runner against the real test cluster: SSH (sshd on 127.0.0.1:2222) → SLURM →
// pw.x. Jobs and remote directories carry a per-run id; everything is cleaned up after.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { outputNameFor } from '../../src/core/hpc/localRunner';
import { readPwOutcome } from '../../src/core/dft/qe/jobFacts';
import { SlurmAdapter } from '../../src/core/hpc/schedulers/slurm';
import type { JobRecord } from '../../src/core/hpc/types';
import { createLogger } from '../../src/core/logger';
import {
  alPseudo,
  LinkRelay,
  makeTestCluster,
  oneTask,
  openClusterService,
  readInput,
  until,
  type TestCluster,
} from './hpc/clusterFixture';

/** The states a job went through, in order (updates within a state are folded). */
const statesOf = (store: MemoryJobStore, id: string) =>
  store.events
    .filter((e) => e.kind === 'job.transition' && (e.payload as JobRecord).id === id)
    .map((e) => (e.payload as JobRecord).state)
    .filter((s, i, all) => s !== all[i - 1]);

describe('remote runner: SSH → SLURM → pw.x', function () {
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => cluster.cleanup());

  it("runs an fcc Al SCF on the cluster and gets the local run's energy to 1e-6 Ry", async () => {
    const { service, backends, store, close } = await openClusterService(cluster);
    try {
      const input = { name: 'al.in', text: readInput('al-fcc-scf.in') };
      const local = await service.create({ backend: 'local', input, pseudopotentials: alPseudo });
      const remote = await service.create({ backend: 'testcluster', input, pseudopotentials: alPseudo });
      await service.submit(local.id);
      const submitted = await service.submit(remote.id);
      assert.equal(submitted.state, 'submitted');
      assert.match(submitted.schedulerId!, /^\d+$/);
      assert.match(submitted.resources!.reason, /suggested from 1 atom/);
      const [l, r] = await Promise.all([service.waitFor(local.id), service.waitFor(remote.id)]);
      assert.equal(l.state, 'completed', l.error);
      assert.equal(r.state, 'completed', r.error);
      const energy = (j: JobRecord) =>
        readPwOutcome(fs.readFileSync(path.join(service.jobDir(j.id), outputNameFor('al.in')), 'utf8')).totalEnergyRy!;
      const [el, er] = [energy(l), energy(r)];
      assert.ok(Number.isFinite(el) && el < -4);
      assert.ok(Math.abs(el - er) < 1e-6, `local ${el} Ry vs cluster ${er} Ry`);
      assert.ok(r.outputs.some((o) => o.name === 'al.out' && /^[0-9a-f]{64}$/.test(o.sha256!)));
      assert.deepEqual(statesOf(store, remote.id).slice(0, 3), ['draft', 'validated', 'submitted']);
      assert.equal(statesOf(store, remote.id).at(-1), 'completed');

      // a second job with the same pseudopotential does not send it again
      const runner = backends.runners.get('testcluster')!;
      const before = { ...runner.stats };
      // ... and, as a convergence test, its batch script removes its wavefunctions once pw.x succeeded
      const again = await service.create({ backend: 'testcluster', input, pseudopotentials: alPseudo, discardWavefunctions: true });
      await service.submit(again.id);
      assert.equal(runner.stats.filesUploaded - before.filesUploaded, 2, 'input and batch script only');
      assert.equal(runner.stats.filesSkipped - before.filesSkipped, 1, 'the pseudopotential is already there');
      const test = await service.waitFor(again.id);
      assert.equal(test.state, 'completed', test.error);
      const saved = (j: JobRecord) => cluster.ssh(`cd ${j.workDir} && ls tmp/al.save`).split('\n').filter(Boolean).sort();
      assert.ok(
        saved(r).some((f) => /^wfc\d+\.dat$/.test(f)),
        `the production run keeps its wavefunctions: ${saved(r)}`,
      );
      assert.deepEqual(
        saved(test),
        saved(r).filter((f) => !/^wfc/.test(f)),
        'the convergence test keeps all but its wavefunctions',
      );
      assert.ok(saved(test).includes('charge-density.dat'));
      assert.equal(backends.connections.get('testcluster')!.stats.connects, 1, 'one connection for everything');
    } finally {
      await close();
    }
  });

  it("reports a job whose pw.x fails on bad input as failed, with pw.x's own error text", async () => {
    const { service, close } = await openClusterService(cluster);
    try {
      // the misspelt ecutwfc also defeats resource sizing, so resources are given
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'bad.in', text: readInput('al-fcc-bad.in') },
        pseudopotentials: alPseudo,
        resources: oneTask,
      });
      await service.submit(job.id);
      const done = await service.waitFor(job.id);
      assert.equal(done.state, 'failed');
      assert.match(done.error!, /Error in routine\s+read_namelists/);
      assert.match(done.error!, /bad line in namelist &system: "\s*ecutwfcc = 15.0"/);
    } finally {
      await close();
    }
  });

  it('cancels a running job with scancel', async () => {
    const { service, close } = await openClusterService(cluster);
    try {
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'al.in', text: readInput('al-fcc-slow.in') },
        pseudopotentials: alPseudo,
      });
      await service.submit(job.id);
      await until('the job to run', () => service.get(job.id)!.state === 'running', 60_000);
      const cancelled = await service.cancel(job.id);
      assert.equal(cancelled.state, 'cancelled');
      const slurmState = await until(
        'SLURM to show the job cancelled',
        () => {
          const s = cluster.ssh(`squeue -h --states=all -j ${cancelled.schedulerId} -o %T`).trim();
          return s === 'CANCELLED' ? s : undefined;
        },
        30_000,
      );
      assert.equal(slurmState, 'CANCELLED');
    } finally {
      await close();
    }
  });

  it('withdraws a job SLURM will never start (walltime above the partition limit) and fails it with the reason and the limit, instead of waiting forever', async () => {
    // the test cluster's "short" partition allows 5 minutes
    const { service, store, close } = await openClusterService(cluster, cluster.profile({ partition: 'short' }));
    try {
      const resources = { ntasks: 1, nodes: 1, walltimeMinutes: 10, reason: 'test: more than the partition allows' };
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'al.in', text: readInput('al-fcc-scf.in') },
        pseudopotentials: alPseudo,
        resources,
      });
      await service.submit(job.id);
      const done = await service.waitFor(job.id);
      assert.equal(done.state, 'failed');
      assert.match(
        done.error!,
        /^SLURM will not start this job as it was asked for \(PartitionTimeLimit: its walltime is above the partition's time limit: ask for less time/,
      );
      assert.match(done.error!, /The job asked for 10 min on 1 node\(s\); partition "short" allows a job 5 min\./);
      assert.match(done.error!, new RegExp(`Nothing ran; the job was withdrawn \\(scancel ${done.schedulerId}\\)`));
      assert.equal(cluster.ssh(`squeue -h --states=all -j ${done.schedulerId} -o %T`).trim(), 'CANCELLED', 'SLURM no longer holds it');
      assert.ok(!statesOf(store, job.id).includes('running'));
    } finally {
      await close();
    }
  });

  it("suggests resources inside the partition's own time limit, read from sinfo, so the job runs", async () => {
    const { service, close } = await openClusterService(cluster, cluster.profile({ partition: 'short' }));
    try {
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'al.in', text: readInput('al-fcc-scf.in') },
        pseudopotentials: alPseudo,
      });
      await service.submit(job.id);
      const done = await service.waitFor(job.id);
      assert.equal(done.state, 'completed', done.error);
      assert.equal(done.resources!.walltimeMinutes, 5);
      assert.match(done.resources!.reason, /cut to the limits of partition "short" \(walltime 10 → 5 min\)/);
      assert.match(cluster.ssh(`scontrol show job ${done.schedulerId} | grep -o 'TimeLimit=[0-9:]*'`), /TimeLimit=00:05:00/);
    } finally {
      await close();
    }
  });

  it('reads finished jobs from accounting, falling back to sacct -c where accounting storage is off', async () => {
    const { backends, close } = await openClusterService(cluster);
    try {
      const connection = backends.connection(cluster.profile());
      const slurm = new SlurmAdapter();
      const submit = await connection.exec(`sbatch --parsable --job-name=${cluster.runId}-acct --output=/dev/null --wrap='exit 3'`);
      const id = slurm.parseSubmitOutput(submit.stdout);
      await until('the job to finish', () => /FAILED/.test(cluster.ssh(`squeue -h --states=all -j ${id} -o %T`)), 30_000);
      assert.match(
        cluster.ssh('sacct -n -j 1 2>&1; true'),
        /accounting storage is disabled/,
        'this cluster runs without accounting storage',
      );
      const finished = slurm.parseFinished((await connection.exec(slurm.finishedCommand([id]))).stdout);
      assert.deepEqual(finished.get(id), { state: 'failed', exitCode: 3, reason: 'SLURM reports FAILED, exit code 3:0' });
    } finally {
      await close();
    }
  });

  it('rides out a dropped SSH link: reconnects and completes the job, submitted once, and the log says so', async () => {
    const relay = await LinkRelay.start();
    const c2 = makeTestCluster([relay.port]);
    // the lines the DREAMS log channel would show (the extension passes its channel's logger the same way)
    const lines: string[] = [];
    const logger = createLogger({ log: (level, message) => lines.push(`[${level}] ${message}`) });
    const { service, backends, close } = await openClusterService(
      c2,
      c2.profile({ sshHost: `relay${relay.port}` }),
      undefined,
      undefined,
      logger,
    );
    try {
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'al.in', text: readInput('al-fcc-medium.in') },
        pseudopotentials: alPseudo,
      });
      await service.submit(job.id);
      await until('the job to run', () => service.get(job.id)!.state === 'running', 60_000);
      const connection = backends.connections.get('testcluster')!;
      assert.ok(relay.cut() >= 2, 'there was a live link to cut');
      const done = await service.waitFor(job.id);
      assert.equal(done.state, 'completed', done.error);
      assert.ok(
        connection.stats.drops >= 1 && connection.stats.connects >= 2,
        `drops ${connection.stats.drops}, connects ${connection.stats.connects}`,
      );
      assert.equal(c2.ssh(`squeue -h --states=all -n ${job.id} -o %i`).trim().split('\n').length, 1);
      assert.ok(readPwOutcome(fs.readFileSync(path.join(service.jobDir(job.id), 'al.out'), 'utf8')).jobDone);
      // the drop is a warning, the new login says it is a reconnection; no key material in any line
      assert.ok(
        lines.some((l) => /^\[warn\] \[ssh testcluster\] the connection to \S+ dropped; reconnecting$/.test(l)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((l) => /^\[info\] \[ssh testcluster\] connected again \(connection \d+\): logged in as /.test(l)),
        lines.join('\n'),
      );
      assert.ok(!lines.some((l) => /PRIVATE KEY/.test(l)));
    } finally {
      await close();
      await relay.stop();
      c2.cleanup();
    }
  });

  it('fails the jobs of a cluster whose host key changed during the run, with both fingerprints and the ssh-keygen -R advice, instead of polling forever; a resumed service too', async () => {
    const relay = await LinkRelay.start();
    const c2 = makeTestCluster([relay.port]);
    const profile = c2.profile({ sshHost: `relay${relay.port}` });
    const withTimeout = <T>(p: Promise<T>, what: string) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still waiting after 60 s`)), 60_000)),
      ]);
    // the key the cluster offers from now on is not the one known_hosts records (a reinstalled login node, or someone in between)
    const recorded = crypto.generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const blob = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), recorded]);
    const expectRefusal = (j: JobRecord) => {
      assert.equal(j.state, 'failed');
      assert.match(
        j.error!,
        /HOST KEY MISMATCH for \[127\.0\.0\.1\]:\d+ \(testcluster\): the server offered ssh-ed25519 SHA256:\S+, but .*known_hosts line 1 records SHA256:\S+/,
      );
      assert.match(j.error!, /ssh-keygen -R '\[127\.0\.0\.1\]:\d+'/);
      assert.match(j.error!, new RegExp(`may still be running there.*scancel ${j.schedulerId}`));
    };
    const input = { name: 'al.in', text: readInput('al-fcc-medium.in') };
    const live = await openClusterService(c2, profile, path.join(c2.dir, 'live'));
    const laterStore = new MemoryJobStore();
    try {
      // a job whose process stops following it before the key changes (dreams resume opens it after)
      const earlier = await openClusterService(c2, profile, path.join(c2.dir, 'later'), laterStore);
      const other = await earlier.service.create({ backend: 'testcluster', input, pseudopotentials: alPseudo });
      await earlier.service.submit(other.id);
      await earlier.close();
      // a job followed while the key changes
      const job = await live.service.create({ backend: 'testcluster', input, pseudopotentials: alPseudo });
      await live.service.submit(job.id);
      await until('the job to be seen by the scheduler', () => ['queued', 'running'].includes(live.service.get(job.id)!.state), 60_000);
      fs.writeFileSync(c2.knownHosts, `[127.0.0.1]:${relay.port} ssh-ed25519 ${blob.toString('base64')}\n`);
      assert.ok(relay.cut() >= 1, 'there was a live link to cut');
      expectRefusal(await withTimeout(live.service.waitFor(job.id), 'the job followed while the host key changed'));
      const resumed = await openClusterService(c2, profile, path.join(c2.dir, 'later'), laterStore);
      try {
        expectRefusal(await withTimeout(resumed.service.waitFor(other.id), 'the job resumed after the host key changed'));
      } finally {
        await resumed.close();
      }
    } finally {
      await live.close();
      await relay.stop();
      c2.cleanup();
    }
  });
});
