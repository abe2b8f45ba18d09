import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { continuation, copyParentScratch, copyParentScratchCommand, matchesCollected } from '../../../../src/core/hpc/continuation';
import { programArgv, programCommandLine } from '../../../../src/core/hpc/pwCommand';
import { SlurmAdapter } from '../../../../src/core/hpc/schedulers/slurm';
import type { ClusterProfile, JobRecord } from '../../../../src/core/hpc/types';

const scf =
  "&CONTROL\n  calculation='scf', prefix='si', outdir='./out'\n/\n&SYSTEM\n  ibrav=2, celldm(1)=10.2, nat=2, ntyp=1, ecutwfc=12\n/\n&ELECTRONS\n/\n";
const bandsx = (prefix = 'si', outdir = './out') => `&BANDS\n  prefix='${prefix}', outdir='${outdir}', filband='b.dat'\n/\n`;

function parentJob(dir: string, over: Partial<JobRecord> = {}): JobRecord {
  fs.mkdirSync(path.join(dir, 'p1'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'p1', 'pw.in'), scf);
  return {
    id: 'p1',
    backend: 'local',
    state: 'completed',
    program: 'pw.x',
    input: 'pw.in',
    files: [],
    pseudopotentials: [],
    outputs: [],
    createdAt: '',
    updatedAt: '',
    workDir: path.join(dir, 'p1'),
    ...over,
  };
}

describe('a job continuing an earlier one', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-cont-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const jobDir = (id: string) => path.join(dir, id);

  it("links to the parent's <outdir>/<prefix>.save and copies it into its own outdir", () => {
    const link = continuation(parentJob(dir), 'bands.x', bandsx('si', 'scratch/'), 'local', jobDir);
    assert.deepEqual(link, { job: 'p1', save: 'out/si.save', into: 'scratch/si.save', workDir: path.join(dir, 'p1') });
    fs.mkdirSync(path.join(dir, 'p1', 'out', 'si.save'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'p1', 'out', 'si.save', 'charge-density.dat'), 'rho');
    copyParentScratch(link, jobDir('p1'), jobDir('c1'));
    assert.equal(fs.readFileSync(path.join(dir, 'c1', 'scratch', 'si.save', 'charge-density.dat'), 'utf8'), 'rho');
    // the copy is the child's: changing it leaves the parent's file as it was
    fs.writeFileSync(path.join(dir, 'c1', 'scratch', 'si.save', 'charge-density.dat'), 'changed');
    assert.equal(fs.readFileSync(path.join(dir, 'p1', 'out', 'si.save', 'charge-density.dat'), 'utf8'), 'rho');
  });

  it('refuses a parent that has not completed, one on another backend, and another prefix, each saying what to do', () => {
    assert.throws(
      () => continuation(parentJob(dir, { state: 'running' }), 'bands.x', bandsx(), 'local', jobDir),
      /is running, not completed/,
    );
    assert.throws(
      () => continuation(parentJob(dir), 'bands.x', bandsx(), 'testcluster', jobDir),
      /ran on "local".*run the bands.x job on "local" too/,
    );
    assert.throws(
      () => continuation(parentJob(dir), 'dos.x', bandsx('al').replace('BANDS', 'DOS'), 'local', jobDir),
      /has prefix 'al' but job p1 wrote 'si'.*give it prefix 'si'/,
    );
  });

  it('refuses an outdir outside the job directory, or one left to the program', () => {
    assert.throws(
      () => continuation(parentJob(dir), 'bands.x', bandsx('si', '../p1/out'), 'local', jobDir),
      /sets outdir = '\.\.\/p1\/out'; give it a relative outdir/,
    );
    assert.throws(
      () => continuation(parentJob(dir), 'bands.x', "&BANDS\n prefix='si'\n/\n", 'local', jobDir),
      /leaves outdir to the program/,
    );
  });

  it("says the parent's files are gone when its save directory was removed", () => {
    const link = continuation(parentJob(dir), 'bands.x', bandsx(), 'local', jobDir);
    assert.throws(() => copyParentScratch(link, jobDir('p1'), jobDir('c1')), /saved files .* are gone/);
  });

  it('writes the cluster copy with every path quoted, and the shell runs it on a directory with a quote and a space', () => {
    const odd = path.join(dir, "it's a dir");
    fs.mkdirSync(path.join(odd, 'out', 'si.save'), { recursive: true });
    fs.writeFileSync(path.join(odd, 'out', 'si.save', 'data-file-schema.xml'), '<x/>');
    const lines = copyParentScratchCommand({ job: 'p1', save: 'out/si.save', into: 'o u t/si.save', workDir: odd });
    fs.mkdirSync(path.join(dir, 'child'));
    execFileSync('bash', ['-c', lines.join('\n')], { cwd: path.join(dir, 'child') });
    assert.equal(fs.readFileSync(path.join(dir, 'child', 'o u t', 'si.save', 'data-file-schema.xml'), 'utf8'), '<x/>');
    assert.throws(
      () =>
        execFileSync(
          'bash',
          ['-c', copyParentScratchCommand({ job: 'p1', save: 'gone/si.save', into: 'out/si.save', workDir: odd }).join('\n')],
          { cwd: path.join(dir, 'child'), stdio: 'pipe' },
        ),
      /run that job again/,
    );
  });

  it("matches collected outputs by pattern, projwfc.x's file names included", () => {
    assert.ok(matchesCollected('al.pdos_atm#1(Al)_wfc#2(p)', ['al.pdos_*']));
    assert.ok(matchesCollected('al.pdos_tot', ['al.pdos_*']));
    assert.ok(!matchesCollected('alxpdos_tot', ['al.pdos_*']));
    assert.ok(matchesCollected('b.dat', ['b.dat']));
  });
});

describe('the command of a post-processing program', () => {
  it('replaces pw.x by the program, keeping the launcher and the directory', () => {
    assert.deepEqual(programArgv(['mpirun', '-np', '2', '/opt/qe/bin/pw.x'], 'dos.x'), ['mpirun', '-np', '2', '/opt/qe/bin/dos.x']);
    assert.deepEqual(programArgv(['pw.x'], 'pw.x'), ['pw.x']);
    assert.equal(programCommandLine('srun --mpi=pmix /opt/qe/bin/pw.x', 'projwfc.x'), 'srun --mpi=pmix /opt/qe/bin/projwfc.x');
    assert.equal(programCommandLine('srun pw.x -nk 2', 'bands.x'), 'srun bands.x -nk 2');
  });

  it('refuses a command that does not name pw.x, since the other programs cannot be found from it', () => {
    assert.throws(() => programArgv(['run-qe'], 'bands.x'), /does not name pw.x/);
    assert.throws(() => programCommandLine('srun mypw.exe', 'bands.x'), /does not name pw.x/);
  });

  it('puts the parent copy before the program in the SLURM batch script', () => {
    const profile: ClusterProfile = { name: 'c', sshHost: 'c', scheduler: 'slurm', workRoot: '~/w', pwCommand: 'srun pw.x' };
    const job: JobRecord = {
      id: 'j2',
      backend: 'c',
      state: 'validated',
      program: 'projwfc.x',
      input: 'projwfc.in',
      files: [],
      pseudopotentials: [],
      outputs: [],
      createdAt: '',
      updatedAt: '',
      resources: { ntasks: 1, nodes: 1, walltimeMinutes: 5, reason: 't' },
      parent: { job: 'j1', save: 'out/al.save', into: 'out/al.save', workDir: '/home/u/w/j1' },
    };
    const script = new SlurmAdapter().batchScript(job, profile);
    const copy = script.indexOf("cp -R -- '/home/u/w/j1/out/al.save' 'out/al.save'");
    const run = script.indexOf("srun projwfc.x -in 'projwfc.in' > 'projwfc.out'");
    assert.ok(copy > 0 && run > copy, script);
  });
});
