import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cartesianK, samplePath, standardBandPath } from '../../../../../src/core/dft/electronic/kpath';
import { toCartesian } from '../../../../../src/core/dft/structure/cell';
import { norm, sub } from '../../../../../src/core/dft/structure/vec';
import type { Cell, Structure, Vec3 } from '../../../../../src/core/dft/types';

interface AseCase {
  name: string;
  variant: string;
  lattice: string;
  cell: Cell;
  fractional: Vec3[];
  symbols: string[];
  path: string;
  points: Record<string, Vec3>;
}

// ASE 3.22 (Debian python3-ase) on the same cells: test/fixtures/dft/kpath/ase_bandpaths.py
const cases = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../fixtures/dft/kpath/ase_bandpaths.json'), 'utf8')) as AseCase[];

const aseLabel = (l: string) => l.replace('Γ', 'G').replace('Σ', 'S');
const structureOf = (c: AseCase): Structure => ({
  symbols: c.symbols.map((s) => (s === 'X' ? 'Cu' : s)),
  positions: c.fractional.map((f) => toCartesian(c.cell, f)),
  cell: c.cell,
  pbc: [true, true, true],
});

describe('standard band path (Setyawan–Curtarolo)', () => {
  for (const c of cases) {
    it(`gives ASE's lattice, path and points for ${c.name} (${c.variant} cell)`, () => {
      const bp = standardBandPath(structureOf(c));
      assert.equal(bp.lattice, c.lattice);
      assert.equal(bp.segments.map((run) => run.map(aseLabel).join('')).join(','), c.path);
      const mine = Object.fromEntries(Object.entries(bp.points).map(([l, f]) => [aseLabel(l), cartesianK(c.cell, f)]));
      const ase = Object.fromEntries(Object.entries(c.points).map(([l, f]) => [l, cartesianK(c.cell, f)]));
      assert.deepEqual(Object.keys(mine).sort(), Object.keys(ase).sort());
      // the same points up to a symmetry of the lattice: every distance between them (and to Γ) agrees
      const labels = Object.keys(ase);
      for (const p of labels) {
        assert.ok(Math.abs(norm(mine[p]!) - norm(ase[p]!)) < 1e-6, `|${p}| ${norm(mine[p]!)} vs ASE ${norm(ase[p]!)}`);
        for (const q of labels) {
          const dm = norm(sub(mine[p]!, mine[q]!));
          const da = norm(sub(ase[p]!, ase[q]!));
          assert.ok(Math.abs(dm - da) < 1e-6, `${p}–${q}: ${dm} vs ASE ${da}`);
        }
      }
    });
  }

  it('keeps the canonical coordinates for a cell already in the Setyawan–Curtarolo setting (diamond Si: X = (½, 0, ½))', () => {
    const si = cases.find((c) => c.name === 'Si-diamond' && c.variant === 'standard')!;
    const bp = standardBandPath(structureOf(si));
    assert.deepEqual(bp.points.X, [0.5, 0, 0.5]);
    assert.deepEqual(bp.points.K, [0.375, 0.375, 0.75]);
  });

  it('refuses a conventional cubic cell of an fcc crystal, saying it holds 4 primitive cells', () => {
    const a = 4.05;
    const s: Structure = {
      symbols: ['Al', 'Al', 'Al', 'Al'],
      positions: [
        [0, 0, 0],
        [0, a / 2, a / 2],
        [a / 2, 0, a / 2],
        [a / 2, a / 2, 0],
      ],
      cell: [
        [a, 0, 0],
        [0, a, 0],
        [0, 0, a],
      ],
      pbc: [true, true, true],
    };
    assert.throws(() => standardBandPath(s), /not primitive: it holds 4 primitive cells of its FCC lattice/);
  });

  it('refuses a triclinic crystal with a message that says to give the path explicitly', () => {
    const s: Structure = {
      symbols: ['Cu'],
      positions: [[0, 0, 0]],
      cell: [
        [3, 0, 0],
        [0.4, 3.3, 0],
        [0.7, 0.5, 3.9],
      ],
      pbc: [true, true, true],
    };
    assert.throws(() => standardBandPath(s), /triclinic .*Give the path explicitly/);
  });
});

describe('sampling a band path as pw.x does from crystal_b', () => {
  const fcc = cases.find((c) => c.name === 'Si-diamond' && c.variant === 'standard')!;
  const bp = standardBandPath(structureOf(fcc));
  const s = samplePath(bp, fcc.cell, 20);

  it('generates the sum of the counts before the last node plus one k-point', () => {
    const expected = s.nodes.slice(0, -1).reduce((n, node) => n + node.count, 0) + 1;
    assert.equal(s.kpoints.length, expected);
  });

  it('puts one tick per node, merging the two sides of a break ("K|U") at one path coordinate', () => {
    assert.deepEqual(
      s.ticks.map((t) => t.label),
      ['Γ', 'X', 'W', 'K', 'Γ', 'L', 'U', 'W', 'L', 'K|U', 'X'],
    );
    const ku = s.ticks.find((t) => t.label === 'K|U')!;
    assert.deepEqual(s.kpoints[ku.index], bp.points.K);
    assert.deepEqual(s.kpoints[ku.index + 1], bp.points.U);
    assert.equal(s.x[ku.index], s.x[ku.index + 1]);
  });

  it('advances the path coordinate by the Cartesian length of each segment (Γ–X of Si is 2π/a·1)', () => {
    const gx = s.ticks[1]!.x - s.ticks[0]!.x;
    assert.ok(Math.abs(gx - (2 * Math.PI) / 5.43) < 1e-9, `Γ–X = ${gx} 1/Å`);
    const total = s.ticks.at(-1)!.x;
    let sum = 0;
    for (const run of bp.segments)
      for (let i = 1; i < run.length; i++) {
        sum += norm(sub(cartesianK(fcc.cell, bp.points[run[i]!]!), cartesianK(fcc.cell, bp.points[run[i - 1]!]!)));
      }
    assert.ok(Math.abs(total - sum) < 1e-9);
  });
});
