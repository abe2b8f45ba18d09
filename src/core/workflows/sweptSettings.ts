/**
 * The settings a bulk study's pw.x runs share, given or chosen by sweeps: the functional and
 * pseudopotentials, the wavefunction cutoff (given, or a cutoff sweep), the dual (ecutrho /
 * ecutwfc, from the pseudopotentials' type unless given), the k-spacing (given, or a k sweep)
 * and the sweeps' energy tolerance. One schema fragment, one resolved type and one resolver for
 * the band-structure/DOS templates (electronicStructure/inputs.ts) and the relax, magnetic-
 * ordering, formation-energy and surface-energy templates (everyday/common.ts); each family
 * passes its own sweep defaults. Ry, 1/Å (with 2π), meV/atom.
 */
import type { InputsOf } from './defineWorkflow';
import { ObjectiveError, type WorkflowEnvironment } from './types';

/** The pw.x time a sweep extension's run may be predicted to take and still start without asking, s (as the lattice-constant workflow's). */
export const DEFAULT_EXTENSION_BUDGET_SECONDS = 1800;

/** The objective's settings fields (spread into a template's `properties`). */
export const SWEPT_SETTINGS_SCHEMA = {
  functional: { type: 'string', enum: ['PBE', 'PZ', 'LDA', 'PBEsol'], description: 'Default PBE (LDA means PZ).' },
  pseudopotentials: {
    type: 'object',
    additionalProperties: { type: 'string', pattern: '^[^/\\\\]+\\.(upf|UPF)$' },
    description: "UPF file per species (default: the library's for the functional).",
  },
  ecutwfcRy: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 400,
    description: 'Wavefunction cutoff, Ry; absent: chosen by a cutoff sweep.',
  },
  dual: {
    type: 'number',
    minimum: 4,
    maximum: 16,
    description: 'ecutrho / ecutwfc (default 4 for norm-conserving, 8 for ultrasoft/PAW pseudopotentials).',
  },
  kSpacingPerAngstrom: {
    type: 'number',
    minimum: 0.02,
    maximum: 2,
    description: 'k-point spacing, 1/Å with 2π; absent: chosen by a k sweep.',
  },
  cutoffsRy: {
    type: 'array',
    items: { type: 'number', exclusiveMinimum: 0, maximum: 400 },
    minItems: 3,
    maxItems: 10,
    uniqueItems: true,
    description:
      "Cutoff sweep, Ry (when ecutwfcRy is absent; default four from the pseudopotentials' suggested cutoff, rounded up to 5 Ry, up in 10-Ry steps; from 20 Ry when no file states one).",
  },
  kSpacingsPerAngstrom: {
    type: 'array',
    items: { type: 'number', minimum: 0.02, maximum: 2 },
    minItems: 3,
    maxItems: 10,
    uniqueItems: true,
    description: 'k sweep, 1/Å (when kSpacingPerAngstrom is absent; default 0.4, 0.3, 0.25, 0.2).',
  },
  toleranceMevPerAtom: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 50,
    description: 'Sweep tolerance against the finest run, meV/atom (default 1).',
  },
  extensionBudgetSeconds: {
    type: 'number',
    exclusiveMinimum: 0,
    description:
      "A sweep extension whose run is predicted to take longer than this (s of pw.x, from the sweep's own runs by plane waves × k-points) is not started without asking. Default 1800.",
  },
} as const;

/** The settings fields of an objective, as the fragment admits them. */
export type SweptSettingsInputs = InputsOf<{ type: 'object'; properties: typeof SWEPT_SETTINGS_SCHEMA }>;

/** The settings after defaults. */
export interface SweptSettings {
  functional: 'PBE' | 'PZ' | 'PBEsol';
  pseudopotentials?: Record<string, string>;
  /** Given, or undefined where the cutoff sweep chooses it. */
  ecutwfcRy?: number;
  dual: number;
  /** Given, or undefined where the k sweep chooses it. */
  kSpacingPerAngstrom?: number;
  /** Low to high. */
  cutoffsRy: number[];
  /** Where a default cutoff sweep starts from: the largest ecutwfc the species' files suggest, Ry. */
  cutoffsFromSuggestionRy?: number;
  /** Coarse to fine. */
  kSpacingsPerAngstrom: number[];
  toleranceMevPerAtom: number;
  /** The largest predicted pw.x time of a sweep extension's run started without asking, s (absent in runs recorded before it). */
  extensionBudgetSeconds?: number;
}

/** The names of SweptSettings' fields (a reader of inputs recorded before they were nested under `settings`). */
export const SWEPT_SETTINGS_KEYS: readonly (keyof SweptSettings)[] = [
  'functional',
  'pseudopotentials',
  'ecutwfcRy',
  'dual',
  'kSpacingPerAngstrom',
  'cutoffsRy',
  'cutoffsFromSuggestionRy',
  'kSpacingsPerAngstrom',
  'toleranceMevPerAtom',
  'extensionBudgetSeconds',
];

/**
 * A family's sweeps where the objective gives none: fixed cutoffs, or `suggestionSteps` cutoffs
 * (five unless said) from the pseudopotentials' suggestion up in 10-Ry steps.
 */
export interface SweepDefaults {
  cutoffsRy: number[] | 'from-suggestion';
  /** How many cutoffs a from-suggestion sweep has (default 5). */
  suggestionSteps?: number;
  kSpacingsPerAngstrom: number[];
}

/**
 * The dual a given ecutrhoRy sets, or an ObjectiveError where the objective says two things or
 * half of one: ecutrhoRy beside a dual it disagrees with (which would silently lose one), ecutrhoRy
 * without ecutwfcRy (a swept cutoff has no fixed density cutoff), or a ratio below pw.x's 4.
 */
function givenCutoffsRatio(inputs: { ecutwfcRy?: number; ecutrhoRy?: number; dual?: number }): number {
  const rho = inputs.ecutrhoRy as number;
  if (inputs.ecutwfcRy === undefined) {
    throw new ObjectiveError(
      `inputs.ecutrhoRy: ${rho} Ry is given without ecutwfcRy, but the wavefunction cutoff is chosen by a sweep, so no one density cutoff fits every run. ` +
        'Give ecutwfcRy as well (the dual is then ecutrhoRy / ecutwfcRy), or give the ratio ecutrho / ecutwfc as dual (4 to 16) and leave ecutrhoRy out.',
    );
  }
  const ratio = rho / inputs.ecutwfcRy;
  if (inputs.dual !== undefined && Math.abs(inputs.dual - ratio) > 1e-9 * ratio) {
    throw new ObjectiveError(
      `inputs.dual and inputs.ecutrhoRy disagree: dual ${inputs.dual} means ecutrho = ${Number((inputs.dual * inputs.ecutwfcRy).toPrecision(12))} Ry, ` +
        `but ecutrhoRy is ${rho} Ry (${Number(ratio.toPrecision(6))} × ecutwfcRy ${inputs.ecutwfcRy} Ry). Keep one of them: dual, or ecutrhoRy; leave the other out.`,
    );
  }
  if (ratio < 4) {
    throw new ObjectiveError(
      `inputs.ecutrhoRy: ${rho} Ry is ${Number(ratio.toPrecision(6))} × ecutwfcRy ${inputs.ecutwfcRy} Ry, below the 4 × ecutwfc a dual may be here ` +
        `(the density of the wavefunctions needs 4 ×; pw.x warns "ecutrho < 4*ecutwfc, are you sure?"). Give ecutrhoRy ≥ ${4 * inputs.ecutwfcRy} Ry, or leave it out for the pseudopotentials' default dual.`,
    );
  }
  return inputs.dual ?? ratio;
}

/**
 * Settings after defaults. The dual: given; or the ratio of a given ecutrhoRy to ecutwfcRy (the
 * band-structure objective's older way to say it; both, if they disagree, are refused, as is
 * ecutrhoRy without ecutwfcRy); or 4 when every species' pseudopotential is
 * norm-conserving, 8 otherwise (ultrasoft, PAW, or not known without a machine).
 */
export function resolveSweptSettings(
  inputs: SweptSettingsInputs & { ecutrhoRy?: number },
  species: string[],
  env: WorkflowEnvironment,
  defaults: SweepDefaults,
): SweptSettings {
  const functional = inputs.functional === 'LDA' ? 'PZ' : (inputs.functional ?? 'PBE');
  const prefer = inputs.pseudopotentials;
  const files = species.map((el) => env.pseudopotential?.({ element: el, functional, ...(prefer?.[el] ? { file: prefer[el] } : {}) }));
  const types = files.map((f) => f?.type);
  const norm = types.length > 0 && types.every((t) => t === 'NC' || t === 'SL');
  const dual = inputs.ecutrhoRy !== undefined ? givenCutoffsRatio(inputs) : (inputs.dual ?? (norm ? 4 : 8));
  // the default sweep starts where the files' authors found them converged (none stated: 20 Ry)
  const suggested = Math.max(0, ...files.map((f) => f?.suggestedEcutwfcRy ?? 0));
  const start = suggested ? Math.max(15, Math.ceil(suggested / 5) * 5) : 20;
  const fromSuggestion = !inputs.cutoffsRy && defaults.cutoffsRy === 'from-suggestion';
  const cutoffsRy =
    inputs.cutoffsRy ??
    (defaults.cutoffsRy === 'from-suggestion'
      ? Array.from({ length: defaults.suggestionSteps ?? 5 }, (_, i) => start + 10 * i)
      : defaults.cutoffsRy);
  return {
    functional,
    ...(prefer ? { pseudopotentials: prefer } : {}),
    dual,
    ...(inputs.ecutwfcRy !== undefined ? { ecutwfcRy: inputs.ecutwfcRy } : {}),
    ...(inputs.kSpacingPerAngstrom !== undefined ? { kSpacingPerAngstrom: inputs.kSpacingPerAngstrom } : {}),
    cutoffsRy: [...cutoffsRy].sort((a, b) => a - b),
    ...(fromSuggestion && suggested ? { cutoffsFromSuggestionRy: suggested } : {}),
    kSpacingsPerAngstrom: [...(inputs.kSpacingsPerAngstrom ?? defaults.kSpacingsPerAngstrom)].sort((a, b) => b - a),
    toleranceMevPerAtom: inputs.toleranceMevPerAtom ?? 1,
    extensionBudgetSeconds: inputs.extensionBudgetSeconds ?? DEFAULT_EXTENSION_BUDGET_SECONDS,
  };
}
