// A work root with "%" or "\" on the loopback SLURM cluster: SLURM expands "%" patterns in the
// job's output path (under the work root) and reads "\" there as an escape, so such a job fails
// to launch ("JobLaunchFailure") — shown here with a job submitted past the profile check. So
// `dreams run --cluster` refuses such a profile before anything is made or submitted, with the
// reason, exit 2; and a work root too long for pw.x's 255-character directory names likewise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { JobBackends } from '../../src/core/hpc/backends';
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

  it('a job under a work root with "%" or "\\" fails to launch on SLURM (why the profile is refused)', async () => {
    for (const name of ['w%j', 'w\\x']) {
      const backends = new JobBackends({
        local: { pwCommand: 'pw.x' },
        profiles: [cluster.profile({ workRoot: `~/dreams-test/${cluster.runId}/${name}` })],
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
        await service.submit(job.id);
        const done = await service.waitFor(job.id);
        assert.equal(done.state, 'failed', `${name}: ${done.state}`);
      } finally {
        await service.dispose();
        await backends.close();
      }
    }
  });

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
