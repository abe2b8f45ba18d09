/**
 * BEEF-vdW ensemble uncertainty of a site preference: the adsorbate on the top and fcc
 * sites relaxed (with the site-preference steps), the 2,000-member BEEF-vdW ensemble
 * computed on both relaxed geometries, and the distribution of ΔBE over the members —
 * its mean, σ and the share of members on each side of zero — with a histogram.
 */
import { REPORT_STEP } from './adsorptionSitePreference';
import { resolveSitePreferenceInputs, SITE_PREFERENCE_INPUT_SCHEMA } from './sitePreference/inputs';
import { sitePreferenceSteps } from './sitePreference/steps';
import { BEEF_COMPOSERS } from './beef/report';
import { beefEnsembleSteps, type BeefInputs } from './beef/steps';
import { defineWorkflow } from './defineWorkflow';
import { ObjectiveError } from './types';

const { properties, ...schemaRest } = SITE_PREFERENCE_INPUT_SCHEMA;

export const BEEF_INPUT_SCHEMA = {
  ...schemaRest,
  properties: {
    ...properties,
    functional: {
      type: 'string',
      enum: ['PBE'],
      description: 'Functional of the relaxations (PBE: BEEF-vdW runs on PBE pseudopotentials).',
    },
    adsorptionEnergies: {
      type: 'boolean',
      description:
        'Also relax the clean slab and the gas-phase molecule and report E_ads and ΔBE with the relaxation functional (default true).',
    },
  },
} as const;

export const BEEF_ENSEMBLE = defineWorkflow({
  id: 'beef-ensemble',
  title: 'BEEF-vdW ensemble of a site preference',
  description:
    'The distribution of ΔBE = E_ads(ontop) − E_ads(fcc) over the 2,000 BEEF-vdW ensemble functionals on the relaxed adsorbed ' +
    'states: mean, σ, range and the fraction of members favouring fcc, with a histogram. The geometries come from the ' +
    "site-preference steps (PBE); each is recomputed with calculation='ensemble' and input_dft='BEEF-vdW' (pw.x 6.7). " +
    'Inputs: those of adsorption-site-preference, and whether to also compute the PBE adsorption energies.',
  inputSchema: BEEF_INPUT_SCHEMA,
  resolveInputs: (raw, env): BeefInputs => {
    const { adsorptionEnergies, ...rest } = raw;
    const resolved = resolveSitePreferenceInputs(rest, env);
    const withRefs = adsorptionEnergies ?? true;
    if (!withRefs && (resolved.slab.layers.length > 1 || resolved.slab.vacuumAngstrom.length > 1)) {
      throw new ObjectiveError(
        'inputs.adsorptionEnergies is false but inputs.slab sweeps layers or vacuum, which compares ΔBE from adsorption energies; give one layer count and one vacuum, or keep adsorptionEnergies.',
      );
    }
    return { ...resolved, adsorptionEnergies: withRefs };
  },
  steps: (i) => {
    const site = sitePreferenceSteps(i, { withReferences: i.adsorptionEnergies });
    const quantities = ['beef_ensemble', ...(i.adsorptionEnergies ? ['delta_be', 'adsorption_energy'] : [])];
    return [
      ...site.steps,
      ...beefEnsembleSteps(i, site.relaxed),
      REPORT_STEP(quantities, ['beef-stats', ...(i.adsorptionEnergies ? ['site-preference'] : [])]),
    ];
  },
  objective: (i) =>
    `BEEF-vdW ensemble of ΔBE for ${i.adsorbate}/${i.metal}(${i.facet.replace(/^[a-z]+/, '')}) p(${i.size.join('×')}) on ${i.functional}-relaxed geometries`,
  composers: BEEF_COMPOSERS,
});
