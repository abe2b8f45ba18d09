// The relaxation steps of pw.x outputs against ASE's reading of every image of the same files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readPwxTrajectory } from '../../../../../src/core/dft/io/trajectory';

const ROOT = path.resolve(__dirname, '../../../../..');
const PYTHON = '/usr/bin/python3';

const READ_ALL = `
import sys, json
import numpy as np
from ase.io import read
out = []
for a in read(sys.argv[1], index=':', format='espresso-out'):
    calc = a.calc
    e = calc.get_potential_energy() if calc is not None else None
    f = calc.get_forces() if calc is not None and 'forces' in calc.results else None
    out.append(dict(cell=a.cell.tolist(), positions=a.positions.tolist(), energy=e,
                    fmax=None if f is None else float(np.linalg.norm(f, axis=1).max())))
print(json.dumps(out))
`;

interface AseImage {
  cell: number[][];
  positions: number[][];
  energy: number | null;
  fmax: number | null;
}

function aseImages(file: string): AseImage[] {
  const r = spawnSync(PYTHON, ['-c', READ_ALL, file], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `ASE could not read ${file} (${r.error?.message ?? r.stderr.trim()}). This test needs Debian's python3-ase: apt-get install -y python3-ase`,
    );
  return JSON.parse(r.stdout) as AseImage[];
}

const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

describe('pw.x relaxation trajectory', () => {
  for (const rel of [
    'test/fixtures/qe/runs/si-vc-relax.out',
    'test/fixtures/qe/runs/si-relax.out',
    'test/fixtures/qe/qe-7.2-benchmarks/pw_twochem/relax_twochem.out',
  ]) {
    it(`reads every geometry of ${path.basename(rel)} with its energy and largest force, as ASE does`, () => {
      const file = path.join(ROOT, rel);
      const ours = readPwxTrajectory(fs.readFileSync(file, 'utf8'));
      const ref = aseImages(file);
      assert.equal(ours.frames.length, ref.length, 'number of geometries');
      // ASE scales the printed axes by alat as printed in the header (fewer digits): 1.2e-5 Å apart at most here.
      ours.frames.forEach((f, i) => {
        const r = ref[i]!;
        f.cell.forEach((row, a) => row.forEach((x, k) => close(x, r.cell[a]![k]!, 5e-5, `frame ${i} cell[${a}][${k}]`)));
        f.positions.forEach((p, a) => p.forEach((x, k) => close(x, r.positions[a]![k]!, 5e-5, `frame ${i} atom ${a} coordinate ${k}`)));
        if (r.energy !== null) close(f.energyEv!, r.energy, 1e-4, `frame ${i} energy (eV)`);
        if (r.fmax !== null) close(f.maxForceEvPerAngstrom!, r.fmax, 1e-4, `frame ${i} largest force (eV/Å)`);
      });
    });
  }

  it('says what the calculation was and whether it converged', () => {
    const t = readPwxTrajectory(fs.readFileSync(path.join(ROOT, 'test/fixtures/qe/runs/si-vc-relax.out'), 'utf8'));
    assert.equal(t.calculation, 'vc-relax');
    assert.equal(t.converged, true);
    assert.deepEqual(t.labels, ['Si', 'Si']);
  });

  it('gives no frames for a file that is not a pw.x output', () => {
    assert.equal(readPwxTrajectory('hello\n').frames.length, 0);
  });
});
