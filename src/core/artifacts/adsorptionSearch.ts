/**
 * The artifacts of an adsorption search and the search's state as the canvas holds it:
 * which hypotheses it has relaxed (no repeats) and which sites slipped (FORBID), read
 * from the recorded evaluations of the same search, so the guard's validator rule and a
 * resumed search see exactly what the run recorded.
 */
import type { Adsorbate } from '../adsorption/adsorbate';
import type { ConfigurationAnalysis } from '../adsorption/analyzer';
import type { ScreenedPlacement } from '../adsorption/executor';
import type { Hypothesis } from '../adsorption/hypothesis';
import type { AdsorptionSite, SurfaceSites } from '../adsorption/sites';
import type { StandardisedSlab } from '../adsorption/slab';
import type { RelaxResult } from '../calculators/types';
import type { Structure } from '../dft/types';
import type { ProvenanceView } from '../provenance/view';
import type { ArtifactRecord } from '../provenance/types';

export const SEARCH_ARTIFACT = {
  surface: 'adsorption_surface',
  standardisedSlab: 'standardised_slab',
  importedSlab: 'slab',
  configuration: 'adsorption_configuration',
  relaxedConfiguration: 'relaxed_configuration',
  slipAnalysis: 'adsorption_slip_analysis',
  result: 'adsorption_search_result',
  best: 'best_adsorption_configuration',
  report: 'adsorption_search_report',
  drawing: 'adsorption_search_drawing',
} as const;

/** Value of an adsorption_surface artifact: the standardised slab, its sites and the adsorbate. */
export interface SurfaceValue {
  slab: StandardisedSlab;
  surface: SurfaceSites;
  adsorbate: Adsorbate;
  /** Symmetry-distinct site classes: label, copies, one example. */
  classes: { fingerprint: string; label: string; copies: number; example: number[] }[];
}

/** Value of an adsorption_configuration artifact: one evaluated hypothesis, up to its relaxation. */
export interface ConfigurationValue {
  search: string;
  iteration: number;
  hypothesis: Hypothesis;
  /** Validator key (site fingerprint, binding atoms, orientation): the no-repeat rule compares it. */
  key: string;
  plannedSite: AdsorptionSite;
  screening: ScreenedPlacement[];
  placed: { structure: Structure; adsorbateStart: number; heightAngstrom: number; bumpAngstrom: number; azimuthDeg: number };
  relaxation: Omit<RelaxResult, 'structure' | 'forcesEvPerAngstrom'>;
}

/** Value of an adsorption_slip_analysis artifact. */
export interface SlipAnalysisValue extends ConfigurationAnalysis {
  search: string;
  iteration: number;
  plannedSiteFingerprint: string;
  /** The adsorption energy the bond criterion used, eV. */
  adsorptionEnergyEv: number;
  /** Neither dissociated nor desorbed. */
  valid: boolean;
}

export interface SearchState {
  configurations: ArtifactRecord[];
  analyses: ArtifactRecord[];
  tested: Set<string>;
  forbid: Set<string>;
}

const inSearch = (a: ArtifactRecord, name: string, search: string): boolean =>
  a.name === name && (a.value as { search?: string } | undefined)?.search === search;

/** What a search has recorded so far (in creation order). */
export function searchState(view: ProvenanceView, search: string): SearchState {
  const all = view.artifacts();
  const configurations = all.filter((a) => inSearch(a, SEARCH_ARTIFACT.configuration, search));
  const analyses = all.filter((a) => inSearch(a, SEARCH_ARTIFACT.slipAnalysis, search));
  const tested = new Set(configurations.map((a) => (a.value as ConfigurationValue).key));
  // A planned site whose configuration moved away does not hold the adsorbate: FORBID it.
  const forbid = new Set(
    analyses
      .map((a) => a.value as SlipAnalysisValue)
      .filter((v) => v.slip !== 'none')
      .map((v) => v.plannedSiteFingerprint),
  );
  return { configurations, analyses, tested, forbid };
}
