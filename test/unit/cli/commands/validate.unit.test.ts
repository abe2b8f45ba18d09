// `dreams validate` and `dreams parse` from the built CLI bundle (dist/cli.js), as a user
// or a CI pipeline runs them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import { FIXTURES } from '../../core/dft/qe/fixtures';

const ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(ROOT, 'dist/cli.js');

function dreams(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('dreams validate / dreams parse (built CLI)', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(b.status, 0, `build failed:\n${b.stdout}${b.stderr}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-cli-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('exits 0 on a valid input and says which definitions and pseudopotentials it used', () => {
    const r = dreams('validate', path.join(FIXTURES, 'al-fcc-scf.in'), '--qe-version', '6.7');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /0 errors, 0 warnings \(pw\.x 6\.7 definitions from the option; pseudopotential checks done/);
  });

  it('prints FILE:LINE:COLUMN diagnostics and exits 1 when a file has errors', () => {
    const bad = path.join(dir, 'bad.in');
    fs.writeFileSync(bad, fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8').replace('ecutwfc = 15.0', 'ecutwfx = 15.0'));
    const r = dreams('validate', bad, path.join(FIXTURES, 'al-fcc-scf.in'));
    assert.equal(r.code, 1);
    assert.match(r.out, new RegExp(`${bad.replace(/[.]/g, '\\.')}:14:3: error unknown-variable: .*did you mean ecutwfc`));
    assert.match(r.out, /al-fcc-scf\.in: 0 errors/);
  });

  it('gives machine-readable results with --json', () => {
    const bad = path.join(dir, 'nat.in');
    fs.writeFileSync(bad, fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8').replace('nat = 1', 'nat = 2'));
    const r = dreams('validate', '--json', bad);
    assert.equal(r.code, 1);
    const [res] = JSON.parse(r.out) as {
      file: string;
      errorCount: number;
      qeVersion: string;
      diagnostics: { code: string; line: number; column: number; severity: string; range: unknown; fixes?: unknown[] }[];
    }[];
    assert.equal(res!.errorCount, 1);
    assert.equal(res!.qeVersion, '7.2');
    const d = res!.diagnostics[0]!;
    assert.deepEqual([d.code, d.severity, d.line, d.column], ['nat-mismatch', 'error', 12, 3]);
    assert.equal(d.fixes!.length, 1);
  });

  it('skips pseudopotential checks when the pseudo directory is not here, and uses --pseudo-dir when given', () => {
    const remote = path.join(dir, 'remote.in');
    fs.writeFileSync(
      remote,
      fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8').replace('/usr/share/espresso/pseudo', '/scratch/pseudo'),
    );
    const skipped = dreams('validate', remote);
    assert.equal(skipped.code, 0);
    assert.match(skipped.out, /pseudopotential checks skipped: \/scratch\/pseudo does not exist here/);
    const empty = fs.mkdtempSync(path.join(dir, 'pseudo-'));
    const missing = dreams('validate', remote, '--pseudo-dir', empty);
    assert.equal(missing.code, 1);
    assert.match(missing.out, /pseudopotential-unreadable: Al\.pz-vbc\.UPF is not in/);
  });

  it('exits 2 with a usable message on bad usage', () => {
    assert.equal(dreams('validate').code, 2);
    const v = dreams('validate', '--qe-version', '8.0', path.join(FIXTURES, 'al-fcc-scf.in'));
    assert.equal(v.code, 2);
    assert.match(v.err, /"8\.0" is not one of 6\.7, 7\.2, develop/);
    const f = dreams('validate', path.join(dir, 'nope.in'));
    assert.equal(f.code, 2);
    assert.match(f.err, /cannot read .*nope\.in: no such file/);
    assert.equal(dreams('parse').code, 2);
  });

  it('prints what the output parser extracted, as JSON', () => {
    const file = path.join(FIXTURES, 'runs/fe-bcc-magnetic.out');
    const r = dreams('parse', file, '--json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), JSON.parse(JSON.stringify(parsePwOutput(fs.readFileSync(file, 'utf8')))));
    const text = dreams('parse', path.join(FIXTURES, 'runs/al-missing-pseudo.out'));
    assert.equal(text.code, 0);
    assert.match(text.out, /error\s+readpp \(1\): file .*Al\.no-such-file\.UPF not found/);
  });

  it('parse names why a run failed with the line that shows it, and reads the CRASH file beside the output', () => {
    const walltime = dreams('parse', path.join(FIXTURES, 'runs/si-walltime.out'));
    assert.equal(walltime.code, 0, walltime.err);
    assert.match(walltime.out, /failure\s+time-limit: the run reached its time limit \(max_seconds\)/);
    assert.match(walltime.out, /evidence\s+line \d+: Maximum CPU time exceeded/);
    const cut = path.join(dir, 'cut.out');
    fs.writeFileSync(cut, fs.readFileSync(path.join(FIXTURES, 'runs/al-missing-pseudo.out'), 'utf8').split('\n').slice(0, 10).join('\n'));
    fs.copyFileSync(path.join(FIXTURES, 'runs/al-missing-pseudo.CRASH'), path.join(dir, 'CRASH'));
    const crash = dreams('parse', cut);
    assert.match(crash.out, /failure\s+pw-error: pw\.x stopped in readpp: file .*Al\.no-such-file\.UPF not found \(from its CRASH file\)/);
    assert.match(crash.out, /evidence\s+CRASH: from readpp : error #\s+1/);
    assert.equal(dreams('parse', cut, '--press', 'high').code, 2);
  });

  it('lists both commands in its help', () => {
    const r = dreams('--help');
    assert.match(r.out, /validate\s+check pw\.x input files/);
    assert.match(r.out, /parse\s+print what a pw\.x output contains/);
  });
});
