// `dreams structure` from the built CLI bundle (dist/cli.js), as a user runs it: the summary, the
// JSON, conversion to every format, and files it cannot read (exit 2, file and line, no stack trace).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(ROOT, 'dist/cli.js');
const FIX = path.join(ROOT, 'test/fixtures/structures');

function dreams(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'structure', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('dreams structure (built CLI)', function () {
  this.timeout(180_000);
  let dir: string;

  before(() => {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8', timeout: 150_000 });
    assert.equal(b.status, 0, `build failed:\n${b.stdout}${b.stderr}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-structure-cli-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints formula, atoms, cell, volume, species and the space group of a CIF', () => {
    const r = dreams('examples/NaCl.cif');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /formula\s+Na4Cl4/);
    assert.match(r.out, /atoms\s+8\n/);
    assert.match(r.out, /a1\s+5\.640000\s+0\.000000\s+0\.000000/);
    assert.match(r.out, /volume\s+179\.4061 Å³/);
    assert.match(r.out, /space group\s+Fm-3m \(225\), cubic/);
    assert.match(r.out, /Wyckoff\s+Na a, Cl b/);
    // a P1 cell's atoms, each its own orbit on the same letter, are said once with their count
    assert.match(dreams('examples/Si8-displaced.vasp').out, /Wyckoff\s+Si a ×8\n/);
  });

  it('--json gives the cell as given in the file, the species, positions and the space group', () => {
    const r = dreams('examples/Mg-hcp.cif', '--json');
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as Record<string, any>;
    assert.equal(j.formula, 'Mg2');
    assert.equal(j.natoms, 2);
    assert.deepEqual(j.cell[0], [3.209, 0, 0]);
    assert.ok(Math.abs(j.volumeAngstrom3 - (Math.sqrt(3) / 2) * 3.209 ** 2 * 5.211) < 1e-9);
    assert.deepEqual(j.species, ['Mg', 'Mg']);
    assert.equal(j.positions.length, 2);
    assert.deepEqual(j.spaceGroup, { number: 194, symbol: 'P6_3/mmc', crystalSystem: 'Hexagonal' });
    assert.ok(Math.abs(j.conventional.cOverA - 5.211 / 3.209) < 1e-9);
    assert.match(j.sha256, /^[0-9a-f]{64}$/);
  });

  it('--symprec decides whether a slightly distorted crystal keeps its symmetry', () => {
    const noisy = path.join(dir, 'noisy.in');
    fs.writeFileSync(
      noisy,
      fs
        .readFileSync(path.join(FIX, 'pw-ibrav4-A-C.in'), 'utf8')
        .replace('Mg 0.666666667 0.333333333 0.75', 'Mg 0.666766667 0.333333333 0.75'),
    );
    assert.match(dreams(noisy, '--symprec', '1e-5').out, /space group\s+(?!P6_3\/mmc)\S+ \(\d+\)/);
    assert.match(dreams(noisy, '--symprec', '1e-2').out, /space group\s+P6_3\/mmc \(194\)/);
  });

  for (const to of ['cif', 'poscar', 'extxyz', 'xsf', 'pwx']) {
    it(`--to ${to} --out writes a file that reads back to the same structure`, () => {
      const out = path.join(dir, `slab.${to}`);
      const w = dreams(path.join(FIX, 'POSCAR-slab-selective'), '--to', to, '--out', out);
      assert.equal(w.code, 0, w.err);
      assert.match(w.err, new RegExp(`wrote ${out.replace(/[.]/g, '\\.')}`));
      if (to === 'cif' || to === 'xsf') assert.match(w.err, /has no fixed atoms: the constraints of 2 atoms are not written/);
      const from = to === 'pwx' ? 'pwx-in' : to;
      const a = JSON.parse(dreams(path.join(FIX, 'POSCAR-slab-selective'), '--json').out) as Record<string, any>;
      const b = JSON.parse(dreams(out, '--json', '--from', from).out) as Record<string, any>;
      assert.deepEqual(b.species, a.species);
      assert.equal(b.volumeAngstrom3.toFixed(6), a.volumeAngstrom3.toFixed(6));
      assert.equal(b.spaceGroup.number, a.spaceGroup.number);
      if (to !== 'cif' && to !== 'xsf') assert.deepEqual(b.fixed, a.fixed);
    });
  }

  it("a pw.x output's relaxation and an XSF animation say their geometries, the calculation and whether it converged, in words", () => {
    const r = dreams('test/fixtures/qe/runs/si-vc-relax.out');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\n {2}geometries {7}8 \(the last one shown\)\n {2}calculation {6}vc-relax\n {2}converged {8}yes\n/);
    const x = dreams(path.join(FIX, 'al-relax-animsteps.axsf'));
    assert.equal(x.code, 0, x.err);
    assert.match(x.out, /\n {2}geometries {7}2 \(the last one shown\)\n/);
    // every line of the summary is a label, then at least one space, then its value
    for (const line of r.out.split('\n').filter((l) => /^ {2}\S/.test(l))) assert.match(line, /^ {2}\S.*? {1,}\S/, line);
  });

  it('a file it cannot read exits 2 with file, line and what to do, and no stack trace', () => {
    const r = dreams(path.join(FIX, 'partial-occupancy.cif'));
    assert.equal(r.code, 2);
    assert.match(r.err, /partial-occupancy\.cif:16: CIF: site Cu1 has occupancy 0\.75: only ordered crystals/);
    assert.doesNotMatch(r.err, /\n\s+at /);
    const v4 = dreams(path.join(FIX, 'POSCAR-vasp4'));
    assert.equal(v4.code, 2);
    assert.match(v4.err, /POSCAR-vasp4:6: POSCAR: this is a VASP 4 file/);
    assert.equal(dreams(path.join(FIX, 'POSCAR-vasp4'), '--species', 'Na,Cl').code, 0);
    const missing = dreams('nope.cif');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /nope\.cif: CIF: no such file/);
    const unknown = path.join(dir, 'notes.txt');
    fs.writeFileSync(unknown, 'hello\n');
    const u = dreams(unknown);
    assert.equal(u.code, 2);
    assert.match(u.err, /notes\.txt: neither the name nor the content says which structure format this is/);
    assert.equal(dreams('examples/NaCl.cif', '--to', 'pdb').code, 2);
  });
});
