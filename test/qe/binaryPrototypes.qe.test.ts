// Zincblende built by name is the crystal pw.x 6.7 sees: one SCF iteration of SiC's 2-atom primitive
// cell (LDA, 20 Ry, 2×2×2; about 2 s) finds the 24 operations of F-43m's point group, no inversion.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderPwInput } from '../../src/core/dft/qe/pwInput';
import { bulk } from '../../src/core/dft/structure/bulk';
import { analyseSymmetry } from '../../src/core/dft/structure/symmetry';

const PSEUDO = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';

describe('zincblende by name through pw.x', function () {
  this.timeout(120_000);
  it('SiC in its primitive cell has the 24 symmetry operations of F-43m in pw.x, as moyo finds', () => {
    const sic = bulk({ kind: 'zincblende', symbols: ['Si', 'C'], aAngstrom: 4.36, cell: 'primitive' });
    assert.equal(analyseSymmetry(sic).spaceGroup.number, 216);
    const { text } = renderPwInput(
      sic,
      {
        purpose: 'convergence-test',
        calculation: 'scf',
        ecutwfcRy: 20,
        ecutrhoRy: 160,
        kMesh: [2, 2, 2],
        occupations: 'fixed',
        nspin: 1,
        electronMaxstep: 1,
      },
      { Si: { file: 'Si.pz-vbc.UPF', sha256: '' }, C: { file: 'C.pz-rrkjus.UPF', sha256: '' } },
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-zincblende-'));
    try {
      fs.writeFileSync(path.join(dir, 'pw.in'), text);
      const r = spawnSync('pw.x', ['-in', 'pw.in'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 110_000,
        env: { ...process.env, OMP_NUM_THREADS: '1', ESPRESSO_PSEUDO: PSEUDO },
      });
      const ops = /(\d+) Sym\. Ops\.([^\n]*)/.exec(r.stdout ?? '');
      assert.ok(ops, `pw.x printed no symmetry line:\n${(r.stdout ?? '').slice(-1500)}${r.stderr ?? ''}`);
      assert.equal(Number(ops[1]), 24);
      assert.match(ops[2]!, /no inversion/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
