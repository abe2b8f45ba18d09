// Post-processing on the test cluster (sshd on 127.0.0.1:2222 → SLURM): dos.x and projwfc.x as
// jobs that continue an fcc Al SCF, each on a copy of the SCF's saved files made by its batch
// script, in a work root whose name holds a space and a quote; their files come back.
// Cost: three short jobs, about 10 s wall with 1 s polls.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JobBackends } from '../../src/core/hpc/backends';
import { JobService } from '../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../src/core/hpc/jobStore';
import { loadSshConfig } from '../../src/core/hpc/ssh/sshConfig';
import { parseDosFile, renderDosxInput } from '../../src/core/dft/qe/postprocessing/dosx';
import { parsePdosFiles, renderProjwfcxInput } from '../../src/core/dft/qe/postprocessing/projwfcx';
import { alPseudo, makeTestCluster, readInput, type TestCluster } from './hpc/clusterFixture';

describe('post-processing jobs on the cluster', function () {
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => cluster.cleanup());

  it("runs dos.x and projwfc.x on copies of an SCF's files under a quoted work root and brings back their files", async () => {
    const profile = cluster.profile({ workRoot: `~/dreams-test/${cluster.runId}/it's here` });
    const backends = new JobBackends({
      local: { pwCommand: 'pw.x', watchIntervalMs: 100 },
      profiles: [profile],
      sshConfig: loadSshConfig(cluster.sshConfigFile),
      pollSeconds: 1,
      connection: { backoff: { initialMs: 200, maxMs: 2000 } },
    });
    const service = await JobService.open({
      store: new MemoryJobStore(),
      runDir: path.join(cluster.dir, 'run'),
      backend: backends.create,
      progressIntervalMs: 0,
    });
    const run = async (spec: Parameters<JobService['create']>[0]) => {
      const job = await service.create(spec);
      await service.submit(job.id);
      const done = await service.waitFor(job.id);
      assert.equal(done.state, 'completed', done.error);
      return done;
    };
    try {
      const scf = await run({
        backend: 'testcluster',
        input: { name: 'pw.in', text: readInput('al-fcc-scf.in') },
        pseudopotentials: alPseudo,
      });
      assert.match(scf.workDir!, /it's here/);
      const [dos, pdos] = await Promise.all([
        run({
          backend: 'testcluster',
          program: 'dos.x',
          input: { name: 'dos.in', text: renderDosxInput({ prefix: 'al', outdir: './tmp', fildos: 'al.dos', deltaEEv: 0.1 }) },
          parent: { job: scf.id },
          collect: ['al.dos'],
        }),
        run({
          backend: 'testcluster',
          program: 'projwfc.x',
          input: { name: 'projwfc.in', text: renderProjwfcxInput({ prefix: 'al', outdir: './tmp', filpdos: 'al', deltaEEv: 0.1 }) },
          parent: { job: scf.id },
          collect: ['al.pdos_*'],
        }),
      ]);
      assert.match(dos.resources!.reason, /sized like job/);
      assert.ok(dos.outputs.some((o) => o.name === 'al.dos'));
      const d = parseDosFile(fs.readFileSync(path.join(service.jobDir(dos.id), 'al.dos'), 'utf8'));
      assert.ok(d.fermiEnergyEv! > 5 && d.fermiEnergyEv! < 10, `E_F ${d.fermiEnergyEv} eV`);
      const names = pdos.outputs.map((o) => o.name).filter((n) => n.startsWith('al.pdos'));
      assert.deepEqual(names, ['al.pdos_atm#1(Al)_wfc#1(s)', 'al.pdos_atm#1(Al)_wfc#2(p)', 'al.pdos_tot']);
      parsePdosFiles(Object.fromEntries(names.map((n) => [n, fs.readFileSync(path.join(service.jobDir(pdos.id), n), 'utf8')])));
      // the SCF's own save directory on the cluster is untouched: the copies are in the children's directories
      const listing = cluster.ssh(`ls "$HOME/dreams-test/${cluster.runId}/it's here/${dos.id}/tmp/al.save"`);
      assert.match(listing, /charge-density\.dat/);
    } finally {
      await service.dispose();
      await backends.close();
    }
  });
});
