/**
 * How the closed loop's hypotheses become guarded calls. Each proposal is an
 * evaluate_adsorption_hypothesis call (the validator is its tier-1 rule: a refusal goes
 * back to the planner and costs no relaxation); a relaxed configuration with a final
 * energy gets its adsorption energy from an adsorption_energy call, whose comparability
 * rule checks the configuration against the clean-slab and gas-phase references. A
 * hypothesis this search already evaluated in an earlier, interrupted attempt (same search
 * key) is taken from the record instead of being relaxed again.
 */
import type { AttemptOutcome, HypothesisAttempt } from '../../adsorption/loop';
import { validateHypothesis } from '../../adsorption/validator';
import type { RelaxResult } from '../../calculators/types';
import type { Structure } from '../../dft/types';
import type { ProvenanceView } from '../../provenance/view';
import type { GuardedOutcome, ProposedCall } from '../../guard/types';
import type { ArtifactRecord } from '../../provenance/types';
import { ARTIFACT } from '../../artifacts/shapes';
import { SEARCH_ARTIFACT, type ConfigurationValue, type SlipAnalysisValue, type SurfaceValue } from '../../artifacts/adsorptionSearch';

/** Runs a catalogue tool as a guarded call of its own, with the run's registry, guard and approvals. */
export type ChildCall = (proposed: ProposedCall) => Promise<GuardedOutcome>;

/** Where each iteration's results are recorded. */
export interface IterationRefs {
  evaluation: string;
  configuration: string;
  structure: string;
  energy: string;
  slipAnalysis: string;
  adsorptionEnergy?: string;
  adsorptionEnergyCall?: string;
  /** Taken from an earlier attempt of this search, not computed again. */
  adopted?: boolean;
}

export interface AttemptLog {
  byIteration: Map<number, IterationRefs>;
  /** Refused evaluations by the reasons array the loop keeps, to name the refused call. */
  refusedCalls: WeakMap<string[], string>;
  /** Why an iteration has no adsorption_energy artifact. */
  notes: Map<number, string>;
}

export interface GuardedAttemptOptions {
  childCall: ChildCall;
  provenance: ProvenanceView;
  surface: SurfaceValue;
  search: string;
  /** Arguments every evaluation shares (surface, references, calculator, screening, enforceForbid). */
  shared: Record<string, unknown>;
  /** Per-parameter reasons of the shared arguments. */
  sharedReasons: Record<string, string>;
  cleanSlabEnergy: string;
  gasPhaseEnergy: string;
  agent: ProposedCall['agent'];
  step?: string;
  parentCall: string;
  /** The run's checkpoint (pause, stop, budgets), awaited before each new evaluation. */
  checkpoint?: () => Promise<void>;
  /** Evaluations an interrupted attempt of this search recorded, by hypothesis key. */
  recorded: Map<string, ArtifactRecord>;
  log: AttemptLog;
}

const outputsOf = (view: ProvenanceView, callId: string): ArtifactRecord[] =>
  (view.call(callId)?.outputs ?? []).map((id) => view.artifact(id)).filter((a): a is ArtifactRecord => !!a);

const named = (outputs: ArtifactRecord[], name: string): ArtifactRecord => {
  const a = outputs.find((x) => x.name === name);
  if (!a) throw new Error(`the evaluation recorded no ${name}; its call is incomplete.`);
  return a;
};

/** The loop's view of a recorded evaluation. */
function outcomeOf(view: ProvenanceView, evaluation: string): { outcome: Extract<AttemptOutcome, { ok: true }>; refs: IterationRefs } {
  const outputs = outputsOf(view, evaluation);
  const configuration = named(outputs, SEARCH_ARTIFACT.configuration);
  const structure = named(outputs, SEARCH_ARTIFACT.relaxedConfiguration);
  const energy = named(outputs, ARTIFACT.totalEnergy);
  const slip = named(outputs, SEARCH_ARTIFACT.slipAnalysis);
  const c = configuration.value as ConfigurationValue;
  const analysis = slip.value as SlipAnalysisValue;
  const relaxation: RelaxResult = { ...c.relaxation, structure: structure.value as Structure, forcesEvPerAngstrom: [] };
  return {
    outcome: {
      ok: true,
      key: c.key,
      execution: { placed: { ...c.placed, site: c.plannedSite }, screening: c.screening, relaxation },
      adsorptionEnergyEv: analysis.adsorptionEnergyEv,
      analysis,
    },
    refs: { evaluation, configuration: configuration.id, structure: structure.id, energy: energy.id, slipAnalysis: slip.id },
  };
}

/** The adsorption energy of a recorded evaluation made by an adsorption_energy call, if one was. */
function recordedAdsorptionEnergy(view: ProvenanceView, energy: string): ArtifactRecord | undefined {
  return view
    .artifacts()
    .find(
      (a) =>
        a.name === ARTIFACT.adsorptionEnergy &&
        a.status === 'final' &&
        a.inputs.includes(energy) &&
        view.call(a.creator)?.tool === 'adsorption_energy',
    );
}

function failReasons(outcome: Extract<GuardedOutcome, { status: 'refused' }>): string[] {
  return outcome.verdicts.filter((v) => v.level === 'fail').flatMap((v) => v.reasons);
}

export function guardedAttempt(o: GuardedAttemptOptions): HypothesisAttempt {
  const used = new Set<string>();
  const call = (tool: string, args: Record<string, unknown>, reasons: Record<string, string>, context: string) =>
    o.childCall({ tool, args, refs: {}, reasons, context, agent: o.agent, ...(o.step ? { step: o.step } : {}) });

  return async (req) => {
    const h = req.hypothesis;
    // The key the validator gives the hypothesis on its own (no history): what a recorded evaluation is filed under.
    const alone = validateHypothesis(h, {
      adsorbate: o.surface.adsorbate,
      surface: o.surface.surface,
      slabSymbols: o.surface.slab.slab.symbols,
      forbid: new Set(),
      tested: new Set(),
    });
    const key = alone.ok ? alone.key : undefined;
    const earlier = key && !used.has(key) ? o.recorded.get(key) : undefined;
    if (earlier) {
      used.add(key!);
      const { outcome, refs } = outcomeOf(o.provenance, earlier.creator);
      const eads = recordedAdsorptionEnergy(o.provenance, refs.energy);
      o.log.byIteration.set(req.iteration, {
        ...refs,
        adopted: true,
        ...(eads ? { adsorptionEnergy: eads.id, adsorptionEnergyCall: eads.creator } : {}),
      });
      return outcome;
    }
    // Pause, stop and budgets take effect between hypotheses; a stopped search resumes from its record.
    await o.checkpoint?.();
    const hypothesisArgs = {
      siteType: h.siteType,
      surfaceAtoms: h.surfaceAtoms,
      bindingAtoms: h.bindingAtoms,
      orientation: h.orientation,
      ...(h.rationale ? { rationale: h.rationale.slice(0, 2000) } : {}),
    };
    const why = h.rationale ?? `proposed by ${o.agent.model ?? 'the planner'}`;
    const evaluated = await call(
      'evaluate_adsorption_hypothesis',
      { ...o.shared, search: o.search, iteration: req.iteration, ...hypothesisArgs },
      {
        ...o.sharedReasons,
        search: `the search of ${o.parentCall}`,
        iteration: `relaxation ${req.iteration} of the search if the hypothesis is valid`,
        siteType: why,
        surfaceAtoms: why,
        bindingAtoms: why,
        orientation: why,
        ...(h.rationale ? { rationale: "the planner's own words" } : {}),
      },
      `${o.parentCall} (adsorption search ${o.search}): ${req.label}`,
    );
    if (evaluated.status === 'refused') {
      const reasons = failReasons(evaluated);
      const out = reasons.length ? reasons : [evaluated.message];
      if (evaluated.call) o.log.refusedCalls.set(out, evaluated.call);
      return { ok: false, reasons: out };
    }
    if (evaluated.status === 'rejected') return { ok: false, reasons: [evaluated.message] };
    if (evaluated.status === 'failed') throw new Error(`${req.label} (${evaluated.call}) failed: ${evaluated.error}`);
    used.add(key ?? evaluated.call);
    const { outcome, refs } = outcomeOf(o.provenance, evaluated.call);
    const energy = o.provenance.artifact(refs.energy)!;
    if (energy.status !== 'final') {
      o.log.notes.set(
        req.iteration,
        `the relaxation did not converge (${refs.energy} is provisional): no adsorption energy is recorded for it`,
      );
    } else {
      const combined = await call(
        'adsorption_energy',
        { slabWithAdsorbate: refs.energy, slab: o.cleanSlabEnergy, adsorbate: o.gasPhaseEnergy },
        {
          slabWithAdsorbate: `the relaxed configuration of iteration ${req.iteration} (${refs.evaluation})`,
          slab: 'the relaxed clean slab of this search',
          adsorbate: 'the relaxed gas-phase adsorbate of this search',
        },
        `${o.parentCall} (adsorption search ${o.search}): adsorption energy of iteration ${req.iteration}`,
      );
      if (combined.status !== 'ok') {
        const message = combined.status === 'refused' ? combined.message : combined.status === 'failed' ? combined.error : combined.message;
        throw new Error(
          `the adsorption energy of iteration ${req.iteration} could not be formed (${combined.call || 'adsorption_energy'}): ${message}`,
        );
      }
      refs.adsorptionEnergy = combined.outputs.find((id) => o.provenance.artifact(id)?.name === ARTIFACT.adsorptionEnergy);
      refs.adsorptionEnergyCall = combined.call;
    }
    o.log.byIteration.set(req.iteration, refs);
    return outcome;
  };
}
