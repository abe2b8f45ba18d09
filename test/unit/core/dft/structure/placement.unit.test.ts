import assert from 'node:assert/strict';
import { DftScienceError } from '../../../../../src/core/dft/scienceError';
import { MOLECULE_NAMES, molecule, moleculeInBox } from '../../../../../src/core/dft/structure/molecules';
import { placeAdsorbate } from '../../../../../src/core/dft/structure/placement';
import { adsorptionSite } from '../../../../../src/core/dft/structure/sites';
import { slab } from '../../../../../src/core/dft/structure/surface';
import { distance, dot, norm, sub } from '../../../../../src/core/dft/structure/vec';
import type { Vec3 } from '../../../../../src/core/dft/types';

const angleDeg = (a: Vec3, centre: Vec3, b: Vec3) => {
  const u = sub(a, centre);
  const v = sub(b, centre);
  return (Math.acos(dot(u, v) / (norm(u) * norm(v))) * 180) / Math.PI;
};
const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

const A_PT = 3.92;
const pt111 = () => slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: A_PT, size: [3, 3], layers: 4, vacuumAngstrom: 10, fixedLayers: 2 });
const R = { C: 0.76, O: 0.66, Pt: 1.36, N: 0.71, H: 0.31 };

describe('molecule table', () => {
  it('has the experimental bond lengths and angles it cites', () => {
    const co = molecule('CO');
    close(distance(co.positions[0], co.positions[1]), 1.1283, 1e-12, 'CO r_e');
    const h2o = molecule('H2O');
    close(distance(h2o.positions[0], h2o.positions[1]), 0.9572, 1e-12, 'OH in H2O');
    close(angleDeg(h2o.positions[1], h2o.positions[0], h2o.positions[2]), 104.52, 1e-9, 'HOH');
    const nh3 = molecule('NH3');
    for (const [i, j] of [
      [1, 2],
      [2, 3],
      [1, 3],
    ])
      close(angleDeg(nh3.positions[i], nh3.positions[0], nh3.positions[j]), 106.7, 1e-9, 'HNH');
    close(distance(nh3.positions[0], nh3.positions[3]), 1.012, 1e-12, 'NH in NH3');
    const ch3 = molecule('CH3');
    close(angleDeg(ch3.positions[1], ch3.positions[0], ch3.positions[2]), 109.4712, 1e-4, 'HCH');
    const nnh = molecule('NNH');
    close(angleDeg(nnh.positions[0], nnh.positions[1], nnh.positions[2]), 116, 1e-9, 'NNH');
  });

  it('puts the anchor first at the origin with the molecule above it', () => {
    for (const name of MOLECULE_NAMES) {
      const m = molecule(name);
      assert.deepEqual(m.positions[0], [0, 0, 0], name);
      assert.ok(
        m.positions.every((p) => p[2] >= 0),
        `${name} points up`,
      );
      assert.ok(m.source.length > 0);
    }
    assert.ok(
      ['CO', 'O', 'H', 'OH', 'N', 'N2', 'NO', 'H2O', 'NH3', 'NH', 'NH2', 'CH3', 'CH2', 'CH', 'C', 'NNH'].every((n) =>
        MOLECULE_NAMES.includes(n),
      ),
    );
    assert.throws(
      () => molecule('CO3'),
      (e: unknown) => e instanceof DftScienceError && /no molecule "CO3".*CO, NO/.test(e.message),
    );
  });
});

describe('gas-phase references in a box', () => {
  it('centres the molecule in a cubic periodic box and keeps its geometry', () => {
    const box = moleculeInBox('H2O', 10);
    assert.deepEqual(box.cell, [
      [10, 0, 0],
      [0, 10, 0],
      [0, 0, 10],
    ]);
    assert.deepEqual(box.pbc, [true, true, true]);
    const lo = [0, 1, 2].map((k) => Math.min(...box.positions.map((p) => p[k])));
    const hi = [0, 1, 2].map((k) => Math.max(...box.positions.map((p) => p[k])));
    for (let k = 0; k < 3; k++) close(lo[k] + hi[k], 10, 1e-12, `centred along ${k}`);
    close(angleDeg(box.positions[1], box.positions[0], box.positions[2]), 104.52, 1e-9, 'HOH kept');
    assert.throws(() => moleculeInBox('CO', 4), /less than 4 Å between images of CO/);
  });
});

describe('placing adsorbates', () => {
  it('CO upright on top: C over the Pt atom at r_C + r_Pt, O above, tagged 0 and free', () => {
    const s = pt111();
    const p = placeAdsorbate(s, { adsorbate: 'CO', site: 'ontop' });
    const n = s.symbols.length;
    assert.deepEqual(p.structure.symbols.slice(n), ['C', 'O']);
    assert.deepEqual(p.structure.tags!.slice(n), [0, 0]);
    assert.deepEqual(p.structure.fixed!.slice(n), [false, false]);
    assert.equal(p.anchorIndex, n);
    close(p.heightAngstrom, R.C + R.Pt, 1e-12, 'height on top');
    const c = p.structure.positions[n];
    const o = p.structure.positions[n + 1];
    const site = adsorptionSite(s, 'ontop').position;
    close(c[0], site[0], 1e-12, 'x');
    close(c[1], site[1], 1e-12, 'y');
    close(o[2] - c[2], 1.1283, 1e-12, 'C–O along z');
    close(p.tightestPair.distanceAngstrom, R.C + R.Pt, 1e-9, 'C–Pt');
    assert.equal(p.structure.info?.site, 'ontop');
    assert.equal(p.structure.info?.adsorbate, 'CO');
  });

  it('CO in the fcc hollow touches its three Pt neighbours at the covalent sum', () => {
    const s = pt111();
    const p = placeAdsorbate(s, { adsorbate: 'CO', site: 'fcc' });
    const c = p.structure.positions[p.anchorIndex];
    const rho = A_PT / Math.SQRT2 / Math.sqrt(3);
    close(p.heightAngstrom, Math.sqrt((R.C + R.Pt) ** 2 - rho ** 2), 1e-9, 'hollow height');
    const top = s.positions
      .filter((_, i) => s.tags![i] === 1)
      .map((q) => distance(q, c))
      .sort((x, y) => x - y);
    close(top[0], R.C + R.Pt, 1e-9, 'C–Pt 1');
    close(top[2], R.C + R.Pt, 1e-9, 'C–Pt 3');
    assert.ok(top[3] > top[2] + 0.5);
  });

  it('flipped CO binds through O; flat CO lies parallel; tilted CO leans by the angle', () => {
    const s = pt111();
    const n = s.symbols.length;
    const flipped = placeAdsorbate(s, { adsorbate: 'CO', site: 'ontop', orientation: { kind: 'flipped' } });
    assert.equal(flipped.structure.symbols[flipped.anchorIndex], 'O');
    close(flipped.heightAngstrom, R.O + R.Pt, 1e-12, 'O-down height');
    assert.ok(flipped.structure.positions[n][2] > flipped.structure.positions[n + 1][2], 'C above O');

    const flat = placeAdsorbate(s, { adsorbate: 'CO', site: 'bridge', orientation: { kind: 'flat' } });
    close(flat.structure.positions[n][2], flat.structure.positions[n + 1][2], 1e-12, 'flat: same height');
    // no atom closer than its covalent sum, and the closest pair touches
    close(flat.tightestPair.distanceAngstrom, flat.tightestPair.covalentSumAngstrom, 1e-9, 'flat touching pair');

    const tilted = placeAdsorbate(s, { adsorbate: 'CO', site: 'ontop', orientation: { kind: 'tilted', angleDeg: 30, axis: [0, 1, 0] } });
    const axis = sub(tilted.structure.positions[n + 1], tilted.structure.positions[n]);
    close((Math.acos(axis[2] / norm(axis)) * 180) / Math.PI, 30, 1e-9, 'tilt from the normal');
    assert.ok(axis[0] > 0 && Math.abs(axis[1]) < 1e-12, 'tilt about y moves O along +x');
    assert.equal(tilted.structure.info?.orientation, 'tilted 30°');
    assert.throws(
      () => placeAdsorbate(s, { adsorbate: 'CO', site: 'ontop', orientation: { kind: 'tilted', angleDeg: 30, axis: [0, 0, 1] } }),
      /surface plane/,
    );
  });

  it('keeps every adsorbate atom at least the covalent sum from the slab (NH3 in a hollow)', () => {
    const s = pt111();
    for (const site of ['ontop', 'bridge', 'fcc', 'hcp'] as const) {
      const p = placeAdsorbate(s, { adsorbate: 'NH3', site, orientation: { kind: 'tilted', angleDeg: 60 } });
      assert.ok(p.tightestPair.distanceAngstrom >= p.tightestPair.covalentSumAngstrom - 1e-9, `${site}: ${JSON.stringify(p.tightestPair)}`);
      close(p.tightestPair.distanceAngstrom, p.tightestPair.covalentSumAngstrom, 1e-9, `${site} touches`);
    }
  });

  it('honours an explicit height and refuses one that leaves the cell', () => {
    const s = pt111();
    const p = placeAdsorbate(s, { adsorbate: 'O', site: 'hcp', heightAngstrom: 1.2 });
    close(p.structure.positions[p.anchorIndex][2] - adsorptionSite(s, 'hcp').position[2], 1.2, 1e-12, 'height');
    assert.throws(() => placeAdsorbate(s, { adsorbate: 'CO', site: 'ontop', heightAngstrom: 30 }), /stick out of the cell.*more vacuum/);
    assert.throws(() => placeAdsorbate(s, { adsorbate: 'CO', site: 'hollow' }), /fcc111 surface has no "hollow" site/);
  });
});
