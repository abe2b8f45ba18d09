import assert from 'node:assert/strict';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { COLLISION_FACTOR, placeOnSite } from '../../../../src/core/adsorption/placement';
import { findSites } from '../../../../src/core/adsorption/sites';
import { standardiseSlab } from '../../../../src/core/adsorption/slab';
import { covalentRadiusAngstrom } from '../../../../src/core/dft/structure/covalentRadii';
import type { Vec3 } from '../../../../src/core/dft/types';
import { aa20, fcc111 } from './fixtures';

const d = (p: Vec3, q: Vec3) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

describe('placement', () => {
  const std = standardiseSlab(fcc111('Pt'));
  const { sites } = findSites(std.slab, std.frame);

  it('puts the binding atom at the covalent bond length from every site atom (ontop, bridge, hollow)', () => {
    const co = adsorbate('CO');
    for (const kind of ['ontop', 'bridge', 'hollow'] as const) {
      const site = sites.find((s) => s.kind === kind)!;
      const placed = placeOnSite({
        slab: std.slab,
        frame: std.frame,
        site,
        adsorbate: co,
        bindingAtoms: [0],
        orientation: 'upright',
        azimuthDeg: 0,
      });
      const c = placed.structure.positions[placed.adsorbateStart]!;
      for (const p of site.atomPositions)
        assert.ok(Math.abs(d(c, p) - (covalentRadiusAngstrom('C') + covalentRadiusAngstrom('Pt'))) < 1e-9, `${kind}: C–Pt ${d(c, p)}`);
      // upright: O straight above C along the normal
      const o = placed.structure.positions[placed.adsorbateStart + 1]!;
      assert.ok(Math.abs(o[2] - c[2] - 1.1283) < 1e-9 && Math.hypot(o[0] - c[0], o[1] - c[1]) < 1e-9);
      assert.equal(placed.bumpAngstrom, 0);
      assert.equal(placed.structure.fixed!.length, placed.structure.symbols.length);
    }
  });

  it('follows a tilted surface normal on a tilted AA20 slab', () => {
    const tilted = standardiseSlab(aa20('03_Pd3Cu_111.xyz'));
    const s = findSites(tilted.slab, tilted.frame).sites.find((x) => x.kind === 'ontop')!;
    const placed = placeOnSite({
      slab: tilted.slab,
      frame: tilted.frame,
      site: s,
      adsorbate: adsorbate('OH'),
      bindingAtoms: [0],
      orientation: 'upright',
      azimuthDeg: 0,
    });
    const o = placed.structure.positions[placed.adsorbateStart]!;
    const along = [0, 1, 2].map((k) => o[k]! - s.centre[k]!) as Vec3;
    const cosine =
      (along[0] * tilted.frame.normal[0] + along[1] * tilted.frame.normal[1] + along[2] * tilted.frame.normal[2]) / Math.hypot(...along);
    assert.ok(cosine > 0.999999, `O is not above the atom along the normal (cos ${cosine})`);
    assert.ok(Math.abs(tilted.frame.normal[2]) < 0.95, 'the fixture must have a tilted normal');
  });

  it('raises the adsorbate when an atom would collide, until no pair is closer than 0.8 × the covalent sum', () => {
    const nnh = adsorbate('NNH');
    const site = sites.find((s) => s.kind === 'hollow')!;
    const placed = placeOnSite({
      slab: std.slab,
      frame: std.frame,
      site,
      adsorbate: nnh,
      bindingAtoms: [0],
      orientation: 'flat',
      azimuthDeg: 0,
    });
    assert.ok(placed.bumpAngstrom > 0, 'a flat NNH in a hollow must collide first');
    let worst = Infinity;
    for (let i = placed.adsorbateStart; i < placed.structure.symbols.length; i++) {
      for (let k = 0; k < placed.adsorbateStart; k++) {
        const sum = covalentRadiusAngstrom(placed.structure.symbols[i]!) + covalentRadiusAngstrom('Pt');
        worst = Math.min(worst, d(placed.structure.positions[i]!, placed.structure.positions[k]!) / sum);
      }
    }
    assert.ok(worst >= COLLISION_FACTOR - 1e-9, `closest pair at ${worst.toFixed(3)} × covalent sum`);
  });
});
