// A cluster profile's limits bind every job sent to that cluster: run_pw sizes its job within
// them (as the run's session hands the profiles to the tools), an override beyond them is
// refused with the limit, and the remote runner refuses a job sized beyond them whoever sized it.
// The test cluster's `short` partition allows 5 minutes; a job asking more waits there forever.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { registryContext } from '../../src/core/agents/worker';
import type { ProposedCall } from '../../src/core/guard/types';
import { JobBackends } from '../../src/core/hpc/backends';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { loadSshConfig } from '../../src/core/hpc/ssh/sshConfig';
import type { ClusterProfile, JobRecord } from '../../src/core/hpc/types';
import { RunController } from '../../src/core/run/controller';
import { BATCH_SCRIPT_NAME } from '../../src/core/hpc/remoteRunner';
import { leanSettings } from '../fixtures/agents/scriptedLattice';
import { alPseudo, makeTestCluster, readInput, type TestCluster } from './hpc/clusterFixture';

/** Limits below what the resource model suggests for a one-atom SCF (10 min, 400 MB), so both bind. */
const tight = (cluster: TestCluster): ClusterProfile =>
  cluster.profile({ partition: 'short', limits: { maxNtasks: 2, maxNodes: 1, coresPerNode: 2, maxMemoryMb: 300, maxWalltimeMinutes: 5 } });

describe('cluster profile limits', function () {
  this.timeout(180_000);
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => cluster.cleanup());

  it('run_pw sizes a cluster job within the limits of the profile the run was given, and refuses an override beyond them', async () => {
    const profile = tight(cluster);
    const controller = await RunController.start(
      { runsDir: path.join(cluster.dir, 'runs'), settings: leanSettings(true, { backend: profile.name, approval: 'auto-approve' }) },
      { clusters: [profile], sshConfig: loadSshConfig(cluster.sshConfigFile), pollSeconds: 1 },
    );
    try {
      const { runtime, jobs } = controller.session;
      const call = async (tool: string, args: Record<string, unknown>) => {
        const proposed: ProposedCall = { tool, args, refs: {}, reasons: {}, context: 'cluster limits test', agent: { role: 'dft' } };
        return runtime.registry.callProposed(runtime.registry.get(tool)!, proposed, registryContext(runtime));
      };
      const made = async (tool: string, args: Record<string, unknown>) => {
        const out = await call(tool, args);
        assert.equal(out.status, 'ok', JSON.stringify(out));
        return (out as { outputs: string[] }).outputs[0]!;
      };
      const bulk = await made('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 });
      const table = await made('select_pseudopotentials', { elements: ['Al'], functional: 'PZ' });
      const input = await made('make_pw_input', {
        structure: bulk,
        pseudopotentials: table,
        purpose: 'production',
        calculation: 'scf',
        ecutwfcRy: 15,
        ecutrhoRy: 60,
        kSpacingPerAngstrom: 0.3,
        occupations: 'smearing',
        smearing: 'mv',
        degaussRy: 0.02,
        nspin: 1,
      });

      const ran = await call('run_pw', { input, backend: profile.name });
      assert.equal(ran.status, 'ok', JSON.stringify(ran));
      const job = jobs.list().find((j) => j.backend === profile.name)!;
      assert.equal(job.state, 'completed', job.error);
      const r = job.resources!;
      assert.deepEqual([r.ntasks, r.nodes, r.walltimeMinutes, r.memoryMb, r.partition], [1, 1, 5, 300, 'short'], r.reason);
      assert.match(r.reason, /capped at the profile limits/);
      const script = fs.readFileSync(path.join(jobs.jobDir(job.id), BATCH_SCRIPT_NAME), 'utf8');
      assert.match(script, /^#SBATCH --time=00:05:00$/m);
      assert.match(script, /^#SBATCH --mem=300M$/m);

      const over = await call('run_pw', {
        input,
        backend: profile.name,
        resources: { ntasks: 1, nodes: 1, walltimeMinutes: 5, memoryMb: 1800, reason: 'the density needs room' },
      });
      assert.equal(over.status, 'failed', JSON.stringify(over));
      assert.match((over as { error: string }).error, /exceeds the limits of cluster profile "testcluster": memory 1800 MB > 300 MB/);
      assert.equal(jobs.list().filter((j) => j.backend === profile.name).length, 1, 'nothing was submitted for the refused override');
    } finally {
      await controller.close();
    }
  });

  it('the remote runner refuses a job sized beyond its profile before anything reaches the scheduler', async () => {
    const profile = tight(cluster);
    const backends = new JobBackends({
      local: { pwCommand: 'pw.x' },
      profiles: [profile],
      sshConfig: loadSshConfig(cluster.sshConfigFile),
      pollSeconds: 1,
    });
    const service = await JobService.open({
      store: new MemoryJobStore(),
      runDir: path.join(cluster.dir, 'run'),
      backend: backends.create,
      progressIntervalMs: 0,
    });
    try {
      const job: JobRecord = await service.create({
        backend: profile.name,
        input: { name: 'al.in', text: readInput('al-fcc-scf.in') },
        pseudopotentials: alPseudo,
        resources: { ntasks: 4, nodes: 1, walltimeMinutes: 30, memoryMb: 2400, reason: 'sized elsewhere' },
      });
      await assert.rejects(
        service.submit(job.id),
        /asks for more than cluster profile "testcluster" allows \(ntasks 4 > 2, walltime 30 min > 5 min, memory 2400 MB > 300 MB\); nothing was submitted/,
      );
      assert.equal(backends.runners.get(profile.name)!.stats.submitCommands, 0);
      assert.equal(cluster.ssh(`squeue -h --states=all -n ${job.id} -o %i`).trim(), '');
    } finally {
      await service.dispose();
      await backends.close();
    }
  });
});
