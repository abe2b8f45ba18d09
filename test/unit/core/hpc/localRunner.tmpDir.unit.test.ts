// Each local job runs with a temporary directory of its own. pw.x is an MPI program: even alone it
// makes Open MPI's session directory under TMPDIR, and two started at the same instant with one
// TMPDIR raced to create it (pw.x exited 1 with an empty output, "orte_init failed ... File exists").
// The program here is a stand-in that records the TMPDIR it was given and whether it existed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobService } from '../../../../src/core/hpc/jobService';
import { MemoryJobStore } from '../../../../src/core/hpc/jobStore';
import { LocalRunner } from '../../../../src/core/hpc/localRunner';

const input = { name: 'al.in', text: fs.readFileSync(path.resolve(__dirname, '../../../fixtures/hpc/al-fcc-scf.in'), 'utf8') };

describe('local runner: a temporary directory per job', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-jobtmp-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives jobs that run side by side a TMPDIR each, which exists while the job runs and is removed when it ends', async () => {
    const program = path.join(dir, 'pw-stand-in');
    // records its TMPDIR, whether it is a directory, then stays a moment so both jobs overlap
    fs.writeFileSync(
      program,
      `#!/bin/sh\n[ -d "$TMPDIR" ] && echo "$TMPDIR dir" > tmpdir.txt || echo "$TMPDIR missing" > tmpdir.txt\nsleep 0.5\n`,
      {
        mode: 0o755,
      },
    );
    const service = await JobService.open({
      store: new MemoryJobStore(),
      runDir: path.join(dir, 'run'),
      backend: (_n, u) => new LocalRunner(u, { pwCommand: program, maxConcurrent: 2, env: { ...process.env, TMPDIR: dir } }),
    });
    try {
      const jobs = [await service.create({ backend: 'local', input }), await service.create({ backend: 'local', input })];
      await Promise.all(jobs.map((j) => service.submit(j.id)));
      await Promise.all(jobs.map((j) => service.waitFor(j.id)));
      const seen = jobs.map((j) =>
        fs
          .readFileSync(path.join(service.jobDir(j.id), 'tmpdir.txt'), 'utf8')
          .trim()
          .split(' '),
      );
      for (const [tmp, state] of seen) {
        assert.equal(state, 'dir', `${tmp} did not exist while the job ran`);
        assert.notEqual(tmp, dir, 'the job ran with the shared TMPDIR');
        assert.equal(path.dirname(tmp!), dir, 'made under the TMPDIR the runner was given');
        assert.equal(fs.existsSync(tmp!), false, `${tmp} was left behind`);
      }
      assert.notEqual(seen[0]![0], seen[1]![0], 'two jobs shared one TMPDIR');
    } finally {
      await service.dispose();
    }
  });
});
