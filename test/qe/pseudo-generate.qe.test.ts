// scripts/pseudo/generate.ts with Debian's ld1.x: the files the benches generate on demand are
// PBE scalar-relativistic ultrasoft pseudopotentials the project's UPF reader accepts, ld1.x's
// transferability tests pass, and a file already there is kept. About 2 s (ld1.x, As and Ga).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUpfHeaderFile } from '../../src/core/dft/qe/upfFiles';
import { availableInputs, generatePseudopotentials } from '../../scripts/pseudo/generate';

describe('pseudopotentials generated with ld1.x from scripts/pseudo', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pseudo-gen-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes As and Ga as PBE scalar-relativistic ultrasoft files with core correction, whose ld1.x tests stay under 1 mRy', () => {
    const made = generatePseudopotentials(dir, ['As', 'Ga']);
    assert.deepEqual(
      made.map((g) => g.file),
      ['As.pbe-n-rrkjus_psl.1.0.0.UPF', 'Ga.pbe-dnl-rrkjus_psl.1.0.0.UPF'],
    );
    assert.deepEqual(
      fs.readdirSync(dir).sort(),
      ['As.pbe-n-rrkjus_psl.1.0.0.UPF', 'Ga.pbe-dnl-rrkjus_psl.1.0.0.UPF'],
      'no scratch files left beside them',
    );
    const as = readUpfHeaderFile(path.join(dir, 'As.pbe-n-rrkjus_psl.1.0.0.UPF'));
    const ga = readUpfHeaderFile(path.join(dir, 'Ga.pbe-dnl-rrkjus_psl.1.0.0.UPF'));
    assert.deepEqual(
      [as.element, as.functional, as.type, as.relativistic, as.coreCorrection, as.zValence],
      ['As', 'PBE', 'US', 'scalar', true, 5],
    );
    assert.deepEqual([ga.element, ga.functional, ga.type, ga.zValence], ['Ga', 'PBE', 'US', 13]);
    assert.ok(ga.suggestedEcutwfcRy! > 40 && ga.suggestedEcutwfcRy! < 50, `Ga suggests ${ga.suggestedEcutwfcRy} Ry`);
    for (const g of made) {
      assert.equal(g.testConfigurations, 4, `${g.file}: pslibrary's test configurations`);
      assert.ok(g.maxTestErrorMRy! < 1, `${g.file}: |ΔE_AE − ΔE_PS| up to ${g.maxTestErrorMRy} mRy`);
    }
    assert.match(
      fs.readFileSync(path.join(dir, 'As.pbe-n-rrkjus_psl.1.0.0.UPF'), 'utf8'),
      /<PP_INPUTFILE>[\s\S]*rcore=1\.5/,
      'the file embeds its generation input',
    );
  });

  it('keeps a file already in the directory and refuses an element it has no input for, naming those it has', () => {
    const file = path.join(dir, 'As.pbe-n-rrkjus_psl.1.0.0.UPF');
    const before = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, '<!-- kept -->\n');
    generatePseudopotentials(dir, ['As']);
    assert.equal(fs.readFileSync(file, 'utf8'), `${before}<!-- kept -->\n`);
    assert.ok(availableInputs().Co);
    // the elements scripts/pseudo has inputs for, as the message lists them (more are added over time)
    const have = Object.keys(availableInputs()).sort().join(', ');
    assert.match(have, /As, .*Co, .*Fe, .*Ga/);
    assert.throws(
      () => generatePseudopotentials(dir, ['Xe']),
      (e: Error) => e.message.includes(`no ld1.x input for Xe`) && e.message.includes(`inputs for: ${have})`),
    );
  });
  it('leaves no scratch folder when ld1.x fails, and says which binary failed', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pseudo-fail-'));
    // an ld1.x that reads its input and stops with an error, as ld1.x does on a bad input
    const failing = path.join(out, '..', `${path.basename(out)}-ld1x.sh`);
    fs.writeFileSync(failing, '#!/bin/sh\ncat >/dev/null\necho "Error in routine ld1_readin"\nexit 1\n', { mode: 0o755 });
    const saved = process.env.LD1X;
    process.env.LD1X = failing;
    try {
      assert.throws(() => generatePseudopotentials(out, ['Co']), /ld1\.x failed \(exit 1\)/);
    } finally {
      if (saved === undefined) delete process.env.LD1X;
      else process.env.LD1X = saved;
    }
    assert.deepEqual(fs.readdirSync(out), [], 'no .ld1-* scratch and no file');
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(failing, { force: true });
  });
});
