// Site preference from real pw.x energies: O on an Al(111) p(1×1) slab in the fcc hollow and
// on top, built by slab() and placeAdsorbate(), with ½ O2 in a box as the gas reference.
// Settings are read back from each generated input; a clean slab run on another k-mesh
// must be refused, naming the mesh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adsorptionEnergy, sitePreference, type SettledEnergy } from '../../src/core/dft/adsorption';
import { meshFromSpacing } from '../../src/core/dft/kpoints';
import { parsePwOutput, physicalSettingsOf, pwInputFromStructure, type KPointsSpec } from '../../src/core/dft/qe';
import { readUpfHeaderFile } from '../../src/core/dft/qe/upfFiles';
import { moleculeInBox } from '../../src/core/dft/structure/molecules';
import { placeAdsorbate } from '../../src/core/dft/structure/placement';
import { slab } from '../../src/core/dft/structure/surface';
import type { Structure } from '../../src/core/dft/types';
import { ryToEv } from '../../src/core/units';
import { PSEUDO_DIR } from './dft-support';

const SPECIES = {
  Al: { massAmu: 26.98, pseudopotential: 'Al.pz-vbc.UPF' },
  O: { massAmu: 15.999, pseudopotential: 'O.pz-rrkjus.UPF' },
};
const K_SPACING = 0.3;

describe('O on Al(111): site preference from pw.x energies', function () {
  this.timeout(600_000);
  let dir: string;
  let runs = 0;
  let seconds = 0;
  const energies: Record<string, SettledEnergy> = {};

  function scf(label: string, structure: Structure, kPoints: KPointsSpec, kSpacingPerAngstrom?: number): SettledEnergy {
    const input = pwInputFromStructure(structure, {
      namelists: {
        CONTROL: { calculation: 'scf', prefix: label, outdir: './tmp', pseudo_dir: PSEUDO_DIR },
        // ultrasoft O: ecutrho = 8 ecutwfc
        SYSTEM: { ecutwfc: 30, ecutrho: 240, occupations: 'smearing', smearing: 'mv', degauss: 0.05 },
        ELECTRONS: { conv_thr: 1e-8 },
      },
      species: Object.fromEntries(Object.entries(SPECIES).filter(([el]) => structure.symbols.includes(el))),
      kPoints,
    });
    fs.writeFileSync(path.join(dir, `${label}.in`), input);
    const t0 = Date.now();
    const out = execFileSync('pw.x', ['-in', `${label}.in`], { cwd: dir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
    seconds += (Date.now() - t0) / 1000;
    runs++;
    const parsed = parsePwOutput(out);
    assert.ok(parsed.scfConverged && parsed.totalEnergyRy !== undefined, `${label}: no converged energy`);
    const upfHeaders = Object.fromEntries(
      Object.values(SPECIES).map((s) => [s.pseudopotential, readUpfHeaderFile(path.join(PSEUDO_DIR, s.pseudopotential))]),
    );
    return {
      energyEv: ryToEv(parsed.totalEnergyRy!),
      settings: physicalSettingsOf(input, {
        codeVersion: parsed.codeVersion,
        upfHeaders,
        ...(kSpacingPerAngstrom ? { kSpacingPerAngstrom } : {}),
      }),
      label,
    };
  }
  const slabScf = (label: string, s: Structure, spacing = K_SPACING) =>
    scf(label, s, { kind: 'automatic', mesh: meshFromSpacing(s.cell, spacing, s.pbc) }, spacing);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-dft-ads-'));
    const clean = slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 3.96, size: [1, 1], layers: 3, vacuumAngstrom: 5, fixedLayers: 1 });
    energies.clean = slabScf('clean', clean);
    energies.fcc = slabScf('o-fcc', placeAdsorbate(clean, { adsorbate: 'O', site: 'fcc' }).structure);
    energies.ontop = slabScf('o-ontop', placeAdsorbate(clean, { adsorbate: 'O', site: 'ontop' }).structure);
    const o2 = scf('o2', moleculeInBox('O2', 8), { kind: 'automatic', mesh: [1, 1, 1] });
    energies.halfO2 = { ...o2, energyEv: o2.energyEv / 2, label: '½ O2' };
    energies.cleanOtherMesh = slabScf('clean-k0.45', clean, 0.45);
  });

  after(() => {
    console.log(`      ${runs} pw.x runs, ${seconds.toFixed(1)} s`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('binds O in the fcc hollow and prefers it to the top site (ΔBE > 0)', () => {
    const fcc = { slabWithAdsorbate: energies.fcc, slab: energies.clean, adsorbate: energies.halfO2 };
    const ontop = { slabWithAdsorbate: energies.ontop, slab: energies.clean, adsorbate: energies.halfO2 };
    const pref = sitePreference({ ontop, fcc });
    assert.ok(pref.ok, pref.ok ? '' : pref.message);
    if (!pref.ok) return;
    // the shared slab and gas reference cancel: ΔBE is the difference of the two slab+O energies
    assert.ok(Math.abs(pref.deltaBindingEnergyEv - (energies.ontop.energyEv - energies.fcc.energyEv)) < 1e-9);
    assert.equal(pref.favouredSite, 'fcc');
    assert.ok(pref.fccAdsorptionEnergyEv < 0, `O binds to Al(111) relative to ½ O2: ${pref.fccAdsorptionEnergyEv} eV`);
    console.log(
      `      E_ads(fcc) ${pref.fccAdsorptionEnergyEv.toFixed(3)} eV, E_ads(ontop) ${pref.ontopAdsorptionEnergyEv.toFixed(3)} eV, ` +
        `ΔBE ${pref.deltaBindingEnergyEv.toFixed(3)} eV (unrelaxed, 1 ML, vs non-spin-polarised ½ O2)`,
    );
  });

  it('refuses to subtract a clean slab computed on another k-mesh, naming the mesh', () => {
    const r = adsorptionEnergy({ slabWithAdsorbate: energies.fcc, slab: energies.cleanOtherMesh, adsorbate: energies.halfO2 });
    assert.equal(r.ok, false);
    if (r.ok) return;
    const mesh = (s: SettledEnergy) => s.settings.kMesh!.join('×');
    assert.match(r.message, new RegExp(`k-point mesh: ${mesh(energies.fcc)} vs ${mesh(energies.cleanOtherMesh)}`));
    assert.ok(r.mismatches[0].differences.some((d) => d.setting === 'kSpacingPerAngstrom'));
  });
});
