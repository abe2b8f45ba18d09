// The qe tier runs the real pw.x (Debian's Quantum ESPRESSO 6.7).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const fixture = path.resolve(__dirname, '../fixtures/qe/al-fcc-scf.in');

describe('pw.x on this machine', () => {
  it('runs an fcc Al SCF to convergence and reports a total energy', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-qe-'));
    try {
      const out = execFileSync('pw.x', ['-in', fixture], { cwd: dir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
      assert.match(out, /Program PWSCF v\.6\.7/);
      assert.match(out, /convergence has been achieved/);
      const energy = /^!\s+total energy\s+=\s+(-?\d+\.\d+) Ry/m.exec(out);
      assert.ok(energy, 'no final total energy in the output');
      // Al with the vbc LDA pseudopotential: about -4.18 Ry per atom at these settings
      assert.ok(Number(energy[1]) < -4.0 && Number(energy[1]) > -4.3, `implausible energy ${energy[1]} Ry`);
      assert.match(out, /JOB DONE/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
