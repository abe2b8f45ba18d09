/**
 * What an adsorption search reads besides its arguments: the reference energies with the
 * relaxations beside them, the calculator as the summarizer states it, and where the slab
 * came from.
 */
import type { CatalogueContext } from '../services';
import type { EnergyReferences } from '../../adsorption/references';
import type { CalculatorSettings, RelaxResult } from '../../calculators/types';
import type { PhysicalSettings, Structure } from '../../dft/types';
import type { ProvenanceView } from '../../provenance/view';
import type { EnergyMeta } from '../../artifacts/shapes';
import { energyInputs } from '../energyInputs';
import type { CalculatorArgs } from '../../calculators/fromArguments';

export function referencesOf(
  ctx: CatalogueContext,
  view: ProvenanceView,
  a: Pick<CalculatorArgs, 'calculator' | 'kMesh' | 'kSpacingPerAngstrom' | 'fmaxEvPerAngstrom'> & {
    cleanSlabEnergy: string;
    gasPhaseEnergy: string;
  },
  adsorbate: string,
): { references: EnergyReferences; metas: [EnergyMeta, EnergyMeta] } {
  const [clean, gas] = energyInputs(ctx, [a.cleanSlabEnergy, a.gasPhaseEnergy], 'adsorption_search');
  const asRelax = (e: NonNullable<typeof clean>): RelaxResult => {
    const r = (e.meta.relaxation ?? {}) as {
      steps?: number;
      converged?: boolean;
      fmaxEvPerAngstrom?: number;
      optimizer?: RelaxResult['optimizer'];
    };
    // The relaxed structure the same call recorded beside the energy.
    const structure = view
      .call(e.artifact.creator)
      ?.outputs.map((id) => view.artifact(id))
      .find((x) => x?.kind === 'structure')?.value as Structure | undefined;
    if (!structure)
      throw new Error(
        `adsorption_search: ${e.ref} has no relaxed structure recorded beside it; reference an energy made by relax_structure.`,
      );
    return {
      structure,
      energyEv: e.energyEv,
      forcesEvPerAngstrom: [],
      fmaxEvPerAngstrom: r.fmaxEvPerAngstrom ?? 0,
      steps: r.steps ?? 0,
      converged: r.converged ?? true,
      energyTraceEv: [],
      optimizer: r.optimizer ?? 'FIRE',
    };
  };
  return {
    references: {
      cleanSlabEv: clean!.energyEv,
      gasPhaseEv: gas!.energyEv,
      cleanSlab: asRelax(clean!),
      gasPhase: asRelax(gas!),
      description: `E_ads = E(slab+${adsorbate}) − E(relaxed clean slab, ${a.cleanSlabEnergy}) − E(relaxed gas-phase ${adsorbate} in a box, ${a.gasPhaseEnergy})`,
    },
    metas: [clean!.meta, gas!.meta],
  };
}

/** The calculator as the summarizer states it: method, whether it is for final numbers, the settings that matter. */
export function calculatorSettings(
  a: Pick<CalculatorArgs, 'calculator' | 'kMesh' | 'kSpacingPerAngstrom' | 'fmaxEvPerAngstrom'> & {
    cleanSlabEnergy: string;
    gasPhaseEnergy: string;
  },
  settings: PhysicalSettings,
): CalculatorSettings {
  if (a.calculator === 'ipi')
    return {
      method: 'ipi',
      production: false,
      details: { calculator: String(settings.extra?.ipiCalculator ?? ''), fmaxEvPerAngstrom: a.fmaxEvPerAngstrom },
    };
  if (a.calculator === 'emt')
    return { method: 'emt', production: false, details: { parameters: String(settings.extra?.parameters ?? 'EMT') } };
  return {
    method: 'pw.x',
    production: true,
    details: {
      functional: settings.functional,
      ecutwfcRy: settings.ecutwfcRy,
      ecutrhoRy: settings.ecutrhoRy,
      kPoints: a.kMesh ? a.kMesh.join('×') : `spacing ${a.kSpacingPerAngstrom} 1/Å`,
      occupations: settings.occupations,
      ...(settings.smearing ? { smearing: `${settings.smearing} ${settings.degaussRy} Ry` } : {}),
      pseudopotentials: Object.entries(settings.pseudopotentials)
        .map(([el, p]) => `${el}:${p.file}`)
        .join(' '),
      fmaxEvPerAngstrom: a.fmaxEvPerAngstrom,
    },
  };
}

/** Where the slab came from, as the report states it: the standardised slab and the artifact it was made from. */
export function slabSource(view: ProvenanceView, ref: string): string {
  const std = view.artifact(ref.split('.')[0]!);
  const original = std?.inputs.map((r) => view.artifact(r.split('.')[0]!)).find((x) => x?.kind === 'structure');
  if (!original) return ref;
  const tool = view.call(original.creator)?.tool ?? 'an unknown call';
  const source = original.meta?.source ? `, ${String(original.meta.source)}` : '';
  return `${original.id} by ${tool}${source}; standardised as ${std!.id}`;
}
