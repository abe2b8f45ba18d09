/**
 * The BEEF-vdW ensemble on the relaxed adsorbed states: each relaxed geometry is
 * recomputed with input_dft = 'BEEF-vdW' and calculation = 'ensemble' (pw.x 6.7: an SCF
 * followed by the 2,000 ensemble energies), at the study's settings, and ΔBE is taken
 * member by member. The clean slab and the gas-phase reference are shared by both sites
 * and cancel in ΔBE, so they are not recomputed.
 */
import type { TemplateStep } from '../types';
import { pwInputStep, runStep, SITES, studySettings, type Site } from '../sitePreference/steps';
import type { SitePreferenceInputs } from '../sitePreference/inputs';

/** The BEEF ensemble's resolved inputs: the site preference's, and whether to also compute its adsorption energies. */
export interface BeefInputs extends SitePreferenceInputs {
  adsorptionEnergies: boolean;
}

export function beefEnsembleSteps(i: SitePreferenceInputs, relaxed: Record<Site, string>): TemplateStep[] {
  const s = studySettings(i);
  const steps: TemplateStep[] = [];
  for (const site of SITES) {
    steps.push(
      pwInputStep(
        `beef-${site}-input`,
        `BEEF-vdW ensemble input on the relaxed ${site} geometry`,
        `$step.${relaxed[site]}.relaxed_structure`,
        'ensemble',
        s,
        [relaxed[site]],
        {
          args: { inputDft: 'BEEF-vdW' },
          reasons: {
            structure: `the ${site} geometry relaxed with ${i.functional}`,
            calculation: "pw.x 6.7 prints the 2,000-member ensemble with calculation='ensemble'",
            inputDft: 'BEEF-vdW on the PBE pseudopotentials: its ensemble estimates the functional error',
          },
        },
      ),
    );
  }
  for (const site of SITES) steps.push(runStep(`beef-${site}-run`, `beef-${site}-input`, `BEEF-vdW ensemble, ${site}`));
  steps.push({
    id: 'beef-stats',
    title: 'ΔBE over the 2,000 BEEF-vdW ensemble members',
    worker: 'dft',
    tool: 'beef_ensemble_stats',
    args: { ontopSlabWithAdsorbate: '$step.beef-ontop-run.beef_ensemble', fccSlabWithAdsorbate: '$step.beef-fcc-run.beef_ensemble' },
    reasons: {
      ontopSlabWithAdsorbate: 'the ensemble of the top-site state',
      fccSlabWithAdsorbate: 'the ensemble of the fcc-site state, same settings and members',
    },
    dependsOn: ['beef-ontop-run', 'beef-fcc-run'],
  });
  return steps;
}
