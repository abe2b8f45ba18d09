// Hostile names: a job whose input file and remote work root hold spaces, quotes, $(),
// backticks, ;, a leading dash and a newline runs normally, and nothing in the names is
// executed: the canary files a successful injection would create never appear.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JobBackends } from '../../src/core/hpc/backends';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { loadSshConfig } from '../../src/core/hpc/ssh/sshConfig';
import { alPseudo, makeTestCluster, readInput, type TestCluster } from './hpc/clusterFixture';

describe('remote runner: hostile file names', () => {
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => {
    cluster.ssh(`rm -f /tmp/dreams-canary-${cluster.runId}-*`);
    cluster.cleanup();
  });

  it('runs the job and executes nothing hidden in the names', async () => {
    const canary = (tag: string) => `dreams-canary-${cluster.runId}-${tag}`;
    const inputName = `-rf 'q' "d" $(touch ${canary('a')}) \`touch ${canary('b')}\`; touch ${canary('c')} & \nz.in`;
    const workRoot = `~/dreams-test/${cluster.runId}/w $(touch /tmp/${canary('d')}) 'x' "y" \`touch /tmp/${canary('e')}\`; touch /tmp/${canary('f')}\n-n`;
    const backends = new JobBackends({
      local: { pwCommand: 'pw.x', watchIntervalMs: 100 },
      profiles: [cluster.profile({ workRoot })],
      sshConfig: loadSshConfig(cluster.sshConfigFile),
      pollSeconds: 1,
    });
    const service = await JobService.open({ store: new MemoryJobStore(), runDir: path.join(cluster.dir, 'run'), backend: backends.create });
    try {
      const input = { name: inputName, text: readInput('al-fcc-scf.in') };
      const remote = await service.create({ backend: 'testcluster', input, pseudopotentials: alPseudo });
      const local = await service.create({ backend: 'local', input, pseudopotentials: alPseudo });
      await service.submit(remote.id);
      await service.submit(local.id);
      const [r, l] = await Promise.all([service.waitFor(remote.id), service.waitFor(local.id)]);
      assert.equal(r.state, 'completed', r.error);
      assert.equal(l.state, 'completed', l.error);
      assert.ok(r.workDir!.includes(`$(touch /tmp/${canary('d')})`), `the remote directory keeps its literal name: ${r.workDir}`);
      // pw.x read the input under its literal name, on the cluster and here
      const done = cluster.ssh(`find ~/dreams-test/${cluster.runId} -name '*z.out' -exec grep -c 'JOB DONE' {} ';'`).trim();
      assert.equal(done, '1', 'one finished pw.x output on the cluster');
      const named = cluster.ssh(`find ~/dreams-test/${cluster.runId} -name '*z.out' | grep -c -F 'touch ${canary('c')} & '`).trim();
      assert.equal(named, '1', 'its name is the literal input name');
      assert.ok(
        fs.existsSync(path.join(service.jobDir(r.id), inputName.replace(/\.in$/, '.out'))),
        'the output came back under its literal name',
      );
      // no canary anywhere the shells could have run: the login home, the job directories, /tmp
      const found = cluster.ssh(`find ~ /tmp -maxdepth 12 -type f -name 'dreams-canary-${cluster.runId}-?' 2>/dev/null; true`).trim();
      assert.equal(found, '', `injected commands ran on the cluster:\n${found}`);
      const localFound = fs.readdirSync('/tmp').filter((f) => /^dreams-canary-\w+-.$/.test(f) && f.includes(cluster.runId));
      assert.deepEqual(localFound, []);
      assert.ok(!fs.readdirSync(service.jobDir(l.id)).some((f) => /^dreams-canary-\w+-.$/.test(f)));
    } finally {
      await service.dispose();
      await backends.close();
    }
  });
});
