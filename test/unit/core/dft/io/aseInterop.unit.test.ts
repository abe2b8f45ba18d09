// The files this project writes must open in ASE (the reference reader for extxyz in
// the community). Needs Debian's python3-ase: apt-get install -y python3-ase.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatExtxyz, readExtxyz } from '../../../../../src/core/dft/io/extxyz';
import { formatXsf } from '../../../../../src/core/dft/io/xsf';

const fixtures = path.resolve(__dirname, '../../../../fixtures/adsmind');
const PYTHON = '/usr/bin/python3';

function runAse(script: string, ...args: string[]): unknown {
  const r = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(
      `ASE check could not run (${r.error?.message ?? r.stderr.trim()}). It needs Debian's python3-ase: apt-get install -y python3-ase`,
    );
  }
  return JSON.parse(r.stdout);
}

const READ = `
import sys, json
from ase.io import read
from ase.constraints import FixAtoms
a = read(sys.argv[1], format=sys.argv[2])
fixed = []
for c in a.constraints:
    if isinstance(c, FixAtoms): fixed = sorted(int(i) for i in c.get_indices())
out = dict(symbols=a.get_chemical_symbols(), positions=a.positions.tolist(), cell=a.cell.tolist(), pbc=[bool(x) for x in a.pbc],
           tags=a.get_tags().tolist(), fixed=fixed, info={k: v for k, v in a.info.items() if isinstance(v, (int, float, str))})
try:
    out['forces'] = a.get_forces(apply_constraint=False).tolist()
    out['energy'] = a.get_potential_energy()
except Exception:
    pass
print(json.dumps(out))
`;

describe('ASE reads what we write', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-ase-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('extxyz: cell, pbc, tags, fixed atoms, energy and forces', () => {
    const slab = readExtxyz(fs.readFileSync(path.join(fixtures, 'ocd62/041_Cr18Pt18_H.xyz'), 'utf8'));
    slab.fixed = slab.tags!.map((t) => t === 0);
    const forces = slab.positions.map((_, i) => [0.01 * i, -0.02 * i, 0.5] as [number, number, number]);
    const file = path.join(dir, 'slab.extxyz');
    fs.writeFileSync(
      file,
      formatExtxyz({ structure: slab, arrays: { forces: { type: 'R', rows: forces } }, info: { energy: -123.456, site: 'fcc hollow' } }),
    );
    const a = runAse(READ, file, 'extxyz') as Record<string, any>;
    assert.deepEqual(a.symbols, slab.symbols);
    assert.deepEqual(a.pbc, [true, true, false]);
    assert.deepEqual(a.tags, slab.tags);
    assert.deepEqual(
      a.fixed,
      slab.fixed.flatMap((f, i) => (f ? [i] : [])),
    );
    (a.cell as number[][]).forEach((row, i) => row.forEach((x, k) => assert.ok(Math.abs(x - slab.cell[i]![k]!) < 1e-12)));
    (a.positions as number[][]).forEach((p, i) => p.forEach((x, k) => assert.ok(Math.abs(x - slab.positions[i]![k]!) < 1e-8)));
    assert.equal(a.energy, -123.456);
    assert.deepEqual(a.forces[7], forces[7]);
    assert.equal(a.info.site, 'fcc hollow');
  });

  it('XSF: atoms and cell', () => {
    const slab = readExtxyz(fs.readFileSync(path.join(fixtures, 'aa20/12_Au_111.xyz'), 'utf8'));
    const file = path.join(dir, 'slab.xsf');
    fs.writeFileSync(file, formatXsf(slab));
    const a = runAse(READ, file, 'xsf') as Record<string, any>;
    assert.deepEqual(a.symbols, slab.symbols);
    (a.positions as number[][]).forEach((p, i) => p.forEach((x, k) => assert.ok(Math.abs(x - slab.positions[i]![k]!) < 1e-9)));
    (a.cell as number[][]).forEach((row, i) => row.forEach((x, k) => assert.ok(Math.abs(x - slab.cell[i]![k]!) < 1e-9)));
  });
});
