/**
 * evaluate_adsorption_hypothesis: one hypothesis of an adsorption search, as a guarded
 * call. Its tier-1 rule is the AdsMind validator (binding atoms, counts per site type,
 * top-layer atoms that form the site, FORBID, no repeat — read from what the search has
 * recorded), so an invalid hypothesis is refused before anything is computed. A valid one
 * is placed on up to 8 equivalent sites in 4 azimuths, screened by single points, the best
 * placement relaxed, and the result analysed for slip and dissociation.
 */
import type { CatalogueContext } from '../services';
import { defineTool } from '../defineTool';
import { ARTIFACTS } from '../../artifacts/contracts';
import { analyseConfiguration } from '../../adsorption/analyzer';
import { ScreenAndRelaxExecutor } from '../../adsorption/executor';
import { HYPOTHESIS_SCHEMA, type Hypothesis } from '../../adsorption/hypothesis';
import { validateHypothesis } from '../../adsorption/validator';
import { formatExtxyz } from '../../dft/io/extxyz';
import type { Structure, Vec3 } from '../../dft/types';
import { artifactRefSchema } from '../../guard/schemaAnnotations';
import { ARTIFACT } from '../../artifacts/shapes';
import { energyInputs } from '../energyInputs';
import { CALCULATOR_CONDITIONS, CALCULATOR_NOTES, CALCULATOR_PROPERTIES, CALCULATOR_REQUIRED } from './calculatorArgs';
import { energySettings, reportedCalculator, type CalculatorArgs } from '../../calculators/fromArguments';
import { callCalculator, relaxationDrafts, type Relaxed } from './relaxation';
import type { PwJobLog } from './pwJobRunner';
import { CALCULATOR_RULES } from './relaxStructureTool';
import {
  SEARCH_ARTIFACT,
  searchState,
  type ConfigurationValue,
  type SlipAnalysisValue,
  type SurfaceValue,
} from '../../artifacts/adsorptionSearch';

const ENERGY = { names: [ARTIFACT.totalEnergy], kinds: ['scalar' as const], unit: 'eV' as const };

export interface EvaluateArgs extends CalculatorArgs, Omit<Hypothesis, 'action'> {
  search: string;
  iteration: number;
  surface: string;
  structure: string;
  cleanSlabEnergy: string;
  gasPhaseEnergy: string;
  enforceForbid: boolean;
  maxScreenedSites?: number;
  screenAzimuthsDeg?: number[];
}

const hypothesisProperties = (({ action: _a, reason: _r, ...rest }) => rest)(HYPOTHESIS_SCHEMA.properties);

export const SCREENING_PROPERTIES = {
  maxScreenedSites: {
    type: 'integer',
    minimum: 1,
    maximum: 8,
    description: 'Equivalent sites screened per hypothesis (AdsMind: up to 8).',
  },
  screenAzimuthsDeg: {
    type: 'array',
    items: { type: 'number', minimum: 0, maximum: 360 },
    minItems: 1,
    maxItems: 8,
    uniqueItems: true,
    description: 'Azimuths screened per site, degrees (AdsMind: 0, 90, 180, 270).',
  },
} as const;

/** The adsorption energy of the configuration and the references it used. */
function references(ctx: CatalogueContext, a: EvaluateArgs): { cleanSlabEv: number; gasPhaseEv: number } {
  const [clean, gas] = energyInputs(ctx, [a.cleanSlabEnergy, a.gasPhaseEnergy], 'evaluate_adsorption_hypothesis');
  return { cleanSlabEv: clean!.energyEv, gasPhaseEv: gas!.energyEv };
}

const sameSlab = (a: Structure, b: Structure): boolean =>
  a.symbols.length === b.symbols.length &&
  JSON.stringify(a.cell) === JSON.stringify(b.cell) &&
  a.symbols.every((s, i) => s === b.symbols[i]);

export const evaluateHypothesisTool = defineTool({
  name: 'evaluate_adsorption_hypothesis',
  description:
    'One hypothesis of an adsorption search: site type, surface atoms, binding atoms and orientation on the prepared surface. ' +
    'Refused without any calculation when the AdsMind validator finds it invalid, repeated or on a FORBIDDEN site; otherwise the ' +
    'adsorbate is placed on up to 8 equivalent sites in 4 azimuths, screened by single points, the best placement relaxed, and ' +
    'where it ended up (planned vs relaxed site, geometric or chemical slip, dissociation) recorded with its total energy.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      search: {
        type: 'string',
        pattern: '^s-[0-9a-f]{12}$',
        description: 'The search this evaluation belongs to (its history decides repeats and FORBID).',
      },
      iteration: { type: 'integer', minimum: 1, description: 'The relaxation this becomes in the search, if valid.' },
      surface: artifactRefSchema('The prepared surface (prepare_adsorption_surface output).', { names: [SEARCH_ARTIFACT.surface] }),
      structure: artifactRefSchema('The standardised clean slab the adsorbate goes on.', {
        kinds: ['structure'],
        names: [SEARCH_ARTIFACT.standardisedSlab],
      }),
      cleanSlabEnergy: artifactRefSchema('Total energy of the relaxed clean slab.', ENERGY),
      gasPhaseEnergy: artifactRefSchema('Total energy of the relaxed gas-phase adsorbate.', ENERGY),
      ...hypothesisProperties,
      enforceForbid: { type: 'boolean', description: 'Refuse sites on the FORBID list (off only for the no-FORBID ablation).' },
      ...SCREENING_PROPERTIES,
      ...CALCULATOR_PROPERTIES,
    },
    required: [
      'search',
      'iteration',
      'surface',
      'structure',
      'cleanSlabEnergy',
      'gasPhaseEnergy',
      'siteType',
      'surfaceAtoms',
      'bindingAtoms',
      'orientation',
      'enforceForbid',
      ...CALCULATOR_REQUIRED,
    ],
    allOf: CALCULATOR_CONDITIONS,
    additionalProperties: false,
  },
  rules: [
    'adsorption-hypothesis-valid',
    'calculator-matches-references',
    'settings-comparable',
    'energies-from-production-inputs',
    ...CALCULATOR_RULES,
  ],
  outputs: [ARTIFACTS.adsorptionConfiguration, ARTIFACTS.slipAnalysis, ARTIFACTS.relaxedConfiguration, ARTIFACTS.totalEnergy],
  parameterNotes: {
    ...CALCULATOR_NOTES,
    siteType:
      'the coordination the binding atom prefers first (H, O, N, C: hollows; OH: bridge; CO: ontop or hollow), then the alternatives.',
    bindingAtoms: 'heavy atoms with free valence (the C of CO, the O of OH).',
    orientation: 'upright unless two atoms bind (then flat or tilted).',
  },
  async run(a, ctx) {
    const surface = ctx.resolve(a.surface) as SurfaceValue;
    const clean = ctx.resolve(a.structure) as Structure;
    if (!sameSlab(clean, surface.slab.slab))
      throw new Error(
        `evaluate_adsorption_hypothesis: ${a.structure} is not the standardised slab of ${a.surface}; reference the standardised_slab made with that surface.`,
      );
    const hypothesis: Hypothesis = {
      action: 'propose',
      siteType: a.siteType,
      surfaceAtoms: a.surfaceAtoms,
      bindingAtoms: a.bindingAtoms,
      orientation: a.orientation,
      ...(a.rationale ? { rationale: a.rationale } : {}),
    };
    const view = ctx.services.provenance;
    const state = searchState(view, a.search);
    const v = validateHypothesis(hypothesis, {
      adsorbate: surface.adsorbate,
      surface: surface.surface,
      slabSymbols: clean.symbols,
      forbid: a.enforceForbid ? state.forbid : new Set(),
      tested: state.tested,
    });
    if (!v.ok) throw new Error(`evaluate_adsorption_hypothesis: the hypothesis is not valid: ${v.reasons.join(' ')}`);
    const refs = references(ctx, a);
    const probe: Structure = {
      ...clean,
      symbols: [...clean.symbols, ...surface.adsorbate.symbols],
      positions: [...clean.positions, ...surface.adsorbate.positions],
    };
    const log: PwJobLog = { jobs: [] };
    const { calculator, table } = callCalculator(a, probe, ctx, 'evaluate_adsorption_hypothesis', log);
    const executor = new ScreenAndRelaxExecutor(calculator, {
      fmaxEvPerAngstrom: a.fmaxEvPerAngstrom,
      maxSteps: a.maxSteps,
      ...(a.maxScreenedSites ? { maxSites: a.maxScreenedSites } : {}),
      ...(a.screenAzimuthsDeg ? { azimuthsDeg: a.screenAzimuthsDeg } : {}),
    });
    const label = `iteration ${a.iteration}: ${a.siteType} [${a.surfaceAtoms.join(', ')}]`;
    const exec = await executor
      .execute({ hypothesis, sites: v.sites, slab: surface.slab, adsorbate: surface.adsorbate, label }, ctx.signal)
      .finally(() => calculator.close?.());
    const relaxed = exec.relaxation;
    const adsorptionEnergyEv = relaxed.energyEv - refs.cleanSlabEv - refs.gasPhaseEv;
    const analysis = analyseConfiguration({
      relaxed: relaxed.structure,
      adsorbateStart: exec.placed.adsorbateStart,
      frame: surface.slab.frame,
      sites: surface.surface,
      plannedSite: exec.placed.site,
      adsorptionEnergyEv,
    });
    const identity = reportedCalculator(calculator);
    const r: Relaxed = {
      result: relaxed,
      settings: energySettings(a, relaxed.structure, table, log.codeVersion),
      jobs: log.jobs,
      ...(identity ? { calculatorIdentity: identity } : {}),
    };
    const { structure: _s, forcesEvPerAngstrom: _f, ...relaxation } = relaxed;
    const configuration: ConfigurationValue = {
      search: a.search,
      iteration: a.iteration,
      hypothesis,
      key: v.key,
      plannedSite: exec.placed.site,
      screening: exec.screening,
      placed: {
        structure: exec.placed.structure,
        adsorbateStart: exec.placed.adsorbateStart,
        heightAngstrom: exec.placed.heightAngstrom,
        bumpAngstrom: exec.placed.bumpAngstrom,
        azimuthDeg: exec.placed.azimuthDeg,
      },
      relaxation,
    };
    const valid = !analysis.dissociated && analysis.slip !== 'desorbed';
    const slip: SlipAnalysisValue = {
      ...analysis,
      search: a.search,
      iteration: a.iteration,
      plannedSiteFingerprint: exec.placed.site.fingerprint,
      adsorptionEnergyEv,
      valid,
    };
    const rs = analysis.relaxedSite;
    const binding: Vec3 = relaxed.structure.positions[exec.placed.adsorbateStart + analysis.bindingAtom]!;
    const siteLabel = rs.kind === 'desorbed' ? 'desorbed' : `${rs.kind}${rs.hollowType ? ` ${rs.hollowType}` : ''}`;
    const meta = {
      search: a.search,
      iteration: a.iteration,
      adsorbateStart: exec.placed.adsorbateStart,
      site: { kind: siteLabel, position: binding },
    };
    const status = relaxed.converged ? ('final' as const) : ('provisional' as const);
    return {
      artifacts: [
        {
          kind: 'table',
          name: SEARCH_ARTIFACT.configuration,
          value: configuration,
          status,
          meta: { search: a.search, iteration: a.iteration },
          file: { name: `iteration-${a.iteration}-start.extxyz`, bytes: formatExtxyz({ structure: exec.placed.structure }) },
        },
        ...relaxationDrafts(r, a, meta, { structure: SEARCH_ARTIFACT.relaxedConfiguration }),
        { kind: 'table', name: SEARCH_ARTIFACT.slipAnalysis, value: slip, status, meta: { search: a.search, iteration: a.iteration } },
      ],
      summary:
        `${label}: screened ${exec.screening.length} placement(s), relaxed ${exec.placed.site.id} (azimuth ${exec.placed.azimuthDeg}°) in ${relaxed.steps} step(s)` +
        `${relaxed.converged ? '' : ' (not converged: provisional)'}; ended ${siteLabel}${rs.kind !== 'desorbed' ? ` over ${rs.elements.join('-')}` : ''}, ` +
        `slip ${analysis.slip}${analysis.dissociated ? ', dissociated' : ''}; E = ${relaxed.energyEv.toFixed(4)} eV, E_ads ≈ ${adsorptionEnergyEv.toFixed(3)} eV` +
        (log.jobs.length ? ` (pw.x jobs ${log.jobs[0]}…${log.jobs.at(-1)})` : ''),
    };
  },
});
