/**
 * One adsorption-configuration search end to end: standardise the slab, find its sites,
 * relax the references, run the closed loop.
 */
import type { Structure } from '../dft/types';
import type { Adsorbate } from './adsorbate';
import type { ConfigurationExecutor } from './executor';
import { runClosedLoop, type SearchInput, type SearchOptions, type SearchResult } from './loop';
import type { Planner } from './planner';
import { computeReferences, type EnergyReferences } from './references';
import { findSites, type SurfaceSites } from './sites';
import { standardiseSlab, type StandardisedSlab, type StandardiseOptions } from './slab';

export interface PreparedSurface {
  slab: StandardisedSlab;
  surface: SurfaceSites;
}

export function prepareSurface(slab: Structure, opts?: StandardiseOptions): PreparedSurface {
  const std = standardiseSlab(slab, opts);
  return { slab: std, surface: findSites(std.slab, std.frame) };
}

export interface AdsorptionSearch extends PreparedSurface {
  adsorbate: Adsorbate;
  references: EnergyReferences;
  result: SearchResult;
}

export async function searchAdsorption(args: {
  slab: Structure | PreparedSurface;
  adsorbate: Adsorbate;
  planner: Planner;
  executor: ConfigurationExecutor;
  options?: Partial<SearchOptions>;
  references?: EnergyReferences;
  signal?: AbortSignal;
  onEvent?: SearchInput['onEvent'];
}): Promise<AdsorptionSearch> {
  const prepared = 'surface' in args.slab ? args.slab : prepareSurface(args.slab);
  const references = args.references ?? (await computeReferences(args.executor, prepared.slab, args.adsorbate, args.signal));
  const result = await runClosedLoop({
    slab: prepared.slab,
    surface: prepared.surface,
    adsorbate: args.adsorbate,
    references,
    planner: args.planner,
    executor: args.executor,
    options: args.options,
    signal: args.signal,
    onEvent: args.onEvent,
  });
  return { ...prepared, adsorbate: args.adsorbate, references, result };
}
