import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { meshFromSpacing, reciprocalLengthsPerAngstrom, spacingOfMesh, type KMesh } from '../../../../src/core/dft/kpoints';
import { DftScienceError } from '../../../../src/core/dft/scienceError';
import type { Cell } from '../../../../src/core/dft/types';

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} differs from ${b} by more than ${tol}`);

// fcc primitive cell (a/2)(0,1,1),(1,0,1),(1,1,0): |b_i| = 2π√3/a (the {111} reciprocal vectors).
const fccPrimitive = (a: number): Cell => [
  [0, a / 2, a / 2],
  [a / 2, 0, a / 2],
  [a / 2, a / 2, 0],
];
// hexagonal cell, 120° between a1 and a2: |b1| = |b2| = 4π/(a√3), |b3| = 2π/c.
const hexagonal = (a: number, c: number): Cell => [
  [a, 0, 0],
  [-a / 2, (a * Math.sqrt(3)) / 2, 0],
  [0, 0, c],
];

describe('k-point mesh from a spacing (1/Å, including 2π)', () => {
  it('gives |b| = 2π/a per axis for a simple cubic cell', () => {
    const a = 3.0;
    const b = reciprocalLengthsPerAngstrom([
      [a, 0, 0],
      [0, a, 0],
      [0, 0, a],
    ]);
    for (const x of b) close(x, (2 * Math.PI) / a, 1e-12, '|b| of a cube');
    // 2π/3 = 2.0944 1/Å; at 0.2 1/Å that is 10.47 -> 11 points
    assert.deepEqual(
      meshFromSpacing(
        [
          [a, 0, 0],
          [0, a, 0],
          [0, 0, a],
        ],
        0.2,
      ),
      [11, 11, 11],
    );
  });

  it('uses the reciprocal lattice for fcc primitive cells, where 2π/|a_i| is too coarse', () => {
    const a = 4.05;
    const b = reciprocalLengthsPerAngstrom(fccPrimitive(a));
    for (const x of b) close(x, (2 * Math.PI * Math.sqrt(3)) / a, 1e-12, '|b| of fcc primitive');
    // 2π√3/4.05 = 2.6871 1/Å -> 13.44 -> 14; the per-axis 2π/|a| (|a| = a/√2) would give 2.194 -> 11
    assert.deepEqual(meshFromSpacing(fccPrimitive(a), 0.2), [14, 14, 14]);
    const naive = Math.ceil((2 * Math.PI) / (a / Math.SQRT2) / 0.2);
    assert.equal(naive, 11);
  });

  it('uses the reciprocal lattice for hexagonal cells', () => {
    const a = 3.21;
    const c = 5.21;
    const b = reciprocalLengthsPerAngstrom(hexagonal(a, c));
    close(b[0], (4 * Math.PI) / (a * Math.sqrt(3)), 1e-12, '|b1| hexagonal');
    close(b[1], (4 * Math.PI) / (a * Math.sqrt(3)), 1e-12, '|b2| hexagonal');
    close(b[2], (2 * Math.PI) / c, 1e-12, '|b3| hexagonal');
    // |b1| = 2.2603 -> 11.30 -> 12 (naive 2π/a = 1.957 -> 10); |b3| = 1.2060 -> 6.03 -> 7
    assert.deepEqual(meshFromSpacing(hexagonal(a, c), 0.2), [12, 12, 7]);
  });

  it('puts one point along a non-periodic axis (slab normal)', () => {
    const cell: Cell = [
      [2.8, 0, 0],
      [1.4, 2.425, 0],
      [0, 0, 25],
    ];
    assert.deepEqual(meshFromSpacing(cell, 0.15, [true, true, false])[2], 1);
    assert.ok(meshFromSpacing(cell, 0.15)[2] > 1, 'a periodic 25 Å axis still gets points');
    const s = spacingOfMesh(cell, [12, 12, 1], [true, true, false]);
    assert.equal(s.perAxisPerAngstrom[2], null);
  });

  it('never returns fewer than one point, even for a huge spacing', () => {
    assert.deepEqual(meshFromSpacing(fccPrimitive(4.05), 100), [1, 1, 1]);
  });

  it('inverts: the spacing of a mesh reproduces the mesh, and never exceeds the request', () => {
    const cells: Cell[] = [
      fccPrimitive(4.05),
      hexagonal(2.51, 4.07),
      [
        [5.43, 0, 0],
        [0, 5.43, 0],
        [0, 0, 5.43],
      ],
    ];
    for (const cell of cells) {
      for (const spacing of [0.1, 0.137, 0.2, 0.25, 0.33]) {
        const mesh = meshFromSpacing(cell, spacing);
        const achieved = spacingOfMesh(cell, mesh);
        assert.ok(achieved.maxPerAngstrom <= spacing * (1 + 1e-9), `${achieved.maxPerAngstrom} > ${spacing}`);
        // one point fewer on any axis would break the request
        for (let i = 0; i < 3; i++) {
          if (mesh[i] === 1) continue;
          const coarser = [...mesh] as KMesh;
          coarser[i] -= 1;
          assert.ok(spacingOfMesh(cell, coarser).perAxisPerAngstrom[i]! > spacing);
        }
      }
      // the spacing a mesh achieves, fed back, gives the mesh despite floating-point rounding
      for (let n = 1; n <= 40; n++) {
        const s = spacingOfMesh(cell, [n, n, n]).perAxisPerAngstrom;
        assert.equal(meshFromSpacing(cell, s[0]!)[0], n, `mesh ${n} on ${JSON.stringify(cell)}`);
      }
    }
  });

  it('rejects a non-positive spacing, a degenerate cell and a bad mesh with what to pass', () => {
    assert.throws(
      () => meshFromSpacing(fccPrimitive(4), 0),
      (e: unknown) => e instanceof DftScienceError && /positive/.test(e.message),
    );
    assert.throws(() => meshFromSpacing(fccPrimitive(4), Number.NaN), DftScienceError);
    assert.throws(
      () =>
        meshFromSpacing(
          [
            [1, 0, 0],
            [0, 1, 0],
            [1, 1, 0],
          ],
          0.2,
        ),
      (e: unknown) => e instanceof DftScienceError && /coplanar/.test(e.message),
    );
    assert.throws(() => spacingOfMesh(fccPrimitive(4), [0, 4, 4]), /three positive integers/);
  });

  it('agrees with reciprocal cells and meshes computed with ASE for bulk and slab cells', () => {
    const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../fixtures/dft/ase-kspacing.json'), 'utf8')) as {
      cases: { name: string; cell: Cell; pbc: [boolean, boolean, boolean]; spacing: number; recip2pi: number[]; mesh: KMesh }[];
    };
    assert.ok(fixture.cases.length >= 15);
    for (const c of fixture.cases) {
      reciprocalLengthsPerAngstrom(c.cell).forEach((b, i) => close(b, c.recip2pi[i], 1e-9, `${c.name} |b${i + 1}|`));
      assert.deepEqual(meshFromSpacing(c.cell, c.spacing, c.pbc), c.mesh, c.name);
    }
  });
});
