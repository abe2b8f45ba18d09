// A work root with "%" or "\" on the loopback SLURM cluster: SLURM expands "%" patterns in the
// job's output path (under the work root) and reads "\" there as an escape, so such a job failed
// to launch ("JobLaunchFailure", unexplained) when its profile came from where nothing checked it
// (VS Code's dreams.clusters setting). The remote runner now refuses it at submit with the reason,
// for any profile, and checks the length of the work root as the cluster resolves it (~ is the
// login home there), which a profile file can only check as written. `dreams run --cluster`
// refuses such a profile before anything is made or submitted, with the reason, exit 2; and a
// work root too long for pw.x's 255-character directory names likewise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { JobBackends } from '../../src/core/hpc/backends';
import { checkClusterProfile } from '../../src/core/hpc/clusterProfile';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { loadSshConfig } from '../../src/core/hpc/ssh/sshConfig';
import { writeLeanObjectiveFile } from '../fixtures/agents/scriptedLattice';
import { alPseudo, makeTestCluster, pseudoDir, readInput, type TestCluster } from './hpc/clusterFixture';

async function run(argv: string[]): Promise<{ code: number; err: string }> {
  const orig = console.error;
  let err = '';
  console.error = (...a: unknown[]) => {
    err += a.join(' ') + '\n';
  };
  try {
    return { code: await runCommand(argv), err };
  } finally {
    console.error = orig;
  }
}

describe('cluster work roots SLURM or pw.x cannot use', function () {
  this.timeout(180_000);
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => cluster.cleanup());

  for (const [what, name, reason] of [
    ['"%"', 'w%j', /contains "%": SLURM expands "%" patterns/],
    ['"\\"', 'w\\x', /contains "\\": SLURM reads "\\" in the job's output path as an escape/],
    // short enough as written (the profile check passes it), too long once ~ is the login home
    [
      'a ~ that makes it too long for pw.x',
      'x'.repeat(196),
      /bytes long; a job's pseudopotential directory under it .* over the 255 characters pw\.x reads/,
    ],
  ] as const) {
    it(`a job under a work root with ${what} from a profile nothing checked is refused at submit with the reason, nothing made on the cluster`, async () => {
      const profile = cluster.profile({ workRoot: `~/dreams-test/${cluster.runId}/${name}` });
      if (name.startsWith('x'))
        assert.doesNotThrow(() => checkClusterProfile(profile), 'as written, the work root passes the profile check');
      const backends = new JobBackends({
        local: { pwCommand: 'pw.x' },
        profiles: [profile],
        sshConfig: loadSshConfig(cluster.sshConfigFile),
        pollSeconds: 1,
      });
      const service = await JobService.open({
        store: new MemoryJobStore(),
        runDir: path.join(cluster.dir, `run-${name.length}`),
        backend: backends.create,
      });
      try {
        const job = await service.create({
          backend: 'testcluster',
          input: { name: 'al.in', text: readInput('al-fcc-scf.in') },
          pseudopotentials: alPseudo,
        });
        await assert.rejects(service.submit(job.id), (e: Error) => {
          assert.match(e.message, /cannot run under the work root of cluster profile "testcluster"/);
          assert.match(e.message, reason);
          assert.match(e.message, /Nothing was submitted\./);
          return true;
        });
        assert.equal(service.get(job.id)?.schedulerId, undefined, 'no scheduler id');
        assert.equal(cluster.ssh(`ls ~/dreams-test/${cluster.runId} 2>/dev/null | wc -l`).trim(), '0', 'nothing made on the cluster');
      } finally {
        await service.dispose();
        await backends.close();
      }
    });
  }

  for (const [what, workRoot, reason] of [
    ['"%"', 'w%j', /workRoot "~\/dreams-test\/t\w+\/w%j" contains "%": SLURM expands "%" patterns \(%j, %u, …\) in the job's output path/],
    ['"\\"', 'w\\x', /contains "\\": SLURM reads "\\" in the job's output path as an escape, so the job would fail to launch/],
    [
      'a name too long for pw.x',
      'x'.repeat(230),
      /is \d+ bytes long; a job's pseudopotential directory under it .* over the 255 characters pw\.x reads/,
    ],
  ] as const) {
    it(`dreams run --cluster refuses a work root with ${what} before making or submitting anything, exit 2`, async () => {
      const clusters = path.join(cluster.dir, 'clusters.json');
      fs.writeFileSync(
        clusters,
        JSON.stringify({ clusters: [cluster.profile({ workRoot: `~/dreams-test/${cluster.runId}/${workRoot}` })] }),
      );
      const runs = path.join(cluster.dir, 'runs');
      const r = await run([
        writeLeanObjectiveFile(cluster.dir),
        '--offline',
        '--cluster',
        'testcluster',
        '--clusters',
        clusters,
        '--ssh-config',
        cluster.sshConfigFile,
        '--runs-dir',
        runs,
        '--pseudo-dir',
        pseudoDir,
        '--no-bundle',
      ]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`${clusters.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: clusters\\[0\\]`));
      assert.match(r.err, reason);
      assert.equal(fs.existsSync(runs), false, 'no run directory');
      assert.equal(cluster.ssh(`ls ~/dreams-test/${cluster.runId} 2>/dev/null | wc -l`).trim(), '0', 'nothing made on the cluster');
    });
  }
});
