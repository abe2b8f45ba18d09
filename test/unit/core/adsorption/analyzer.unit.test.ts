import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { analyseConfiguration } from '../../../../src/core/adsorption/analyzer';
import { ScreenAndRelaxExecutor } from '../../../../src/core/adsorption/executor';
import { placeOnSite } from '../../../../src/core/adsorption/placement';
import { computeReferences } from '../../../../src/core/adsorption/references';
import { prepareSurface } from '../../../../src/core/adsorption/search';
import { findSites, type AdsorptionSite } from '../../../../src/core/adsorption/sites';
import { standardiseSlab } from '../../../../src/core/adsorption/slab';
import { EmtCalculator } from '../../../../src/core/calculators/emt';
import { readExtxyz } from '../../../../src/core/dft/io/extxyz';
import type { Structure, Vec3 } from '../../../../src/core/dft/types';
import { aa20, fcc111 } from './fixtures';

/** Relaxed geometries from a search run (test/fixtures/adsorption/README.md). */
const RELAXED = path.resolve(__dirname, '../../../fixtures/adsorption');

describe('analyzer', () => {
  const std = standardiseSlab(fcc111('Pt'));
  const surface = findSites(std.slab, std.frame);
  const fcc = surface.sites.find((s) => s.hollowType === 'fcc')!;
  const hcp = surface.sites.find((s) => s.hollowType === 'hcp')!;
  const ontop = surface.sites.find((s) => s.kind === 'ontop')!;
  const place = (site: AdsorptionSite, name: string, slab = std) =>
    placeOnSite({
      slab: slab.slab,
      frame: slab.frame,
      site,
      adsorbate: adsorbate(name),
      bindingAtoms: [0],
      orientation: 'upright',
      azimuthDeg: 0,
    });
  const analyse = (relaxed: Structure, planned: AdsorptionSite, e = -1, slab = std, sites = surface) =>
    analyseConfiguration({
      relaxed,
      adsorbateStart: slab.slab.symbols.length,
      frame: slab.frame,
      sites,
      plannedSite: planned,
      adsorptionEnergyEv: e,
    });

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
    const apart = {
      ...placed.structure,
      positions: placed.structure.positions.map((p, i) => (i === n + 1 ? ([o[0] + 1.9, o[1], o[2] + 0.3] as Vec3) : p)),
    };
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
    const lifted = {
      ...placed.structure,
      positions: placed.structure.positions.map((p, i) => (i === n ? ([pt[0], pt[1], pt[2] + r] as Vec3) : p)),
    };
    const weak = analyse(lifted, ontop, -0.3);
    assert.equal(weak.slip, 'desorbed');
    assert.equal(weak.surfaceBondFactor, 1.3);
    const strong = analyse(lifted, ontop, -0.8);
    assert.equal(strong.slip, 'none');
    assert.equal(strong.relaxedSite.kind, 'ontop');
    assert.equal(strong.surfaceBondFactor, 1.45);
  });

  /** The slab with one O atom at `at` (a relaxed structure in which only the adsorbate moved). */
  const withO = (at: Vec3): Structure => ({ ...std.slab, symbols: [...std.slab.symbols, 'O'], positions: [...std.slab.positions, at] });
  const up = (site: AdsorptionSite, h: number): Vec3 => {
    const c = site.centre;
    return [c[0] + h * std.frame.normal[0], c[1] + h * std.frame.normal[1], c[2] + h * std.frame.normal[2]];
  };

  it('an adsorbate bound by its energy but 6 Å above the fcc hollow is desorbed, not in the hollow', () => {
    // 6 Å up: 6.2 Å from the hollow's Pt, 3.1 × the covalent sum (bound by energy only up to 2 × 1.45).
    const far = analyse(withO(up(fcc, 6)), fcc, -1.5);
    assert.deepEqual(far.surfaceBonds[0], []);
    assert.equal(far.relaxedSite.kind, 'desorbed');
    assert.equal(far.slip, 'desorbed');
    assert.equal(far.fingerprint, 'O@desorbed');
    // 3 Å up (1.7 × the covalent sum, no bond by the cutoff): still bound in its hollow by the energy.
    const near = analyse(withO(up(fcc, 3)), fcc, -1.5);
    assert.deepEqual(near.surfaceBonds[0], []);
    assert.equal(near.slip, 'none');
    assert.equal(near.relaxedSite.siteFingerprint, fcc.fingerprint);
  });

  it("an adsorbate carried across the vacuum, under the next image's bottom face or below the slab, is desorbed, not on a site of the top surface", () => {
    const h = (p: Vec3) => p[0] * std.frame.normal[0] + p[1] * std.frame.normal[1] + p[2] * std.frame.normal[2];
    const heights = std.slab.positions.map(h);
    const c = h(std.slab.cell[2]);
    const bottom = Math.min(...heights);
    // 2 Å under the bottom face of the image above, over the fcc hollow's lateral position.
    const underNext = analyse(withO(up(fcc, bottom + c - 2 - h(fcc.centre))), fcc, -1.5);
    assert.equal(underNext.relaxedSite.kind, 'desorbed');
    assert.equal(underNext.slip, 'desorbed');
    // Wrapped into the home cell: 3.5 Å below the bottom layer (no bond by the cutoff, near by distance).
    const below = analyse(withO(up(fcc, bottom - 3.5 - h(fcc.centre))), fcc, -1.5);
    assert.deepEqual(below.surfaceBonds[0], []);
    assert.equal(below.relaxedSite.kind, 'desorbed');
    assert.equal(below.slip, 'desorbed');
  });

  it('an adsorbate bound by its energy over no site of the given sites is named by its nearest atoms, never an ontop of no atom', () => {
    // Only the ontop sites: the fcc hollow's centre is 0.58 × the Pt–Pt distance from every one of them.
    const ontops = { ...surface, sites: surface.sites.filter((s) => s.kind === 'ontop') };
    const a = analyse(withO(up(fcc, 3)), fcc, -1.5, std, ontops);
    assert.deepEqual(a.surfaceBonds[0], []);
    assert.equal(a.relaxedSite.kind, 'hollow');
    assert.deepEqual(
      a.relaxedSite.surfaceAtoms,
      [...fcc.surfaceAtoms].sort((x, y) => x - y),
    );
    assert.equal(a.relaxedSite.siteFingerprint, 'hollow|Pt,Pt,Pt|irregular');
    assert.equal(a.slip, 'geometric');
  });
});

describe('analyzer on relaxed geometries', function () {
  this.timeout(60_000);
  const emt = new EmtCalculator();
  const relaxOn = async (file: string, name: string, pick: (s: AdsorptionSite) => boolean) => {
    const p = prepareSurface(aa20(file));
    const executor = new ScreenAndRelaxExecutor(emt);
    const a = adsorbate(name);
    const refs = await computeReferences(executor, p.slab, a);
    const site = p.surface.sites.find(pick)!;
    const placed = placeOnSite({
      slab: p.slab.slab,
      frame: p.slab.frame,
      site,
      adsorbate: a,
      bindingAtoms: [0],
      orientation: 'upright',
      azimuthDeg: 0,
    });
    const r = await executor.relaxReference(placed.structure, 'configuration', name);
    assert.equal(r.converged, true);
    const adsorptionEnergyEv = r.energyEv - refs.cleanSlabEv - refs.gasPhaseEv;
    return {
      site,
      adsorptionEnergyEv,
      analysis: analyseConfiguration({
        relaxed: r.structure,
        adsorbateStart: placed.adsorbateStart,
        frame: p.slab.frame,
        sites: p.surface,
        plannedSite: site,
        adsorptionEnergyEv,
      }),
    };
  };

  it('CO relaxed to the Pt28–Pt31 bridge midpoint on Pt(111) in a search is a bridge, not a four-atom hollow', () => {
    const read = (f: string) => readExtxyz(fs.readFileSync(path.join(RELAXED, f), 'utf8'));
    const p = prepareSurface(read('pt111-3x3-standardised.extxyz'));
    const relaxed = read('co-pt111-bridge-relaxed.extxyz');
    const bridge = p.surface.sites.find((s) => s.kind === 'bridge' && [...s.surfaceAtoms].sort().join() === '28,31')!;
    const a = analyseConfiguration({
      relaxed,
      adsorbateStart: 36,
      frame: p.slab.frame,
      sites: p.surface,
      plannedSite: bridge,
      adsorptionEnergyEv: -0.532,
    });
    // The two far atoms of the rhombus (Pt29, Pt30) are inside the bond cutoff: counting bonds named it a hollow.
    assert.deepEqual(a.surfaceBonds[0], [28, 29, 30, 31]);
    assert.equal(a.relaxedSite.kind, 'bridge');
    assert.deepEqual(a.relaxedSite.surfaceAtoms, [28, 31]);
    assert.equal(a.relaxedSite.siteFingerprint, bridge.fingerprint);
    assert.equal(a.slip, 'none');
    assert.equal(a.siteChanged, false);
  });

  it('CO relaxed with EMT at a bridge of the AdsMind Pt(111) slab stays a bridge', async () => {
    const { site, analysis } = await relaxOn('09_Pt_111.xyz', 'CO', (s) => s.kind === 'bridge');
    assert.equal(analysis.surfaceBonds[0]!.length, 4);
    assert.equal(analysis.relaxedSite.kind, 'bridge');
    assert.deepEqual(
      analysis.relaxedSite.surfaceAtoms,
      [...site.surfaceAtoms].sort((x, y) => x - y),
    );
    assert.equal(analysis.slip, 'none');
  });

  it('CO in the 4-fold hollow of the AdsMind Pt(100) slab is that 4-fold hollow, though the Pt under it is within the bond cutoff', async () => {
    const { site, analysis } = await relaxOn('10_Pt_100.xyz', 'CO', (s) => s.hollowType === '4fold');
    assert.equal(analysis.surfaceBonds[0]!.length, 5);
    assert.equal(analysis.relaxedSite.kind, 'hollow');
    assert.equal(analysis.relaxedSite.hollowType, '4fold');
    assert.equal(analysis.relaxedSite.siteFingerprint, site.fingerprint);
    assert.equal(analysis.slip, 'none');
  });

  it('H in the Pt(111) hollows with EMT (E_ads about −3.2 eV, H–Pt beyond 1.45 × the covalent sum) is bound in its hollow, not desorbed', async () => {
    for (const hollowType of ['fcc', 'hcp'] as const) {
      const { site, adsorptionEnergyEv, analysis } = await relaxOn('09_Pt_111.xyz', 'H', (s) => s.hollowType === hollowType);
      assert.ok(adsorptionEnergyEv < -3, `E_ads ${adsorptionEnergyEv}`);
      assert.deepEqual(analysis.surfaceBonds[0], []);
      assert.equal(analysis.slip, 'none');
      assert.equal(analysis.relaxedSite.hollowType, hollowType);
      assert.equal(analysis.fingerprint, `H@${site.fingerprint}`);
    }
  });
});
