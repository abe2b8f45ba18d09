import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EmtCalculator } from '../../../../src/core/calculators/emt';
import { EMT_BETA, EMT_PARAMETERS } from '../../../../src/core/calculators/emtParameters';
import { CalculatorError } from '../../../../src/core/calculators/types';
import { readExtxyz } from '../../../../src/core/dft/io/extxyz';
import type { Cell, Structure, Vec3 } from '../../../../src/core/dft/types';
import { BOHR_IN_ANGSTROM } from '../../../../src/core/units';
import { fccBulk, finiteDifferenceForces, rattled } from './helpers';

const fixtures = path.resolve(__dirname, '../../../fixtures');

describe('EMT calculator', () => {
  const emt = new EmtCalculator();

  it('forces are minus the finite-difference gradient of the energy (slab + adsorbate, molecule, small periodic cell)', () => {
    const slab = readExtxyz(fs.readFileSync(path.join(fixtures, 'adsmind/aa20/12_Au_111.xyz'), 'utf8'));
    const top = slab.positions.reduce((a, p) => (p[2] > a[2] ? p : a));
    const withOh: Structure = {
      ...slab,
      symbols: [...slab.symbols, 'O', 'H'],
      positions: [...slab.positions, [top[0] + 0.3, top[1], top[2] + 2.0], [top[0] + 0.5, top[1] + 0.2, top[2] + 2.95]],
    };
    const cases: Structure[] = [
      rattled(withOh, 0.03, 1),
      rattled(
        {
          symbols: ['C', 'O', 'H', 'H'],
          positions: [
            [0, 0, 0],
            [0, 0, 1.2],
            [0.9, 0, -0.6],
            [-0.9, 0, -0.6],
          ],
          cell: [
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
          ],
          pbc: [false, false, false],
        },
        0.05,
        2,
      ),
      // two atoms in a cell shorter than the cutoff: atoms interact with their own images
      rattled(
        {
          symbols: ['Pd', 'Ni'],
          positions: [
            [0, 0, 0],
            [1.3, 1.3, 0.1],
          ],
          cell: [
            [2.6, 0, 0],
            [0.2, 2.7, 0],
            [0.1, 0.3, 2.8],
          ],
          pbc: [true, true, true],
        },
        0.05,
        3,
      ),
    ];
    for (const s of cases) {
      const { forcesEvPerAngstrom } = emt.compute(s);
      const fd = finiteDifferenceForces((x) => emt.compute(x).energyEv, s, 1e-5);
      let worst = 0;
      forcesEvPerAngstrom.forEach((f, i) => f.forEach((x, k) => (worst = Math.max(worst, Math.abs(x - fd[i]![k]!)))));
      assert.ok(worst < 1e-6, `largest force error ${worst} eV/Å for ${s.symbols.join('')}`);
      assert.ok(
        forcesEvPerAngstrom.some((f) => Math.hypot(...f) > 0.05),
        'the test structure must have non-trivial forces',
      );
    }
  });

  it('stress is the finite-difference strain derivative of the energy per volume', () => {
    const s = rattled(
      fccBulk(
        'Cu',
        3.7,
        [
          [1.0, 0.03, 0],
          [0, 0.98, 0.02],
          [0.01, 0, 1.02],
        ],
        2,
      ),
      0.04,
      4,
    );
    const { stressEvPerAngstrom3 } = emt.compute(s, true);
    const v = Math.abs(det(s.cell));
    const h = 1e-6;
    for (const [a, b] of [
      [0, 0],
      [1, 1],
      [2, 2],
      [0, 1],
      [1, 2],
      [0, 2],
    ] as const) {
      const strained = (e: number): Structure => {
        const eps = [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ];
        eps[a]![b]! += e / (a === b ? 1 : 2);
        if (a !== b) eps[b]![a]! += e / 2;
        const apply = (p: Vec3): Vec3 => [0, 1, 2].map((r) => eps[r]![0]! * p[0] + eps[r]![1]! * p[1] + eps[r]![2]! * p[2]) as Vec3;
        return { ...s, cell: s.cell.map(apply) as Cell, positions: s.positions.map(apply) };
      };
      const fd = (emt.compute(strained(h)).energyEv - emt.compute(strained(-h)).energyEv) / (2 * h) / v;
      assert.ok(
        Math.abs(stressEvPerAngstrom3![a]![b]! - fd) < 1e-6,
        `stress ${a}${b}: ${stressEvPerAngstrom3![a]![b]} vs finite difference ${fd}`,
      );
    }
  });

  it('an isolated atom has energy -E0 (the cohesive energy), and fcc bulk at its equilibrium lattice constant has energy about zero', () => {
    for (const [el, p] of Object.entries(EMT_PARAMETERS).filter(([, x]) => x.source === 'Jacobsen1996')) {
      const atom = emt.compute({
        symbols: [el],
        positions: [[0, 0, 0]],
        cell: [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
        pbc: [false, false, false],
      });
      assert.equal(atom.energyEv, -p.e0Ev);
      const a0 = equilibriumFcc(emt, el);
      const e0 = emt.compute(fccBulk(el, a0)).energyEv;
      // The cutoff makes the bulk minimum slightly non-zero; the cohesive energy stays -E0 to within 2%.
      assert.ok(Math.abs(e0) < 0.02 * Math.abs(p.e0Ev), `${el}: bulk energy ${e0} eV/atom at a = ${a0} Å`);
    }
  });

  it('fcc lattice constants: within 1.5% of experiment, and at most 2% below the neutral-sphere value (16π/3)^(1/3) s0 the cutoff shortens', () => {
    // Room-temperature experimental lattice constants, Å (CRC Handbook of Chemistry and Physics).
    const experiment: Record<string, number> = { Al: 4.0495, Cu: 3.6149, Ag: 4.0853, Au: 4.0782, Ni: 3.524, Pd: 3.8907, Pt: 3.9242 };
    for (const [el, p] of Object.entries(EMT_PARAMETERS).filter(([, x]) => x.source === 'Jacobsen1996')) {
      const a0 = equilibriumFcc(emt, el);
      const fromS0 = EMT_BETA * Math.SQRT2 * p.s0Bohr * BOHR_IN_ANGSTROM;
      assert.ok(Math.abs(a0 / experiment[el]! - 1) < 0.015, `${el}: EMT minimum ${a0.toFixed(4)} Å vs experiment ${experiment[el]} Å`);
      assert.ok(a0 <= fromS0 && a0 / fromS0 > 0.98, `${el}: EMT minimum ${a0.toFixed(4)} Å vs ${fromS0.toFixed(4)} Å from s0`);
    }
  });

  it('is unchanged by translating the structure, wrapping atoms by lattice vectors, or doubling the cell', () => {
    const s = rattled(fccBulk('Pt', 3.95), 0.05, 5);
    const e = emt.compute(s).energyEv;
    const shifted = { ...s, positions: s.positions.map((p) => [p[0] + 7.1, p[1] - 3.3, p[2] + 0.4] as Vec3) };
    assert.ok(Math.abs(emt.compute(shifted).energyEv - e) < 1e-9);
    const wrapped = {
      ...s,
      positions: s.positions.map((p, i) =>
        i % 2
          ? ([
              p[0] + 2 * s.cell[0][0] - s.cell[2][0],
              p[1] + 2 * s.cell[0][1] - s.cell[2][1],
              p[2] + 2 * s.cell[0][2] - s.cell[2][2],
            ] as Vec3)
          : p,
      ),
    };
    assert.ok(Math.abs(emt.compute(wrapped).energyEv - e) < 1e-9);
    const doubled: Structure = {
      ...s,
      symbols: [...s.symbols, ...s.symbols],
      positions: [...s.positions, ...s.positions.map((p) => [p[0] + s.cell[0][0], p[1] + s.cell[0][1], p[2] + s.cell[0][2]] as Vec3)],
      cell: [[2 * s.cell[0][0], 2 * s.cell[0][1], 2 * s.cell[0][2]], s.cell[1], s.cell[2]],
    };
    assert.ok(Math.abs(emt.compute(doubled).energyEv - 2 * e) < 1e-9);
  });

  it('refuses an element it has no parameters for, naming it and the alternatives', () => {
    assert.throws(
      () =>
        emt.compute({
          symbols: ['Fe'],
          positions: [[0, 0, 0]],
          cell: [
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
          ],
          pbc: [false, false, false],
        }),
      (e: unknown) =>
        e instanceof CalculatorError &&
        /"Fe"/.test(e.message) &&
        /Al, Cu, Ag, Au, Ni, Pd, Pt, H, C, N, O/.test(e.message) &&
        /pw\.x or an i-PI engine/.test(e.message),
    );
  });
});

function det(c: Cell): number {
  return (
    c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
    c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
    c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0])
  );
}

/** Golden-section minimum of the energy per atom of fcc bulk, Å. */
function equilibriumFcc(emt: EmtCalculator, el: string): number {
  let lo = 3.0,
    hi = 4.6;
  const g = (Math.sqrt(5) - 1) / 2;
  const f = (a: number) => emt.compute(fccBulk(el, a)).energyEv;
  let x1 = hi - g * (hi - lo),
    x2 = lo + g * (hi - lo);
  let f1 = f(x1),
    f2 = f(x2);
  while (hi - lo > 1e-6) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = f(x2);
    }
  }
  return (lo + hi) / 2;
}
