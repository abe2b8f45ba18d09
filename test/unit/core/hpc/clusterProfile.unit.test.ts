import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkClusterProfile, loadClusterProfiles } from '../../../../src/core/hpc/clusterProfile';

const good = {
  name: 'hpc1',
  sshHost: 'hpc1',
  scheduler: 'slurm',
  workRoot: '~/dreams',
  pwCommand: 'srun pw.x',
  prelude: ['module load qe'],
  limits: { maxNtasks: 64 },
};

describe('cluster profiles', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-profiles-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads valid profiles from { "clusters": [...] }', () => {
    const f = path.join(dir, 'clusters.json');
    fs.writeFileSync(f, JSON.stringify({ clusters: [good, { ...good, name: 'hpc2' }] }));
    assert.deepEqual(
      loadClusterProfiles(f).map((p) => p.name),
      ['hpc1', 'hpc2'],
    );
  });

  it('reports every problem with its place and what is allowed', () => {
    assert.throws(
      () => checkClusterProfile({ ...good, workroot: 'x', workRoot: undefined, scheduler: 'sge', partition: 'a b' }),
      (e: Error) => {
        assert.match(e.message, /unknown setting "workroot"/);
        assert.match(e.message, /missing "workRoot"/);
        assert.match(e.message, /\.scheduler: must be one of slurm, pbs, lsf/);
        assert.match(e.message, /\.partition: "a b" has characters that are not allowed/);
        return true;
      },
    );
    assert.throws(() => checkClusterProfile({ ...good, prelude: ['ok', 'two\nlines'] }), /prelude\.1/);
  });

  it('refuses a file that is not JSON, has no clusters list, or repeats a name', () => {
    const f = path.join(dir, 'c.json');
    fs.writeFileSync(f, '{ nope');
    assert.throws(() => loadClusterProfiles(f), /could not read cluster profiles from .*c\.json/);
    fs.writeFileSync(f, '{}');
    assert.throws(() => loadClusterProfiles(f), /no "clusters" list/);
    fs.writeFileSync(f, JSON.stringify([good, good]));
    assert.throws(() => loadClusterProfiles(f), /two clusters are named "hpc1"/);
  });
});
