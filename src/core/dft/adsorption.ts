/**
 * Adsorption energies and site preference.
 *
 *   E_ads = E(slab+ads) − E(slab) − E(ads)          (negative: binding)
 *   ΔBE   = E_ads(ontop) − E_ads(fcc)               (positive: the fcc hollow is favoured)
 *
 * An energy difference means something only when the energies were computed with the same
 * physical settings. The slab and the slab+adsorbate must agree in every setting; the
 * gas-phase adsorbate (a molecule in a box, usually at Γ) must agree in all but k-point
 * sampling, and in the pseudopotentials of the elements it shares with the slab. When
 * they do not, no number is returned: the result lists the settings that differ.
 */
import { DftScienceError } from './scienceError';
import { settingsDifferences, type NamedDifference } from './qe/settings';
import type { SettingName } from './settingsComparison';
import type { PhysicalSettings } from './types';

export interface SettledEnergy {
  /** Total energy, eV. */
  energyEv: number;
  settings: PhysicalSettings;
  /** What the energy is (artifact reference, job id), carried into messages. */
  label?: string;
}

export interface AdsorptionInputs {
  slabWithAdsorbate: SettledEnergy;
  slab: SettledEnergy;
  /** The gas-phase reference of the adsorbate (or the sum of references, e.g. ½ O2). */
  adsorbate: SettledEnergy;
}

export interface SettingsMismatch {
  ok: false;
  /** Each pair of energies that may not be combined, and how they differ. */
  mismatches: { between: [string, string]; differences: NamedDifference[] }[];
  message: string;
}

export type AdsorptionEnergy = { ok: true; adsorptionEnergyEv: number } | SettingsMismatch;
export type SitePreference =
  | {
      ok: true;
      /** E_ads(ontop) − E_ads(fcc), eV; positive means the fcc hollow binds more strongly. */
      deltaBindingEnergyEv: number;
      ontopAdsorptionEnergyEv: number;
      fccAdsorptionEnergyEv: number;
      favouredSite: 'fcc' | 'ontop' | 'neither';
    }
  | SettingsMismatch;

const K_SAMPLING: SettingName[] = ['kSpacingPerAngstrom', 'kMesh', 'kShift'];

export function adsorptionEnergy(inputs: AdsorptionInputs): AdsorptionEnergy {
  checkEnergies(inputs);
  const mismatch = findMismatches(
    [
      ['slab+adsorbate', inputs.slabWithAdsorbate],
      ['slab', inputs.slab],
    ],
    [['adsorbate', inputs.adsorbate]],
  );
  if (mismatch) return mismatch;
  return { ok: true, adsorptionEnergyEv: inputs.slabWithAdsorbate.energyEv - inputs.slab.energyEv - inputs.adsorbate.energyEv };
}

export function sitePreference(inputs: { ontop: AdsorptionInputs; fcc: AdsorptionInputs }): SitePreference {
  checkEnergies(inputs.ontop, 'ontop ');
  checkEnergies(inputs.fcc, 'fcc ');
  const mismatch = findMismatches(
    [
      ['ontop slab+adsorbate', inputs.ontop.slabWithAdsorbate],
      ['ontop slab', inputs.ontop.slab],
      ['fcc slab+adsorbate', inputs.fcc.slabWithAdsorbate],
      ['fcc slab', inputs.fcc.slab],
    ],
    [
      ['ontop adsorbate', inputs.ontop.adsorbate],
      ['fcc adsorbate', inputs.fcc.adsorbate],
    ],
  );
  if (mismatch) return mismatch;
  const eOntop = (adsorptionEnergy(inputs.ontop) as { adsorptionEnergyEv: number }).adsorptionEnergyEv;
  const eFcc = (adsorptionEnergy(inputs.fcc) as { adsorptionEnergyEv: number }).adsorptionEnergyEv;
  const delta = eOntop - eFcc;
  return {
    ok: true,
    deltaBindingEnergyEv: delta,
    ontopAdsorptionEnergyEv: eOntop,
    fccAdsorptionEnergyEv: eFcc,
    favouredSite: delta > 0 ? 'fcc' : delta < 0 ? 'ontop' : 'neither',
  };
}

/** Periodic energies must match in everything; gas-phase references in all but k sampling. */
function findMismatches(periodic: [string, SettledEnergy][], gas: [string, SettledEnergy][]): SettingsMismatch | undefined {
  const [refName, ref] = periodic[0];
  const mismatches: SettingsMismatch['mismatches'] = [];
  const name = (n: string, e: SettledEnergy) => (e.label ? `${n} (${e.label})` : n);
  for (const [n, e] of periodic.slice(1)) {
    const d = settingsDifferences(ref.settings, e.settings);
    if (d.length) mismatches.push({ between: [name(refName, ref), name(n, e)], differences: d });
  }
  for (const [n, e] of gas) {
    const d = settingsDifferences(ref.settings, e.settings, K_SAMPLING);
    if (d.length) mismatches.push({ between: [name(refName, ref), name(n, e)], differences: d });
  }
  for (let i = 1; i < gas.length; i++) {
    const d = settingsDifferences(gas[0][1].settings, gas[i][1].settings);
    if (d.length) mismatches.push({ between: [name(...gas[0]), name(...gas[i])], differences: d });
  }
  if (mismatches.length === 0) return undefined;
  const lines = mismatches.map((m) => `${m.between[0]} vs ${m.between[1]}: ` + m.differences.map((d) => d.description).join(', '));
  return {
    ok: false,
    mismatches,
    message:
      `these energies were computed with different physical settings, so their difference is not meaningful: ${lines.join('; ')}. ` +
      'Recompute the odd ones out with matching settings.',
  };
}

function checkEnergies(inputs: AdsorptionInputs, prefix = ''): void {
  for (const key of ['slabWithAdsorbate', 'slab', 'adsorbate'] as const) {
    const e = inputs?.[key];
    if (!e || !Number.isFinite(e.energyEv) || !e.settings) {
      throw new DftScienceError(
        `${prefix}${key} energy is missing or not a finite number in eV (${JSON.stringify(e?.energyEv)}), or has no settings. ` +
          'Pass { energyEv, settings } for the slab with adsorbate, the clean slab and the gas-phase adsorbate.',
        { key: `${prefix}${key}` },
      );
    }
  }
}
