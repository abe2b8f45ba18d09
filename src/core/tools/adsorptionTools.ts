/** adsorption_energy, delta_be, beef_ensemble_stats: energies combined into adsorption results (dft/adsorption, dft/beef). */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { adsorptionEnergy, sitePreference, type AdsorptionInputs, type SettledEnergy } from '../dft/adsorption';
import { ensembleDeltaBindingEnergy, ensembleStatistics } from '../dft/beef';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import { ARTIFACT } from '../artifacts/shapes';
import { energyInputs } from './energyInputs';
import { service, type CatalogueContext } from './services';

const ENERGY = { names: [ARTIFACT.totalEnergy], kinds: ['scalar' as const], unit: 'eV' as const };

function settled(ctx: CatalogueContext, ref: string, tool: string): SettledEnergy {
  const [e] = energyInputs(ctx, [ref], tool);
  return { energyEv: e!.energyEv, settings: e!.meta.settings, label: ref };
}

export const adsorptionEnergyTool = defineTool({
  name: 'adsorption_energy',
  description:
    'E_ads = E(slab+adsorbate) − E(slab) − E(adsorbate in the gas phase), in eV (negative = bound). The slab energies must ' +
    'share every physical setting; the gas reference all but k-sampling.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      slabWithAdsorbate: artifactRefSchema('Total energy of the relaxed slab with the adsorbate.', ENERGY),
      slab: artifactRefSchema('Total energy of the clean relaxed slab.', ENERGY),
      adsorbate: artifactRefSchema('Total energy of the gas-phase adsorbate (molecule in a box).', ENERGY),
    },
    required: ['slabWithAdsorbate', 'slab', 'adsorbate'],
    additionalProperties: false,
  },
  // the energies come from relaxations (slab, slab with adsorbate, molecule): each must be converged
  rules: ['settings-comparable', 'energies-from-production-inputs', 'relaxation-under-thresholds'],
  outputs: [ARTIFACTS.adsorptionEnergy],
  crossParameterJudge: true,
  parameterNotes: { adsorbate: 'the molecule itself (CO for CO adsorption), relaxed in a box of at least 10 Å.' },
  async run(a, ctx) {
    const inputs: AdsorptionInputs = {
      slabWithAdsorbate: settled(ctx, a.slabWithAdsorbate, 'adsorption_energy'),
      slab: settled(ctx, a.slab, 'adsorption_energy'),
      adsorbate: settled(ctx, a.adsorbate, 'adsorption_energy'),
    };
    const r = adsorptionEnergy(inputs);
    if (!r.ok) throw new Error(r.message);
    return {
      artifacts: [
        {
          kind: 'scalar',
          name: ARTIFACT.adsorptionEnergy,
          value: r.adsorptionEnergyEv,
          unit: 'eV',
          meta: { settings: inputs.slab.settings, inputs },
        },
      ],
      summary: `E_ads = ${r.adsorptionEnergyEv.toFixed(4)} eV`,
    };
  },
});

export const deltaBeTool = defineTool({
  name: 'delta_be',
  description:
    'ΔBE = E_ads(ontop) − E_ads(fcc), in eV: positive when the fcc hollow binds more strongly. Both adsorption energies must come from comparable calculations.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      ontop: artifactRefSchema('Adsorption energy at the top site (adsorption_energy output).', {
        names: [ARTIFACT.adsorptionEnergy],
        unit: 'eV',
      }),
      fcc: artifactRefSchema('Adsorption energy at the fcc hollow (adsorption_energy output).', {
        names: [ARTIFACT.adsorptionEnergy],
        unit: 'eV',
      }),
    },
    required: ['ontop', 'fcc'],
    additionalProperties: false,
  },
  rules: ['settings-comparable'],
  outputs: [ARTIFACTS.deltaBe],
  crossParameterJudge: true,
  parameterNotes: { ontop: 'the same adsorbate, slab and settings as fcc, at the top site.' },
  async run(a, ctx) {
    const view = service(ctx, 'provenance', 'delta_be', 'the guard passes the run provenance to every call');
    const inputsOf = (ref: string): AdsorptionInputs => {
      const art = view.artifact(ref.split('.')[0]!);
      const inputs = art?.meta?.inputs as AdsorptionInputs | undefined;
      if (!inputs) throw new Error(`delta_be: ${ref} is not an adsorption energy made by adsorption_energy; reference its output.`);
      return inputs;
    };
    const r = sitePreference({ ontop: inputsOf(a.ontop), fcc: inputsOf(a.fcc) });
    if (!r.ok) throw new Error(r.message);
    return {
      artifacts: [
        {
          kind: 'scalar',
          name: ARTIFACT.deltaBe,
          value: r.deltaBindingEnergyEv,
          unit: 'eV',
          meta: { settings: inputsOf(a.ontop).slab.settings, favouredSite: r.favouredSite },
        },
      ],
      summary: `ΔBE = ${r.deltaBindingEnergyEv.toFixed(4)} eV (E_ads ontop ${r.ontopAdsorptionEnergyEv.toFixed(4)}, fcc ${r.fccAdsorptionEnergyEv.toFixed(4)}): ${r.favouredSite} favoured`,
    };
  },
});

/**
 * pw.x prints each member's deviation from the self-consistent BEEF-vdW energy; a member's
 * total energy is that SCF energy plus its deviation (the total_energy made by the same run).
 */
function memberTotalsEv(ctx: CatalogueContext, ref: string): { totalsEv: number[]; scfEnergyEv: number; energyRef: string } {
  const view = service(ctx, 'provenance', 'beef_ensemble_stats', 'the guard passes the run provenance to every call');
  const id = ref.split('.')[0]!;
  const ensemble = view.artifact(id);
  const deviations = ctx.resolve(ref) as number[];
  const creator = ensemble && view.call(ensemble.creator);
  const energy = creator?.outputs.map((o) => view.artifact(o)).find((a) => a?.name === ARTIFACT.totalEnergy);
  if (!ensemble || !energy || typeof energy.value !== 'number') {
    throw new Error(
      `beef_ensemble_stats: ${ref} has no self-consistent total energy from the same pw.x run; reference the beef_ensemble that run_pw made for a calculation='ensemble' input.`,
    );
  }
  return { totalsEv: deviations.map((d) => (energy.value as number) + d), scfEnergyEv: energy.value, energyRef: energy.id };
}

export const beefEnsembleStatsTool = defineTool({
  name: 'beef_ensemble_stats',
  description:
    'Member-by-member ΔBE = E_i(ontop) − E_i(fcc) over the BEEF-vdW ensemble from the ensemble runs of the two adsorbed states ' +
    "(each member's energy is the run's self-consistent BEEF-vdW energy plus its printed deviation; the shared clean slab and gas " +
    'reference cancel), with mean, σ and the fraction of members favouring fcc (ΔBE > 0).',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      ontopSlabWithAdsorbate: artifactRefSchema('Ensemble energies of the top-site slab+adsorbate (run_pw, calculation ensemble).', {
        names: ['beef_ensemble'],
      }),
      fccSlabWithAdsorbate: artifactRefSchema('Ensemble energies of the fcc-site slab+adsorbate.', { names: ['beef_ensemble'] }),
    },
    required: ['ontopSlabWithAdsorbate', 'fccSlabWithAdsorbate'],
    additionalProperties: false,
  },
  rules: ['settings-comparable'],
  outputs: [ARTIFACTS.beefStats],
  crossParameterJudge: true,
  async run(a, ctx) {
    const ontop = memberTotalsEv(ctx, a.ontopSlabWithAdsorbate);
    const fcc = memberTotalsEv(ctx, a.fccSlabWithAdsorbate);
    const delta = ensembleDeltaBindingEnergy({ ontopSlabWithAdsorbateEv: ontop.totalsEv, fccSlabWithAdsorbateEv: fcc.totalsEv });
    const s = ensembleStatistics(delta);
    const selfConsistentEv = ontop.scfEnergyEv - fcc.scfEnergyEv;
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.beefStats,
          value: { ...s, selfConsistentDeltaBeEv: selfConsistentEv, deltaBeEv: delta },
          inputs: [ontop.energyRef, fcc.energyRef],
        },
      ],
      summary:
        `BEEF ensemble ΔBE: mean ${s.meanEv.toFixed(3)} eV, σ ${s.sigmaEv.toFixed(3)} eV (self-consistent BEEF-vdW ${selfConsistentEv.toFixed(3)} eV), ` +
        `${(s.fractionPositive * 100).toFixed(1)} % of ${s.count} members favour fcc`,
    };
  },
});
