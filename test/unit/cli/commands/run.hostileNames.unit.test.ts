// Names that cannot work are refused before a run directory is made, each with its real
// reason: a --pw-command the parser refuses (";"), a program that is not on PATH, UPF files
// whose names pw.x cannot read in ATOMIC_SPECIES (a blank, a comma), and a runs directory too
// long for pw.x's 255-character directory names. Nothing in the names is executed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../../../src/cli/commands/run';

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

const PSEUDO = '/usr/share/espresso/pseudo';
const al = (extra = '') =>
  `workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\n  functional: PZ\n${extra}`;

describe('dreams run: names that cannot work', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-names-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const objective = (text = al()) => {
    const f = path.join(dir, 'al.yaml');
    fs.writeFileSync(f, text);
    return f;
  };

  it('refuses a --pw-command the command parser refuses with the parser\'s reason, not "install QE", and runs nothing in it', async () => {
    const canary = path.join(dir, 'canary');
    const r = await run([
      objective(),
      '--offline',
      '--runs-dir',
      path.join(dir, 'runs'),
      '--pseudo-dir',
      PSEUDO,
      '--pw-command',
      `pw.x x; touch ${canary}`,
    ]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--pw-command: the pw\.x command "pw\.x x; touch .*canary" contains the operator ";"; it runs without a shell/);
    assert.doesNotMatch(r.err, /Install Quantum ESPRESSO/);
    assert.equal(fs.existsSync(canary), false);
    assert.equal(fs.existsSync(path.join(dir, 'runs')), false);
  });

  it('says a --pw-command program is not on PATH', async () => {
    const r = await run([
      objective(),
      '--offline',
      '--runs-dir',
      path.join(dir, 'runs'),
      '--pseudo-dir',
      PSEUDO,
      '--pw-command',
      'pw-not-installed.x -nk 2',
    ]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /"pw-not-installed\.x", which "pw-not-installed\.x -nk 2" runs, is not on PATH/);
  });

  for (const [what, file] of [
    ['a blank', 'Al pz-vbc.UPF'],
    ['a comma', 'Al,pz-vbc.UPF'],
  ] as const) {
    it(`refuses a UPF file whose name has ${what}, named or found in the library, before a run directory is made`, async () => {
      const lib = path.join(dir, 'pseudo');
      fs.mkdirSync(lib);
      fs.copyFileSync(path.join(PSEUDO, 'Al.pz-vbc.UPF'), path.join(lib, file));
      for (const text of [al(`  pseudopotential: ${JSON.stringify(file)}\n`), al()]) {
        const r = await run([objective(text), '--offline', '--runs-dir', path.join(dir, 'runs'), '--pseudo-dir', lib]);
        assert.equal(r.code, 2, r.err);
        assert.match(
          r.err,
          new RegExp(`the file name "${file}" has ${what}, which ends the name where pw\\.x reads ATOMIC_SPECIES; rename the file`),
        );
        assert.equal(fs.existsSync(path.join(dir, 'runs')), false, 'no run directory');
      }
    });
  }

  it("refuses a runs directory too long for pw.x's directory names", async () => {
    const runs = path.join(dir, 'r'.repeat(200));
    const r = await run([objective(), '--offline', '--runs-dir', runs, '--pseudo-dir', PSEUDO]);
    assert.equal(r.code, 2, r.err);
    assert.match(
      r.err,
      /the runs directory .* is \d+ bytes long: a pw\.x job's pseudopotential directory under it .* over the 255 characters pw\.x reads/,
    );
    assert.equal(fs.existsSync(runs), false);
  });
});
