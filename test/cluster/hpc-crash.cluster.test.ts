// pw.x's CRASH file on the cluster: when a job's output lacks pw.x's error (cut short or lost
// as the job stopped), the remote runner reads the error from the CRASH file pw.x wrote beside
// it in the job's directory, as the local runner does, instead of calling the job interrupted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readPwOutcome } from '../../src/core/dft/qe/jobFacts';
import { outputNameFor } from '../../src/core/hpc/localRunner';
import { shellQuote } from '../../src/core/hpc/shellQuote';
import { alPseudo, makeTestCluster, oneTask, openClusterService, readInput, type TestCluster } from './hpc/clusterFixture';

describe("remote runner: pw.x's CRASH file", () => {
  let cluster: TestCluster;
  beforeEach(() => (cluster = makeTestCluster()));
  afterEach(() => cluster.cleanup());

  it("fails a cluster job whose output was cut before pw.x's error with the error from the CRASH file beside it", async () => {
    // A work root with a space and shell characters: the CRASH path must reach the cluster as it is.
    const workRoot = `~/dreams-test/${cluster.runId}/crash $(x) 'q'`;
    // The cluster keeps only pw.x's first 12 lines of output (a stand-in for an output lost or
    // cut as the job stopped); pw.x still writes its error to CRASH in the job's directory.
    const prelude = ['set -o pipefail', 'pw.x() { command pw.x "$@" | sed -n 1,12p; }'];
    const { service, close } = await openClusterService(cluster, cluster.profile({ workRoot, prelude }));
    try {
      // ecutwfc misspelt: pw.x stops in read_namelists (resources are given, as sizing needs ecutwfc)
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'bad.in', text: readInput('al-fcc-bad.in') },
        pseudopotentials: alPseudo,
        resources: oneTask,
      });
      await service.submit(job.id);
      const done = await service.waitFor(job.id);

      // the set-up holds: pw.x's error is in CRASH on the cluster and not in the output
      const remoteCrash = cluster.ssh(`cat -- ${shellQuote(`${done.workDir!}/CRASH`)}`);
      assert.match(remoteCrash, /from\s+read_namelists\s+: error #\s+1/);
      const output = fs.readFileSync(path.join(service.jobDir(job.id), outputNameFor('bad.in')), 'utf8');
      assert.match(output, /Program PWSCF/);
      assert.doesNotMatch(output, /read_namelists|%%%%/);
      assert.equal(readPwOutcome(output).error, undefined);

      assert.equal(done.state, 'failed');
      assert.match(done.error!, /^Error in routine read_namelists \(1\):\nbad line in namelist &system: "\s*ecutwfcc = 15\.0"/);
      // the CRASH file is beside the output locally, where the advisor and `dreams parse` read it
      assert.equal(fs.readFileSync(path.join(service.jobDir(job.id), 'CRASH'), 'utf8'), remoteCrash);
    } finally {
      await close();
    }
  });

  it('fetches no CRASH file for a job that succeeded, and an absent CRASH file is no error', async () => {
    const { service, close } = await openClusterService(cluster);
    try {
      const job = await service.create({
        backend: 'testcluster',
        input: { name: 'al.in', text: readInput('al-fcc-scf.in') },
        pseudopotentials: alPseudo,
      });
      await service.submit(job.id);
      const done = await service.waitFor(job.id);
      assert.equal(done.state, 'completed', done.error);
      assert.equal(cluster.ssh(`test -e ${shellQuote(`${done.workDir!}/CRASH`)} && echo yes || echo no`).trim(), 'no');
      assert.ok(!fs.existsSync(path.join(service.jobDir(job.id), 'CRASH')));
    } finally {
      await close();
    }
  });
});
