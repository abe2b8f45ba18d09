import assert from 'node:assert/strict';
import { adsorptionEnergy, sitePreference, type AdsorptionInputs } from '../../../../src/core/dft/adsorption';
import { ensembleDeltaBindingEnergy, ensembleStatistics, histogram } from '../../../../src/core/dft/beef';
import { DftScienceError } from '../../../../src/core/dft/scienceError';
import type { PhysicalSettings } from '../../../../src/core/dft/types';

const slabSettings: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 40,
  ecutrhoRy: 400,
  pseudopotentials: {
    Pt: { file: 'Pt.pbe-n-rrkjus_psl.1.0.0.UPF' },
    C: { file: 'C.pbe-n-rrkjus_psl.1.0.0.UPF' },
    O: { file: 'O.pbe-n-rrkjus_psl.1.0.0.UPF' },
  },
  kMesh: [6, 6, 1],
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 1,
};
// CO in a box at Γ: same physics but its own k sampling, no Pt
const gasSettings: PhysicalSettings = {
  ...slabSettings,
  kMesh: [1, 1, 1],
  pseudopotentials: { C: slabSettings.pseudopotentials.C, O: slabSettings.pseudopotentials.O },
};

const inputs = (slabAds: number, over: Partial<PhysicalSettings> = {}): AdsorptionInputs => ({
  slabWithAdsorbate: { energyEv: slabAds, settings: { ...slabSettings, ...over }, label: 'a-7' },
  slab: { energyEv: -1000, settings: slabSettings, label: 'a-3' },
  adsorbate: { energyEv: -600, settings: gasSettings, label: 'a-5' },
});

describe('adsorption energy and site preference', () => {
  it('E_ads = E(slab+ads) − E(slab) − E(ads), negative for binding', () => {
    const r = adsorptionEnergy(inputs(-1601.5));
    assert.equal(r.ok, true);
    if (r.ok) assert.ok(Math.abs(r.adsorptionEnergyEv - -1.5) < 1e-12, `${r.adsorptionEnergyEv}`);
  });

  it('ΔBE = E_ads(ontop) − E_ads(fcc): positive when the fcc hollow binds more strongly', () => {
    const fccFavoured = sitePreference({ ontop: inputs(-1601.4), fcc: inputs(-1601.6) });
    assert.equal(fccFavoured.ok, true);
    if (!fccFavoured.ok) return;
    assert.ok(Math.abs(fccFavoured.deltaBindingEnergyEv - 0.2) < 1e-9);
    assert.equal(fccFavoured.favouredSite, 'fcc');
    assert.ok(Math.abs(fccFavoured.ontopAdsorptionEnergyEv - -1.4) < 1e-9);
    const ontopFavoured = sitePreference({ ontop: inputs(-1601.7), fcc: inputs(-1601.6) });
    assert.equal(ontopFavoured.ok && ontopFavoured.favouredSite, 'ontop');
    assert.ok(ontopFavoured.ok && ontopFavoured.deltaBindingEnergyEv < 0);
  });

  it('returns which settings differ instead of a number when energies are not comparable', () => {
    const r = adsorptionEnergy(inputs(-1601.5, { ecutwfcRy: 30, ecutrhoRy: 300 }));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.mismatches[0].between, ['slab+adsorbate (a-7)', 'slab (a-3)']);
    assert.deepEqual(
      r.mismatches[0].differences.map((d) => d.setting),
      ['ecutwfcRy', 'ecutrhoRy'],
    );
    assert.match(r.message, /wavefunction cutoff: 30 Ry vs 40 Ry/);
    assert.equal('adsorptionEnergyEv' in r, false);
  });

  it('lets the gas-phase reference differ in k sampling but not in functional or shared pseudopotentials', () => {
    assert.equal(adsorptionEnergy(inputs(-1601.5)).ok, true);
    const lda = inputs(-1601.5);
    lda.adsorbate.settings = { ...gasSettings, functional: 'LDA' };
    const r = adsorptionEnergy(lda);
    assert.equal(r.ok, false);
    if (!r.ok)
      assert.deepEqual(
        r.mismatches.flatMap((m) => m.differences.map((d) => d.setting)),
        ['functional'],
      );
    const otherPp = inputs(-1601.5);
    otherPp.adsorbate.settings = {
      ...gasSettings,
      pseudopotentials: { ...gasSettings.pseudopotentials, O: { file: 'O.pz-n-rrkjus_psl.1.0.0.UPF' } },
    };
    const r2 = adsorptionEnergy(otherPp);
    assert.ok(!r2.ok && r2.mismatches[0].differences[0].setting === 'pseudopotentials.O');
    // the two slab energies of a site comparison must share k sampling
    const s = sitePreference({ ontop: inputs(-1601.4), fcc: inputs(-1601.6, { kMesh: [4, 4, 1] }) });
    assert.ok(!s.ok && s.mismatches.some((m) => m.differences.some((d) => d.setting === 'kMesh')));
    // functional names compare case-insensitively, as QE spells them either way
    assert.equal(adsorptionEnergy(inputs(-1601.5, { functional: 'pbe' })).ok, true);
  });

  it('rejects a missing or non-finite energy, naming it', () => {
    const bad = inputs(Number.NaN);
    assert.throws(
      () => adsorptionEnergy(bad),
      (e: unknown) => e instanceof DftScienceError && /slabWithAdsorbate energy/.test(e.message),
    );
  });
});

describe('BEEF ensemble statistics', () => {
  it('mean, population σ, extremes and the fraction favouring fcc', () => {
    const s = ensembleStatistics([0.1, 0.3, -0.1, 0.5]);
    assert.ok(Math.abs(s.meanEv - 0.2) < 1e-12);
    // deviations 0.1, 0.1, 0.3, 0.3 -> variance (0.01+0.01+0.09+0.09)/4 = 0.05
    assert.ok(Math.abs(s.sigmaEv - Math.sqrt(0.05)) < 1e-12);
    assert.equal(s.fractionPositive, 0.75);
    assert.equal(s.minEv, -0.1);
    assert.equal(s.maxEv, 0.5);
    assert.equal(s.count, 4);
  });

  it('forms ΔBE member by member, with or without separate clean slabs', () => {
    const d = ensembleDeltaBindingEnergy({ ontopSlabWithAdsorbateEv: [-10, -11], fccSlabWithAdsorbateEv: [-10.2, -10.9] });
    assert.ok(Math.abs(d[0] - 0.2) < 1e-12 && Math.abs(d[1] - -0.1) < 1e-12);
    const withSlabs = ensembleDeltaBindingEnergy({
      ontopSlabWithAdsorbateEv: [-10],
      fccSlabWithAdsorbateEv: [-10.2],
      ontopSlabEv: [-5],
      fccSlabEv: [-5.05],
    });
    assert.ok(Math.abs(withSlabs[0] - 0.15) < 1e-12);
    assert.throws(
      () => ensembleDeltaBindingEnergy({ ontopSlabWithAdsorbateEv: [1, 2], fccSlabWithAdsorbateEv: [1] }),
      /ensembles differ in size: ontopSlabWithAdsorbateEv 2, fccSlabWithAdsorbateEv 1/,
    );
    assert.throws(
      () => ensembleDeltaBindingEnergy({ ontopSlabWithAdsorbateEv: [1], fccSlabWithAdsorbateEv: [1], ontopSlabEv: [1] }),
      /both ontopSlabEv and fccSlabEv/,
    );
  });

  it('bins every value once into equal-width bins', () => {
    const values = Array.from({ length: 2000 }, (_, k) => Math.sin(k) * 0.1);
    const bins = histogram(values, 40);
    assert.equal(bins.length, 40);
    assert.equal(
      bins.reduce((s, b) => s + b.count, 0),
      2000,
    );
    assert.equal(bins[0].fromEv, Math.min(...values));
    assert.equal(bins[39].toEv, Math.max(...values));
    const widths = bins.map((b) => b.toEv - b.fromEv);
    assert.ok(Math.max(...widths) - Math.min(...widths) < 1e-12);
    // a value on an inner edge goes to the bin it opens
    const edge = histogram([0, 0.5, 1], 2);
    assert.deepEqual(
      edge.map((b) => b.count),
      [1, 2],
    );
    assert.deepEqual(
      histogram([0.2, 0.2], 3).reduce((s, b) => s + b.count, 0),
      2,
    );
    assert.throws(() => histogram([1, Number.NaN], 4), /member 1 is NaN/);
    assert.throws(() => histogram([1, 2], 0), /bin count 0/);
  });
});
