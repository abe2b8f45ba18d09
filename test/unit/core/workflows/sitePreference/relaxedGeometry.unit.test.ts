import assert from 'node:assert/strict';
import { placeAdsorbate } from '../../../../../src/core/dft/structure/placement';
import { adsorptionSite } from '../../../../../src/core/dft/structure/sites';
import { slab } from '../../../../../src/core/dft/structure/surface';
import type { Structure } from '../../../../../src/core/dft/types';
import { adsorbateGeometry } from '../../../../../src/core/workflows/sitePreference/relaxedGeometry';

const pt = slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.98, size: [2, 2], layers: 3, vacuumAngstrom: 8, fixedLayers: 1 });

describe('where a relaxed adsorbate sits', () => {
  for (const site of ['ontop', 'fcc', 'hcp', 'bridge'] as const) {
    it(`CO placed at ${site} is read as ${site}, with its height and C–O bond`, () => {
      const p = placeAdsorbate(pt, { adsorbate: 'CO', site });
      const g = adsorbateGeometry(p.structure)!;
      assert.equal(g.site, site);
      assert.ok(g.offsetAngstrom < 1e-9);
      assert.ok(Math.abs(g.heightAngstrom - p.heightAngstrom) < 1e-9);
      assert.ok(Math.abs(g.bondAngstrom! - 1.1283) < 1e-9);
    });
  }

  it('a CO that slid from fcc to hcp is reported at hcp, also across the cell boundary', () => {
    const p = placeAdsorbate(pt, { adsorbate: 'CO', site: 'fcc' }).structure;
    const fcc = adsorptionSite(pt, 'fcc').position;
    const hcp = adsorptionSite(pt, 'hcp').position;
    const shift = [hcp[0] - fcc[0] + pt.cell[0][0], hcp[1] - fcc[1]];
    const moved: Structure = {
      ...p,
      positions: p.positions.map((r, i) => (p.tags![i] === 0 ? [r[0] + shift[0]!, r[1] + shift[1]!, r[2]] : r)),
    };
    const g = adsorbateGeometry(moved)!;
    assert.equal(g.site, 'hcp');
    assert.ok(g.offsetAngstrom < 1e-6);
  });
});
