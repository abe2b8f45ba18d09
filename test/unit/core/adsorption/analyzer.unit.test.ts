import assert from 'node:assert/strict';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { analyseConfiguration } from '../../../../src/core/adsorption/analyzer';
import { placeOnSite } from '../../../../src/core/adsorption/placement';
import { findSites, type AdsorptionSite } from '../../../../src/core/adsorption/sites';
import { standardiseSlab } from '../../../../src/core/adsorption/slab';
import type { Structure, Vec3 } from '../../../../src/core/dft/types';
import { aa20, fcc111 } from './fixtures';

describe('analyzer', () => {
  const std = standardiseSlab(fcc111('Pt'));
  const surface = findSites(std.slab, std.frame);
  const fcc = surface.sites.find((s) => s.hollowType === 'fcc')!;
  const hcp = surface.sites.find((s) => s.hollowType === 'hcp')!;
  const ontop = surface.sites.find((s) => s.kind === 'ontop')!;
  const place = (site: AdsorptionSite, name: string, slab = std) =>
    placeOnSite({ slab: slab.slab, frame: slab.frame, site, adsorbate: adsorbate(name), bindingAtoms: [0], orientation: 'upright', azimuthDeg: 0 });
  const analyse = (relaxed: Structure, planned: AdsorptionSite, e = -1, slab = std, sites = surface) =>
    analyseConfiguration({ relaxed, adsorbateStart: slab.slab.symbols.length, frame: slab.frame, sites, plannedSite: planned, adsorptionEnergyEv: e });

  it('a configuration that stays where it was planned: no slip, same site fingerprint', () => {
    const a = analyse(place(fcc, 'O').structure, fcc);
    assert.equal(a.slip, 'none');
    assert.equal(a.relaxedSite.kind, 'hollow');
    assert.equal(a.relaxedSite.hollowType, 'fcc');
    assert.equal(a.relaxedSite.siteFingerprint, fcc.fingerprint);
    assert.equal(a.fingerprint, `O@${fcc.fingerprint}`);
    assert.equal(a.dissociated, false);
  });

  it('planned fcc, relaxed into hcp on a pure metal: a geometric slip, not a chemical one', () => {
    const a = analyse(place(hcp, 'O').structure, fcc);
    assert.equal(a.slip, 'geometric');
    assert.equal(a.relaxedSite.hollowType, 'hcp');
    assert.equal(a.siteChanged, true);
  });

  it('on an alloy, ending on a site of other elements is a chemical slip', () => {
    const alloy = standardiseSlab(aa20('05_Cu3Ag_111.xyz'));
    const sites = findSites(alloy.slab, alloy.frame);
    const withAg = sites.sites.find((s) => s.kind === 'hollow' && s.surfaceAtoms.some((i) => alloy.slab.symbols[i] === 'Ag'))!;
    const allCu = sites.sites.find((s) => s.kind === 'hollow' && s.surfaceAtoms.every((i) => alloy.slab.symbols[i] === 'Cu'))!;
    const a = analyse(place(allCu, 'H', alloy).structure, withAg, -1, alloy, sites);
    assert.equal(a.slip, 'chemical');
    assert.deepEqual(a.relaxedSite.elements, ['Cu', 'Cu', 'Cu']);
  });

  it('dissociation: a fragment more than 1.35 × the covalent sum away', () => {
    const placed = place(ontop, 'OH');
    const n = placed.adsorbateStart;
    const o = placed.structure.positions[n]!;
    const apart = { ...placed.structure, positions: placed.structure.positions.map((p, i) => (i === n + 1 ? ([o[0] + 1.9, o[1], o[2] + 0.3] as Vec3) : p)) };
    const a = analyse(apart, ontop);
    assert.equal(a.dissociated, true);
    assert.equal(a.fragments.length, 2);
    assert.match(a.fingerprint, /\|dissociated$/);
    assert.equal(analyse(placed.structure, ontop).dissociated, false);
  });

  it('surface bonds use 1.30 × the covalent sum, and 1.45 × when E_ads < −0.5 eV', () => {
    const placed = place(ontop, 'O');
    const n = placed.adsorbateStart;
    const pt = ontop.atomPositions[0]!;
    const r = 1.4 * (0.66 + 1.36);
    const lifted = { ...placed.structure, positions: placed.structure.positions.map((p, i) => (i === n ? ([pt[0], pt[1], pt[2] + r] as Vec3) : p)) };
    const weak = analyse(lifted, ontop, -0.3);
    assert.equal(weak.slip, 'desorbed');
    assert.equal(weak.surfaceBondFactor, 1.3);
    const strong = analyse(lifted, ontop, -0.8);
    assert.equal(strong.slip, 'none');
    assert.equal(strong.relaxedSite.kind, 'ontop');
    assert.equal(strong.surfaceBondFactor, 1.45);
  });
});
