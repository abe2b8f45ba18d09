/**
 * The exhaustive baseline: every site of the top layer (not one per class), each placed
 * in the best of 4 azimuths by single point and relaxed, with the same executor and
 * analysis as the closed loop.
 */
import type { Adsorbate } from './adsorbate';
import { analyseConfiguration } from './analyzer';
import type { ConfigurationExecutor } from './executor';
import type { Hypothesis } from './hypothesis';
import type { IterationRecord } from './loop';
import { defaultBindingAtom } from './offlinePlanner';
import type { EnergyReferences } from './references';
import type { SurfaceSites } from './sites';
import type { StandardisedSlab } from './slab';

export interface EnumerationResult {
  records: IterationRecord[];
  /** Lowest adsorption energy among valid (not dissociated, not desorbed) configurations. */
  best?: IterationRecord;
  relaxations: number;
}

export async function enumerateSites(args: {
  slab: StandardisedSlab;
  surface: SurfaceSites;
  adsorbate: Adsorbate;
  references: EnergyReferences;
  executor: ConfigurationExecutor;
  signal?: AbortSignal;
}): Promise<EnumerationResult> {
  const { slab, surface, adsorbate, references, executor } = args;
  const binding = defaultBindingAtom(adsorbate);
  const records: IterationRecord[] = [];
  for (const site of surface.sites) {
    const hypothesis: Hypothesis = {
      action: 'propose',
      siteType: site.kind,
      surfaceAtoms: [...site.surfaceAtoms],
      bindingAtoms: [binding],
      orientation: 'upright',
    };
    const exec = await executor.execute({ hypothesis, sites: [site], slab, adsorbate, label: `enumeration: ${site.id}` }, args.signal);
    const r = exec.relaxation;
    const adsorptionEnergyEv = r.energyEv - references.cleanSlabEv - references.gasPhaseEv;
    const analysis = analyseConfiguration({
      relaxed: r.structure,
      adsorbateStart: exec.placed.adsorbateStart,
      frame: slab.frame,
      sites: surface,
      plannedSite: site,
      adsorptionEnergyEv,
    });
    records.push({
      iteration: records.length + 1,
      hypothesis,
      plannedSite: site,
      screenedSiteId: site.id,
      screenedAzimuthDeg: exec.placed.azimuthDeg,
      screening: exec.screening,
      relaxedStructure: r.structure,
      adsorbateStart: exec.placed.adsorbateStart,
      totalEnergyEv: r.energyEv,
      adsorptionEnergyEv,
      relaxSteps: r.steps,
      relaxConverged: r.converged,
      finalFmaxEvPerAngstrom: r.fmaxEvPerAngstrom,
      analysis,
      valid: !analysis.dissociated && analysis.slip !== 'desorbed',
    });
  }
  const valid = records.filter((r) => r.valid);
  const best = valid.reduce<IterationRecord | undefined>((b, r) => (!b || r.adsorptionEnergyEv < b.adsorptionEnergyEv ? r : b), undefined);
  return { records, best, relaxations: records.length };
}
