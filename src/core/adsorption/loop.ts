/**
 * The closed loop: plan → validate → screen and relax → analyse → feed back, until the
 * planner stops, the attempt budget is spent, or a relaxation lands on the best
 * configuration again (same fingerprint, energy within 0.05 eV: TERMINATE). A planned
 * site whose configuration slipped or desorbed goes on the FORBID list.
 * Each switch of the AdsMind ablations can be turned off.
 */
import type { Adsorbate } from './adsorbate';
import { analyseConfiguration, type ConfigurationAnalysis } from './analyzer';
import type { ConfigurationExecutor, ExecutionResult, ScreenedPlacement } from './executor';
import { parseDecision, type Hypothesis } from './hypothesis';
import type { IterationView, Planner, SiteSummary } from './planner';
import type { EnergyReferences } from './references';
import type { AdsorptionSite, SurfaceSites } from './sites';
import type { StandardisedSlab } from './slab';
import { validateHypothesis } from './validator';
import type { Structure } from '../dft/types';

export interface Ablations {
  /** Show the planner where each configuration ended up (relaxed site, slip). */
  slipFeedback: boolean;
  /** Keep and enforce the FORBID list. */
  forbid: boolean;
  /** Stop when a relaxation reproduces the best configuration. */
  terminate: boolean;
  /** One proposal, one relaxation, no loop (the 1-Shot baseline). */
  oneShot: boolean;
}

export const FULL_LOOP: Ablations = { slipFeedback: true, forbid: true, terminate: true, oneShot: false };

export interface SearchOptions {
  /** Relaxations the loop may spend (the attempt budget). */
  maxRelaxations: number;
  /** Proposals including rejected ones; defaults to 3 × maxRelaxations. */
  maxProposals?: number;
  terminateToleranceEv: number;
  /**
   * Energy resolution of the search: configurations of other sites within it of the best
   * are reported as degenerate with it, not ranked (default DEFAULT_DEGENERATE_TOLERANCE_EV).
   * Not the TERMINATE tolerance, which recognises the same basin reached twice.
   */
  degenerateToleranceEv?: number;
  ablations: Ablations;
}

/**
 * 0.01 eV: what a relaxation to fmax 0.1 eV/Å resolves between two basins. A residual force F
 * on a mode of stiffness k leaves the energy F²/(2k) above the minimum: 0.005 eV for F = 0.1
 * eV/Å on a soft adsorbate mode (k ≈ 1 eV/Å², frustrated translation), and a few such modes
 * sit at once near fmax; two configurations whose energies differ by less than about 0.01 eV
 * are not ranked by such relaxations. Differences of 50 meV (PBE CO/Pt(111) top vs fcc: 72 meV) are.
 */
export const DEFAULT_DEGENERATE_TOLERANCE_EV = 0.01;

export const DEFAULT_SEARCH: SearchOptions = { maxRelaxations: 10, terminateToleranceEv: 0.05, ablations: FULL_LOOP };

export interface IterationRecord {
  iteration: number;
  hypothesis: Hypothesis;
  plannedSite: AdsorptionSite;
  /** The candidate placement chosen by the screen. */
  screenedSiteId: string;
  screenedAzimuthDeg: number;
  screening: ScreenedPlacement[];
  relaxedStructure: Structure;
  adsorbateStart: number;
  totalEnergyEv: number;
  adsorptionEnergyEv: number;
  relaxSteps: number;
  relaxConverged: boolean;
  finalFmaxEvPerAngstrom: number;
  analysis: ConfigurationAnalysis;
  /** Valid = neither dissociated nor desorbed. */
  valid: boolean;
}

export interface Rejection {
  proposal: unknown;
  reasons: string[];
}

export type StopReason = 'converged' | 'planner-terminated' | 'budget' | 'proposal-limit' | 'one-shot';

export interface SearchResult {
  iterations: IterationRecord[];
  rejections: Rejection[];
  best?: IterationRecord;
  stopReason: StopReason;
  stopDetail: string;
  forbid: string[];
  relaxations: number;
}

/** One proposal as the loop hands it on: validate it and, when valid, screen and relax it. */
export interface AttemptRequest {
  hypothesis: Hypothesis;
  /** The iteration this attempt becomes if it is valid. */
  iteration: number;
  label: string;
  /** Site fingerprints forbidden so far (empty under the no-forbid ablation). */
  forbid: ReadonlySet<string>;
  /** Keys of hypotheses already relaxed in this search. */
  tested: ReadonlySet<string>;
}

/**
 * A refused proposal (no relaxation spent), or the executed configuration. A host that
 * computes the adsorption energy and the analysis itself (as recorded results) returns
 * them; otherwise the loop computes both from the references.
 */
export type AttemptOutcome =
  | { ok: false; reasons: string[] }
  | { ok: true; key: string; execution: ExecutionResult; adsorptionEnergyEv?: number; analysis?: ConfigurationAnalysis };

export type HypothesisAttempt = (req: AttemptRequest, signal?: AbortSignal) => Promise<AttemptOutcome>;

export interface SearchInput {
  slab: StandardisedSlab;
  surface: SurfaceSites;
  adsorbate: Adsorbate;
  references: EnergyReferences;
  planner: Planner;
  executor: ConfigurationExecutor;
  options?: Partial<SearchOptions>;
  signal?: AbortSignal;
  /**
   * Replaces validate-then-execute, e.g. to run each hypothesis as a guarded tool call whose
   * deterministic rule is the validator. Default: validateHypothesis, then the executor.
   */
  attempt?: HypothesisAttempt;
  /** Called after every relaxation and rejection, for live display and artifact registration. */
  onEvent?: (e: { type: 'iteration'; record: IterationRecord } | { type: 'rejection'; rejection: Rejection }) => void;
}

/**
 * Configurations of other relaxed sites whose adsorption energy lies within the search's
 * energy resolution (degenerateToleranceEv, not the TERMINATE tolerance) of the best one: the
 * search does not rank them against it (a relaxation to fmax 0.1 eV/Å does not resolve a few
 * meV between basins), so
 * a report names them as degenerate with the best. One per relaxed configuration (its
 * lowest), lowest first; `eligible` narrows the candidates (default: valid ones).
 */
export function degenerateWithBest(
  iterations: readonly IterationRecord[],
  best: IterationRecord | undefined,
  resolutionEv: number,
  eligible: (r: IterationRecord) => boolean = (r) => r.valid,
): IterationRecord[] {
  if (!best) return [];
  const lowest = new Map<string, IterationRecord>();
  for (const r of iterations) {
    if (!eligible(r) || r.analysis.fingerprint === best.analysis.fingerprint) continue;
    if (r.adsorptionEnergyEv - best.adsorptionEnergyEv > resolutionEv) continue;
    const seen = lowest.get(r.analysis.fingerprint);
    if (!seen || r.adsorptionEnergyEv < seen.adsorptionEnergyEv) lowest.set(r.analysis.fingerprint, r);
  }
  return [...lowest.values()].sort((a, b) => a.adsorptionEnergyEv - b.adsorptionEnergyEv);
}

export const summariseSite = (
  slab: Structure,
  s: Pick<AdsorptionSite, 'kind' | 'hollowType' | 'surfaceAtoms' | 'fingerprint'>,
): SiteSummary => ({
  kind: s.kind,
  ...(s.hollowType ? { hollowType: s.hollowType } : {}),
  surfaceAtoms: [...s.surfaceAtoms],
  elements: s.surfaceAtoms.map((i) => slab.symbols[i]!),
  fingerprint: s.fingerprint,
});

function viewOf(r: IterationRecord, slab: Structure, slipFeedback: boolean): IterationView {
  const view: IterationView = {
    iteration: r.iteration,
    hypothesis: r.hypothesis,
    plannedSite: summariseSite(slab, r.plannedSite),
    adsorptionEnergyEv: r.adsorptionEnergyEv,
    dissociated: r.analysis.dissociated,
    relaxationConverged: r.relaxConverged,
  };
  if (slipFeedback) {
    const rs = r.analysis.relaxedSite;
    view.relaxedSite =
      rs.kind === 'desorbed'
        ? { kind: 'desorbed' }
        : summariseSite(slab, { kind: rs.kind, hollowType: rs.hollowType, surfaceAtoms: rs.surfaceAtoms, fingerprint: rs.siteFingerprint });
    view.slip = r.analysis.slip;
    view.fingerprint = r.analysis.fingerprint;
  }
  return view;
}

export async function runClosedLoop(input: SearchInput): Promise<SearchResult> {
  const opts: SearchOptions = { ...DEFAULT_SEARCH, ...input.options, ablations: { ...FULL_LOOP, ...input.options?.ablations } };
  const { ablations } = opts;
  const maxRelaxations = ablations.oneShot ? 1 : opts.maxRelaxations;
  const maxProposals = opts.maxProposals ?? 3 * maxRelaxations;
  const { slab, surface, adsorbate, references } = input;
  const iterations: IterationRecord[] = [];
  const rejections: Rejection[] = [];
  const forbid = new Set<string>();
  const tested = new Set<string>();
  let lastRejection: string[] = [];
  let best: IterationRecord | undefined;
  let proposals = 0;
  const attempt: HypothesisAttempt =
    input.attempt ??
    (async (req, signal) => {
      const v = validateHypothesis(req.hypothesis, {
        adsorbate,
        surface,
        slabSymbols: slab.slab.symbols,
        forbid: req.forbid,
        tested: req.tested,
      });
      if (!v.ok) return { ok: false, reasons: v.reasons };
      const execution = await input.executor.execute(
        { hypothesis: req.hypothesis, sites: v.sites, slab, adsorbate, label: req.label },
        signal,
      );
      return { ok: true, key: v.key, execution };
    });
  const stop = (stopReason: StopReason, stopDetail: string): SearchResult => ({
    iterations,
    rejections,
    best,
    stopReason,
    stopDetail,
    forbid: [...forbid],
    relaxations: iterations.length,
  });

  while (true) {
    if (iterations.length >= maxRelaxations) {
      return ablations.oneShot
        ? stop('one-shot', 'one relaxation, no feedback (1-Shot).')
        : stop('budget', `the budget of ${maxRelaxations} relaxations is spent.`);
    }
    if (proposals >= maxProposals)
      return stop(
        'proposal-limit',
        `${proposals} proposals (${rejections.length} rejected) without using the budget; the planner keeps proposing invalid hypotheses.`,
      );
    if (input.signal?.aborted) throw new Error(`adsorption search cancelled after ${iterations.length} relaxations`);
    const raw = await input.planner.decide(
      {
        adsorbate,
        slab,
        surface,
        history: iterations.map((r) => viewOf(r, slab.slab, ablations.slipFeedback)),
        forbid: ablations.forbid ? [...forbid] : [],
        rejections: lastRejection,
        relaxationsLeft: maxRelaxations - iterations.length,
        mayStopOnConvergence: ablations.terminate,
        toleranceEv: opts.terminateToleranceEv,
      },
      input.signal,
    );
    proposals++;
    const parsed = parseDecision(raw);
    if (!parsed.ok) {
      lastRejection = [parsed.error];
      const rej = { proposal: raw, reasons: lastRejection };
      rejections.push(rej);
      input.onEvent?.({ type: 'rejection', rejection: rej });
      continue;
    }
    const decision = parsed.decision;
    if (decision.action === 'terminate') {
      if (iterations.length === 0 && !ablations.oneShot) {
        lastRejection = ['no configuration has been relaxed yet; propose one before terminating.'];
        rejections.push({ proposal: decision, reasons: lastRejection });
        continue;
      }
      return stop('planner-terminated', decision.reason);
    }
    const iteration = iterations.length + 1;
    const outcome = await attempt(
      {
        hypothesis: decision,
        iteration,
        label: `iteration ${iteration}: ${decision.siteType} [${decision.surfaceAtoms.join(', ')}]`,
        forbid: ablations.forbid ? forbid : new Set(),
        tested,
      },
      input.signal,
    );
    if (!outcome.ok) {
      lastRejection = outcome.reasons;
      const rej = { proposal: decision, reasons: outcome.reasons };
      rejections.push(rej);
      input.onEvent?.({ type: 'rejection', rejection: rej });
      continue;
    }
    lastRejection = [];
    tested.add(outcome.key);
    const exec = outcome.execution;
    const relaxed = exec.relaxation;
    const adsorptionEnergyEv = outcome.adsorptionEnergyEv ?? relaxed.energyEv - references.cleanSlabEv - references.gasPhaseEv;
    const plannedSite = exec.placed.site;
    const analysis =
      outcome.analysis ??
      analyseConfiguration({
        relaxed: relaxed.structure,
        adsorbateStart: exec.placed.adsorbateStart,
        frame: slab.frame,
        sites: surface,
        plannedSite,
        adsorptionEnergyEv,
      });
    const record: IterationRecord = {
      iteration,
      hypothesis: decision,
      plannedSite,
      screenedSiteId: plannedSite.id,
      screenedAzimuthDeg: exec.placed.azimuthDeg,
      screening: exec.screening,
      relaxedStructure: relaxed.structure,
      adsorbateStart: exec.placed.adsorbateStart,
      totalEnergyEv: relaxed.energyEv,
      adsorptionEnergyEv,
      relaxSteps: relaxed.steps,
      relaxConverged: relaxed.converged,
      finalFmaxEvPerAngstrom: relaxed.fmaxEvPerAngstrom,
      analysis,
      valid: !analysis.dissociated && analysis.slip !== 'desorbed',
    };
    iterations.push(record);
    input.onEvent?.({ type: 'iteration', record });
    // A slip says the site itself does not hold the adsorbate; a dissociation may depend on the
    // orientation, and the no-repeat rule already keeps the same hypothesis from coming back.
    if (ablations.forbid && analysis.slip !== 'none') forbid.add(plannedSite.fingerprint);
    const previousBest = best;
    if (record.valid && (!best || record.adsorptionEnergyEv < best.adsorptionEnergyEv)) best = record;
    if (
      ablations.terminate &&
      record.valid &&
      previousBest &&
      analysis.fingerprint === previousBest.analysis.fingerprint &&
      Math.abs(record.adsorptionEnergyEv - previousBest.adsorptionEnergyEv) <= opts.terminateToleranceEv
    ) {
      return stop(
        'converged',
        `iteration ${iteration} relaxed to the best configuration found so far (${analysis.fingerprint}, within ${opts.terminateToleranceEv} eV of iteration ${previousBest.iteration}).`,
      );
    }
  }
}
