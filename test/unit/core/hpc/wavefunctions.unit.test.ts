import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SlurmAdapter } from '../../../../src/core/hpc/schedulers/slurm';
import type { ClusterProfile, JobRecord, WavefunctionPlace } from '../../../../src/core/hpc/types';
import { removeWavefunctions, removeWavefunctionsCommand, wavefunctionPlace } from '../../../../src/core/hpc/wavefunctions';

function jobDir(files: Record<string, number>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-wfc-'));
  for (const [name, size] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), Buffer.alloc(size));
  }
  return dir;
}

const input = (outdir: string, prefix = 'dreams') => `&CONTROL\n  calculation = 'scf'\n  prefix = '${prefix}'\n  outdir = '${outdir}'\n/\n`;
const place = (text: string): WavefunctionPlace => {
  const p = wavefunctionPlace(text);
  assert.ok(p, `a place inside the job directory for\n${text}`);
  return p;
};
/** What is left under dir, as sorted relative paths. */
const left = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
const RUN_FILES = {
  'pw.out': 10,
  'tmp/dreams.save/wfc1.dat': 1000,
  'tmp/dreams.save/wfc2.dat': 1000,
  'tmp/dreams.save/charge-density.dat': 50,
  'tmp/dreams.save/data-file-schema.xml': 5,
  'tmp/dreams.wfc1': 300,
  'tmp/dreams.xml': 5,
  'tmp/other.save/wfc1.dat': 10,
};
const KEPT = [
  'pw.out',
  'tmp/dreams.save/charge-density.dat',
  'tmp/dreams.save/data-file-schema.xml',
  'tmp/dreams.xml',
  'tmp/other.save/wfc1.dat',
];

describe('wavefunction files of a finished convergence test', () => {
  it('finds outdir and prefix with the pw.x input parser, and nothing outside the job directory', () => {
    assert.deepEqual(wavefunctionPlace(input('./tmp/')), { outdir: 'tmp', prefix: 'dreams', outdirDefaulted: false });
    assert.deepEqual(wavefunctionPlace(input('./')), { outdir: '.', prefix: 'dreams', outdirDefaulted: false });
    // pw.x's defaults: outdir './' (or ESPRESSO_TMPDIR), prefix 'pwscf'
    assert.deepEqual(wavefunctionPlace("&CONTROL\n  calculation = 'scf'\n/\n"), { outdir: '.', prefix: 'pwscf', outdirDefaulted: true });
    for (const outside of ['/scratch/me', '../', 'tmp/../../x']) assert.equal(wavefunctionPlace(input(outside)), undefined, outside);
    assert.equal(wavefunctionPlace(input('./tmp', '../x')), undefined, 'a prefix with a slash leaves the directory');
  });

  it('removes <outdir>/<prefix>.save/wfc* and <prefix>.wfc* locally, keeping the output, the charge density, the XML and another prefix', () => {
    const dir = jobDir(RUN_FILES);
    assert.deepEqual(removeWavefunctions(dir, place(input('./tmp'))), { files: 3, bytes: 2300 });
    assert.deepEqual(left(dir), KEPT);
    assert.deepEqual(removeWavefunctions(dir, place(input('./tmp'))), { files: 0, bytes: 0 }, 'a second pass finds nothing');
    const plain = jobDir({ 'pwscf.save/wfc1.dat': 7, 'pwscf.save/charge-density.dat': 3 });
    assert.deepEqual(removeWavefunctions(plain, place("&CONTROL\n  calculation = 'scf'\n/\n")), { files: 1, bytes: 7 });
  });

  it('removes the same files with the shell command, quoting outdir and prefix whatever they hold', () => {
    const odd = "it's $(touch pwned) dir";
    const files = Object.fromEntries(
      Object.entries(RUN_FILES).map(([k, v]) => [k.replace(/^tmp\//, `${odd}/`).replace(/dreams/g, "p'x"), v]),
    );
    const dir = jobDir(files);
    const cmd = removeWavefunctionsCommand(place(input(odd.replace(/'/g, "''"), "p''x")));
    const r = spawnSync('bash', ['-c', cmd], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(left(dir), KEPT.map((k) => k.replace(/^tmp\//, `${odd}/`).replace(/dreams/g, "p'x")).sort());
    assert.ok(!fs.existsSync(path.join(dir, 'pwned')), 'nothing in the path was run');
  });

  it('leaves a defaulted outdir alone on the cluster when ESPRESSO_TMPDIR points pw.x elsewhere (a directory jobs share)', () => {
    const cmd = removeWavefunctionsCommand(place("&CONTROL\n  calculation = 'scf'\n/\n"));
    const shared = jobDir({ 'pwscf.save/wfc1.dat': 7 });
    const job = jobDir({ 'pwscf.save/wfc1.dat': 7 });
    assert.equal(spawnSync('bash', ['-c', cmd], { cwd: shared, env: { ...process.env, ESPRESSO_TMPDIR: shared } }).status, 0);
    assert.deepEqual(left(shared), ['pwscf.save/wfc1.dat']);
    const env = { ...process.env };
    delete env.ESPRESSO_TMPDIR;
    assert.equal(spawnSync('bash', ['-c', cmd], { cwd: job, env }).status, 0);
    assert.deepEqual(left(job), []);
  });
});

describe('SLURM batch script of a convergence test', () => {
  const slurm = new SlurmAdapter();
  const job: JobRecord = {
    id: 'c-7-scf',
    backend: 'c',
    state: 'validated',
    program: 'pw.x',
    input: 'pw.in',
    files: [],
    pseudopotentials: [],
    outputs: [],
    createdAt: '',
    updatedAt: '',
    resources: { ntasks: 1, nodes: 1, walltimeMinutes: 10, reason: 'test' },
    discardWavefunctions: { outdir: 'tmp', prefix: 'dreams', outdirDefaulted: false },
  };
  /** Run the script's body in a job directory, pw.x played by `pw`: its exit status and what is left. */
  const runScript = (pw: string, withDiscard = true) => {
    const profile: ClusterProfile = { name: 'c', sshHost: 'c', scheduler: 'slurm', workRoot: '~/w', pwCommand: pw };
    const script = slurm.batchScript(withDiscard ? job : { ...job, discardWavefunctions: undefined }, profile);
    const dir = jobDir(RUN_FILES);
    fs.writeFileSync(path.join(dir, 'pw.in'), '');
    const r = spawnSync('bash', ['-c', script], { cwd: dir, env: { ...process.env, SLURM_SUBMIT_DIR: dir }, encoding: 'utf8' });
    return { status: r.status, left: left(dir).filter((f) => f !== 'pw.in' && f !== 'pw.err') };
  };

  it("removes the wavefunctions once pw.x succeeded, and the job's exit status stays pw.x's", () => {
    assert.deepEqual(runScript('true'), { status: 0, left: KEPT });
  });

  it('keeps everything when pw.x failed (to read what went wrong), and reports its exit status', () => {
    assert.deepEqual(runScript('sh -c "exit 3"'), { status: 3, left: Object.keys(RUN_FILES).sort() });
  });

  it('keeps everything for a production run', () => {
    assert.deepEqual(runScript('true', false), { status: 0, left: Object.keys(RUN_FILES).sort() });
  });
});
