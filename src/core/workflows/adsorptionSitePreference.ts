/**
 * Adsorption site preference, CO/Pt(111) style: the bulk lattice constant (given, or
 * computed through the lattice-constant steps), a slab sweep in layers and vacuum on
 * ΔBE, the adsorbate on the top and fcc sites of the chosen slab, relaxations with the
 * bottom layers fixed, adsorption energies from energies with matching settings, and
 * ΔBE = E_ads(ontop) − E_ads(fcc) (positive: fcc favoured). Run it once per functional
 * (PBE, LDA) to compare them.
 */
import { defineWorkflow } from './defineWorkflow';
import type { TemplateStep } from './types';
import {
  resolveSitePreferenceInputs,
  SITE_PREFERENCE_INPUT_SCHEMA,
  sitePreferenceInputsFromText,
  sitePreferenceObjective,
} from './sitePreference/inputs';
import { SITE_PREFERENCE_COMPOSERS } from './sitePreference/report';
import { sitePreferenceSteps } from './sitePreference/steps';

export const REPORT_STEP: (quantities: string[], dependsOn: string[]) => TemplateStep = (quantities, dependsOn) => ({
  id: 'report',
  title: 'Report ΔBE, the adsorption energies and the settings behind them',
  worker: 'dft',
  tool: 'write_report',
  args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
  reasons: {
    title: 'names the study',
    text: 'the result with its sign convention, geometries and settings',
    claims: 'one claim per reported number, each citing its artifact',
  },
  reportQuantities: quantities,
  dependsOn,
});

export const ADSORPTION_SITE_PREFERENCE = defineWorkflow({
  id: 'adsorption-site-preference',
  title: 'Adsorption site preference (CO/Pt(111) style)',
  description:
    'ΔBE = E_ads(ontop) − E_ads(fcc) for an adsorbate on a metal surface (positive: the fcc hollow is favoured). The bulk lattice ' +
    'constant is given or computed (cutoff and k sweeps, EOS); slabs are swept in layers and vacuum on ΔBE (single points); on the ' +
    'chosen slab the clean slab and the adsorbate at the top and fcc sites are relaxed with the bottom layers fixed, the gas-phase ' +
    'molecule in a box; adsorption energies combine only energies with matching settings. Inputs: metal, facet, adsorbate, functional ' +
    '(PBE or LDA), lattice constant or bulk.startingLatticeConstantAngstrom, cutoffs and k-sampling (unless computed), slab sweep.',
  inputSchema: SITE_PREFERENCE_INPUT_SCHEMA,
  inputsFromText: sitePreferenceInputsFromText,
  resolveInputs: resolveSitePreferenceInputs,
  steps: (i) => {
    const { steps } = sitePreferenceSteps(i);
    const quantities = ['delta_be', 'adsorption_energy', ...(i.bulk ? ['lattice_constant', 'converged_cutoff', 'converged_kspacing'] : [])];
    return [...steps, REPORT_STEP(quantities, ['site-preference', 'relaxed-ontop', 'relaxed-fcc'])];
  },
  objective: sitePreferenceObjective,
  composers: SITE_PREFERENCE_COMPOSERS,
});
