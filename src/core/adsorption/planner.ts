/**
 * The planner contract: given the surface, the adsorbate and the history of the search,
 * propose the next configuration or stop. The offline planner (offlinePlanner.ts) is a
 * deterministic heuristic; the LLM planner (agents/adsorptionPlanner.ts) asks a model through the
 * LlmProvider with the hypothesis schema as a forced tool.
 */
import type { Adsorbate } from './adsorbate';
import type { SlipKind } from './analyzer';
import type { Hypothesis, PlannerDecision } from './hypothesis';
import type { HollowType, SiteKind, SurfaceSites } from './sites';
import type { StandardisedSlab } from './slab';

export interface SiteSummary {
  kind: SiteKind;
  hollowType?: HollowType;
  surfaceAtoms: number[];
  elements: string[];
  fingerprint: string;
}

/** One relaxed iteration as the planner sees it (slip fields are absent when slip feedback is off). */
export interface IterationView {
  iteration: number;
  hypothesis: Hypothesis;
  plannedSite: SiteSummary;
  adsorptionEnergyEv: number;
  dissociated: boolean;
  relaxationConverged: boolean;
  relaxedSite?: SiteSummary | { kind: 'desorbed' };
  slip?: SlipKind;
  /** Relaxed-configuration fingerprint (absent without slip feedback). */
  fingerprint?: string;
}

export interface PlanningContext {
  adsorbate: Adsorbate;
  slab: StandardisedSlab;
  surface: SurfaceSites;
  history: IterationView[];
  /** Site fingerprints the planner must not propose. */
  forbid: string[];
  /** Why the previous proposal was rejected (empty when it was not). */
  rejections: string[];
  relaxationsLeft: number;
  /** False under the no-terminate ablation: the planner may stop only when it has nothing left to propose. */
  mayStopOnConvergence: boolean;
  /** Energies closer than this are the same result, eV. */
  toleranceEv: number;
}

export interface Planner {
  readonly name: string;
  decide(ctx: PlanningContext, signal?: AbortSignal): Promise<PlannerDecision>;
}
