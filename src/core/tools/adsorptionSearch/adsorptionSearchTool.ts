/**
 * adsorption_search: the AdsMind closed loop as one tool call whose every hypothesis and
 * every adsorption energy is a guarded call of its own. The planner (the offline heuristic,
 * or a model through the run's provider) proposes; each proposal goes through the guard as
 * evaluate_adsorption_hypothesis (validator first: a refusal costs no relaxation); FORBID
 * and the no-repeat list are what the search recorded; the loop stops on TERMINATE, on the
 * planner's word or at the attempt budget. The answer, the best configuration and the
 * summarizer's report are this call's outputs.
 */
import { defineToolWith } from '../defineTool';
import { ARTIFACTS } from '../../artifacts/contracts';
import crypto from 'node:crypto';
import { DEFAULT_DEGENERATE_TOLERANCE_EV, FULL_LOOP, runClosedLoop, type Ablations } from '../../adsorption/loop';
import { OfflinePlanner } from '../../adsorption/offlinePlanner';
import type { Planner } from '../../adsorption/planner';
import { ScreenAndRelaxExecutor } from '../../adsorption/executor';
import { GAS_BOX_ANGSTROM } from '../../adsorption/references';
import type { Structure } from '../../dft/types';
import { artifactRefSchema, quantitySchema } from '../../guard/schemaAnnotations';
import { ARTIFACT } from '../../artifacts/shapes';
import { ToolSetupError, type CatalogueServices } from '../services';
import { CALCULATOR_CONDITIONS, CALCULATOR_NOTES, CALCULATOR_PROPERTIES, CALCULATOR_REQUIRED } from './calculatorArgs';
import { identityOf, PW_ONLY_ARGUMENTS, type CalculatorArgs } from '../../calculators/fromArguments';
import { SCREENING_PROPERTIES } from './evaluateHypothesisTool';
import { guardedAttempt, type AttemptLog, type ChildCall } from './guardedAttempt';
import type { PwJobLog } from './pwJobRunner';
import { callCalculator } from './relaxation';
import { CALCULATOR_RULES } from './relaxStructureTool';
import { SEARCH_ARTIFACT, searchState, type ConfigurationValue, type SurfaceValue } from '../../artifacts/adsorptionSearch';
import { calculatorSettings, referencesOf, slabSource } from './searchContext';
import { reportedBest, reportedDegenerate, resultIterations, searchOutputDrafts, type SearchResultValue } from './searchOutputs';

/** What the host gives the search besides the catalogue services. */
export interface AdsorptionSearchServices {
  /** A catalogue tool as a guarded call of its own (registry, guard, approvals of the run). */
  childCall?: ChildCall;
  /** A planner asking the run's model (agents/adsorptionPlanner.ts), when the run has a model. */
  modelPlanner?: () => Planner;
  /** The run's checkpoint: pause, stop and budgets between hypotheses. */
  checkpoint?: () => Promise<void>;
}

export type PlannerKind = 'offline-heuristic' | 'llm';

interface SearchArgs extends CalculatorArgs {
  surface: string;
  structure: string;
  cleanSlabEnergy: string;
  gasPhaseEnergy: string;
  planner: PlannerKind;
  plannerScreen?: boolean;
  patience?: number;
  maxRelaxations: number;
  maxProposals?: number;
  terminateToleranceEv: number;
  degenerateToleranceEv?: number;
  ablations: Ablations;
  maxScreenedSites?: number;
  screenAzimuthsDeg?: number[];
}

const ENERGY = { names: [ARTIFACT.totalEnergy], kinds: ['scalar' as const], unit: 'eV' as const };

/** The search's key: the same inputs give the same key, so an interrupted search's evaluations are found again. */
export function searchKey(step: string | undefined, a: SearchArgs): string {
  const { plannerScreen: _p, ...keyed } = a;
  return `s-${crypto
    .createHash('sha256')
    .update(JSON.stringify([step ?? '', keyed]))
    .digest('hex')
    .slice(0, 12)}`;
}

function plannerFor(a: SearchArgs, services: AdsorptionSearchServices, screen: ScreenAndRelaxExecutor, surface: SurfaceValue): Planner {
  if (a.planner === 'llm') {
    const modelPlanner = services.modelPlanner;
    if (!modelPlanner)
      throw new ToolSetupError(
        'adsorption_search: the LLM planner needs a model, and this run has none (offline). Run with a model (ANTHROPIC_API_KEY, no --offline), or set planner: offline-heuristic.',
      );
    return modelPlanner();
  }
  return new OfflinePlanner({
    ...(a.plannerScreen ? { screen: screen.siteScreen(surface.slab, surface.adsorbate) } : {}),
    ...(a.patience ? { patience: a.patience } : {}),
  });
}

export const adsorptionSearchTool = defineToolWith<CatalogueServices & AdsorptionSearchServices>()({
  name: 'adsorption_search',
  description:
    'Find the most stable configuration of an adsorbate on a prepared surface with the AdsMind closed loop: a planner (offline ' +
    'heuristic or the LLM planner) proposes hypotheses; each is a guarded evaluate_adsorption_hypothesis call (refused without a ' +
    'relaxation when invalid, repeated or FORBIDDEN; otherwise screened, relaxed and analysed for slip and dissociation) and each ' +
    'relaxed configuration gets its adsorption energy from an adsorption_energy call against the given references. Stops when a ' +
    'relaxation reproduces the best configuration (TERMINATE), when the planner stops, or at the attempt budget.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      surface: artifactRefSchema('The prepared surface (prepare_adsorption_surface output).', { names: [SEARCH_ARTIFACT.surface] }),
      structure: artifactRefSchema('The standardised clean slab (prepare_adsorption_surface output).', {
        kinds: ['structure'],
        names: [SEARCH_ARTIFACT.standardisedSlab],
      }),
      cleanSlabEnergy: artifactRefSchema('Total energy of the relaxed clean slab (relax_structure output).', ENERGY),
      gasPhaseEnergy: artifactRefSchema('Total energy of the relaxed gas-phase adsorbate (relax_structure output).', ENERGY),
      planner: {
        type: 'string',
        enum: ['offline-heuristic', 'llm'],
        description: "'offline-heuristic' (deterministic site order by coordination preference) or 'llm' (the planner model).",
      },
      plannerScreen: { type: 'boolean', description: 'Offline planner: order site classes of equal preference by a single point each.' },
      patience: {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        description: 'Offline planner: stop after this many relaxations without improvement (default 2).',
      },
      maxRelaxations: { type: 'integer', minimum: 1, maximum: 100, description: 'The attempt budget: relaxations the search may spend.' },
      maxProposals: {
        type: 'integer',
        minimum: 1,
        maximum: 300,
        description: 'Proposals including refused ones (default 3 × maxRelaxations).',
      },
      terminateToleranceEv: quantitySchema('TERMINATE when a relaxation lands on the best configuration within this energy', 'eV', {
        exclusiveMinimum: 0,
        maximum: 1,
      }),
      degenerateToleranceEv: quantitySchema(
        `The search's energy resolution: other sites within this energy of the best are reported as degenerate with it, not ranked (default ${DEFAULT_DEGENERATE_TOLERANCE_EV})`,
        'eV',
        { exclusiveMinimum: 0, maximum: 1 },
      ),
      ablations: {
        type: 'object',
        properties: {
          slipFeedback: { type: 'boolean' },
          forbid: { type: 'boolean' },
          terminate: { type: 'boolean' },
          oneShot: { type: 'boolean' },
        },
        required: ['slipFeedback', 'forbid', 'terminate', 'oneShot'],
        additionalProperties: false,
        description: 'AdsMind switches: slip feedback to the planner, FORBID, TERMINATE; oneShot = one relaxation, no loop.',
      },
      ...SCREENING_PROPERTIES,
      ...CALCULATOR_PROPERTIES,
    },
    required: [
      'surface',
      'structure',
      'cleanSlabEnergy',
      'gasPhaseEnergy',
      'planner',
      'maxRelaxations',
      'terminateToleranceEv',
      'ablations',
      ...CALCULATOR_REQUIRED,
    ],
    allOf: CALCULATOR_CONDITIONS,
    additionalProperties: false,
  },
  rules: ['calculator-matches-references', 'settings-comparable', 'energies-from-production-inputs', ...CALCULATOR_RULES],
  outputs: [ARTIFACTS.searchResult, ARTIFACTS.bestConfiguration, ARTIFACTS.searchReport, ARTIFACTS.searchDrawing],
  // A search interrupted by a stop or a killed process continues on resume from the evaluations it recorded.
  resumable: true,
  parameterNotes: {
    ...CALCULATOR_NOTES,
    maxRelaxations: 'AdsMind needs 4–5 relaxations on average; 10 leaves room for slips.',
    terminateToleranceEv: '0.05 eV (AdsMind).',
    degenerateToleranceEv: `${DEFAULT_DEGENERATE_TOLERANCE_EV} eV: what a relaxation to fmax 0.1 eV/Å resolves; lower it only with a tighter fmax.`,
    planner: "'llm' only with a model; the heuristic is deterministic and needs none.",
  },
  async run(a, ctx) {
    const services = ctx.services;
    if (!services.childCall)
      throw new ToolSetupError(
        'adsorption_search runs each hypothesis as a guarded call of its own and needs the childCall service; run it through a DREAMS run (RunController), which provides it.',
      );
    const surface = ctx.resolve(a.surface) as SurfaceValue;
    const slab = ctx.resolve(a.structure) as Structure;
    const view = services.provenance;
    const step = view.call(ctx.callId)?.step;
    const search = searchKey(step, a);
    const { references, metas } = referencesOf(ctx, view, a, surface.adsorbate.name);
    const probe: Structure = {
      ...slab,
      symbols: [...slab.symbols, ...surface.adsorbate.symbols],
      positions: [...slab.positions, ...surface.adsorbate.positions],
    };
    const jobs: PwJobLog = { jobs: [] };
    const { calculator } = callCalculator(a, probe, ctx, 'adsorption_search', jobs);
    const screen = new ScreenAndRelaxExecutor(calculator, {
      fmaxEvPerAngstrom: a.fmaxEvPerAngstrom,
      maxSteps: a.maxSteps,
      ...(a.maxScreenedSites ? { maxSites: a.maxScreenedSites } : {}),
      ...(a.screenAzimuthsDeg ? { azimuthsDeg: a.screenAzimuthsDeg } : {}),
    });
    const planner = plannerFor(a, services, screen, surface);
    const calculatorArgs = Object.fromEntries(Object.entries(a).filter(([k]) => k in CALCULATOR_PROPERTIES || k in SCREENING_PROPERTIES));
    const shared = {
      surface: a.surface,
      structure: a.structure,
      cleanSlabEnergy: a.cleanSlabEnergy,
      gasPhaseEnergy: a.gasPhaseEnergy,
      enforceForbid: a.ablations.forbid,
      ...calculatorArgs,
    };
    const sharedReasons = Object.fromEntries(Object.keys(shared).map((k) => [k, `the setting of the adsorption search ${ctx.callId}`]));
    const recorded = new Map(searchState(view, search).configurations.map((c) => [(c.value as ConfigurationValue).key, c] as const));
    const log: AttemptLog = { byIteration: new Map(), refusedCalls: new WeakMap(), notes: new Map() };
    const attempt = guardedAttempt({
      childCall: services.childCall,
      provenance: view,
      surface,
      search,
      shared,
      sharedReasons,
      cleanSlabEnergy: a.cleanSlabEnergy,
      gasPhaseEnergy: a.gasPhaseEnergy,
      agent: { role: 'dft', model: planner.name },
      ...(step ? { step } : {}),
      parentCall: ctx.callId,
      recorded,
      log,
      ...(services.checkpoint ? { checkpoint: services.checkpoint } : {}),
    });
    if (recorded.size)
      ctx.progress(
        `search ${search}: ${recorded.size} evaluation(s) recorded by an earlier attempt are taken from the record, not relaxed again`,
      );
    const ablations = { ...FULL_LOOP, ...a.ablations };
    const result = await runClosedLoop({
      slab: surface.slab,
      surface: surface.surface,
      adsorbate: surface.adsorbate,
      references,
      planner,
      executor: screen,
      attempt,
      signal: ctx.signal,
      options: {
        maxRelaxations: a.maxRelaxations,
        terminateToleranceEv: a.terminateToleranceEv,
        ablations,
        ...(a.maxProposals ? { maxProposals: a.maxProposals } : {}),
      },
      onEvent: (e) =>
        ctx.progress(
          e.type === 'iteration'
            ? `iteration ${e.record.iteration}: ${e.record.plannedSite.kind} → ${e.record.analysis.relaxedSite.kind}, slip ${e.record.analysis.slip}, E_ads ${e.record.adsorptionEnergyEv.toFixed(3)} eV`
            : `hypothesis refused (no relaxation): ${e.rejection.reasons.join(' ')}`,
        ),
    }).finally(() => calculator.close?.());
    const adsorptionSearch = { slab: surface.slab, surface: surface.surface, adsorbate: surface.adsorbate, references, result };
    const iterations = resultIterations(adsorptionSearch, log);
    const best = reportedBest(iterations);
    const degenerate = reportedDegenerate(adsorptionSearch, iterations, best, a.degenerateToleranceEv ?? DEFAULT_DEGENERATE_TOLERANCE_EV);
    const settings = metas[0].settings;
    const value: SearchResultValue = {
      search,
      planner: planner.name,
      stopReason: result.stopReason,
      stopDetail: result.stopDetail,
      relaxations: result.relaxations,
      forbid: result.forbid,
      rejections: result.rejections.map((r) => ({
        proposal: r.proposal,
        reasons: r.reasons,
        ...(log.refusedCalls.get(r.reasons) ? { call: log.refusedCalls.get(r.reasons)! } : {}),
      })),
      iterations,
      best: best
        ? { iteration: best.iteration, adsorptionEnergyEv: best.adsorptionEnergyEv, relaxedSite: best.relaxedSite, refs: best.refs }
        : null,
      ...(degenerate ? { degenerate } : {}),
      references: {
        cleanSlab: { ref: a.cleanSlabEnergy, energyEv: references.cleanSlabEv },
        gasPhase: { ref: a.gasPhaseEnergy, energyEv: references.gasPhaseEv },
        description: references.description,
      },
      calculator: { ...identityOf(a), settings },
      ...(jobs.jobs.length ? { planningJobs: jobs.jobs } : {}),
      switches: {
        maxRelaxations: a.maxRelaxations,
        terminateToleranceEv: a.terminateToleranceEv,
        degenerateToleranceEv: a.degenerateToleranceEv ?? DEFAULT_DEGENERATE_TOLERANCE_EV,
        ablations,
        gasBoxAngstrom: GAS_BOX_ANGSTROM,
        ...Object.fromEntries(
          PW_ONLY_ARGUMENTS.filter((k) => a[k as keyof SearchArgs] !== undefined).map((k) => [k, a[k as keyof SearchArgs]]),
        ),
      },
    };
    const drafts = searchOutputDrafts({
      value,
      search: adsorptionSearch,
      calculator: calculatorSettings(a, settings),
      slabSource: slabSource(view, a.structure),
    });
    const refused = value.rejections.length;
    const bestText = best
      ? `best: iteration ${best.iteration}, ${best.relaxedSite}, E_ads = ${best.adsorptionEnergyEv.toFixed(3)} eV (${best.refs.adsorptionEnergy})` +
        (degenerate
          ? `; degenerate with it within ${degenerate.resolutionEv} eV (not ranked): ${degenerate.configurations.map((d) => `iteration ${d.iteration}, ${d.relaxedSite}, ${d.adsorptionEnergyEv.toFixed(3)} eV (${d.refs.adsorptionEnergy})`).join('; ')}`
          : '')
      : 'no valid configuration with a recorded adsorption energy';
    return {
      artifacts: drafts,
      summary:
        `adsorption search ${search} with ${planner.name}: ${result.relaxations} relaxation(s), ${refused} refused proposal(s) (no relaxation spent); ` +
        `stopped (${result.stopReason}): ${result.stopDetail} ${bestText}.` +
        (a.calculator === 'emt'
          ? ' EMT energies rank configurations for testing the search; they are not final numbers.'
          : a.calculator === 'ipi'
            ? ' Energies from an i-PI client rank configurations; they are not DFT numbers.'
            : ''),
    };
  },
});
