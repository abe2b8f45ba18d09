/** Inputs of the lattice-constant workflow: their schema, defaults and the study's name. */
import { EOS_FORMS } from '../dft/eos';
import { isChemicalSymbol, normaliseSymbol } from '../dft/io/elements';
import type { CellMethod, StudyCrystal } from './latticeConstantCrystal';
import { STRUCTURE_FILE_SCHEMA, type StructureFileInput } from './structureFileInput';
import type { InputsOf } from './defineWorkflow';
import { ObjectiveError, type WorkflowEnvironment } from './types';

/** Elements whose ground state is magnetic at ambient conditions: run spin-polarized. */
export const MAGNETIC_ELEMENTS: ReadonlySet<string> = new Set(['Fe', 'Co', 'Ni']);

const STRUCTURES = ['fcc', 'bcc', 'diamond', 'hcp', 'sc'] as const;
/** Two-species prototypes built by name (build_bulk): rocksalt (B1), zincblende (B3), cesium chloride (B2). */
export const BINARY_STRUCTURES = ['rocksalt', 'zincblende', 'cesiumchloride'] as const;
export type BinaryStructure = (typeof BINARY_STRUCTURES)[number];
export const isBinaryStructure = (s: unknown): s is BinaryStructure => (BINARY_STRUCTURES as readonly unknown[]).includes(s);
const FUNCTIONALS = ['PBE', 'PZ', 'PBEsol'] as const;

/** SCF control given with a study: how pw.x gets to self-consistency, not where (the energies do not change). */
export interface ScfControl {
  electronMaxstep?: number;
  mixingBeta?: number;
  mixingMode?: 'plain' | 'TF' | 'local-TF';
  diagonalization?: 'david' | 'cg' | 'ppcg' | 'paro';
}

export const SCF_CONTROL_SCHEMA = {
  type: 'object',
  properties: {
    electronMaxstep: { type: 'integer', minimum: 1, maximum: 1000 },
    mixingBeta: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    mixingMode: { type: 'string', enum: ['plain', 'TF', 'local-TF'] },
    diagonalization: { type: 'string', enum: ['david', 'cg', 'ppcg', 'paro'] },
  },
  additionalProperties: false,
  description:
    "SCF control of every pw.x run (electron_maxstep, mixing_beta, mixing_mode, diagonalization); pw.x's defaults when left out.",
} as const;

export const SCF_CONTROL_REASON = 'SCF control given with the study (it does not change the energies)';

export type ConvergenceCriterionKind = 'energy' | 'pressure' | 'both';
export type ElectronicKind = 'metal' | 'insulator';

/**
 * Elements whose crystal is an insulator in the functionals offered here (diamond C and Si). Ge and
 * α-Sn close their small gaps in PBE and LDA, and every other element of the tables is a metal.
 */
const INSULATORS: ReadonlySet<string> = new Set(['C', 'Si']);

export const defaultElectronic = (element: string, structure: string): ElectronicKind =>
  structure === 'diamond' && INSULATORS.has(element) ? 'insulator' : 'metal';

export interface LatticeConstantInputs {
  element: string;
  /** The lattice of an element, a two-species prototype (then `elements`), or the crystal read from a file (then `crystal` describes it). */
  structure: (typeof STRUCTURES)[number] | BinaryStructure | StructureFileInput;
  /** A binary compound built by name: cation and anion, in build_bulk's order. */
  elements?: string[];
  /** Starting lattice constant, Å: the centre of the EOS series, not the result. */
  latticeConstantAngstrom: number;
  cOverA?: number;
  /** A crystal read from the user's file (structure: { file }), its species and symmetry (latticeConstantCrystal.ts). */
  structureFile?: StructureFileInput;
  crystal?: StudyCrystal;
  /** UPF file per species, where the library (or the objective) names one. */
  pseudopotentials?: Record<string, string>;
  /** Starting magnetization per species of a spin-polarized study. */
  startingMagnetizations?: Record<string, number>;
  /** A crystal from a file: its standardised primitive cell (default) or the cell as given. */
  cell?: 'primitive' | 'as-given';
  /** 'vc-relax' for a non-cubic crystal from a file (its shape relaxed before the EOS), else 'isotropic'. */
  cellMethod?: CellMethod;
  functional: (typeof FUNCTIONALS)[number];
  /** UPF file name in the pseudopotential directory. */
  pseudopotential?: string;
  cutoffsRy: number[];
  /**
   * ecutrho / ecutwfc: 4 for norm-conserving, 8 for ultrasoft and PAW, raised (to a whole number)
   * where that would put the sweep's lowest cutoff below the file's suggested density cutoff.
   */
  dual: number;
  kSpacingsPerAngstrom: number[];
  /** The k spacing the cutoff sweep (and the bulk-modulus probe) runs at: one the k sweep tests. */
  cutoffSweepKSpacingPerAngstrom: number;
  /**
   * What the sweeps are judged by. Default: energy when the objective states only an energy tolerance
   * (as objectives did before there was a choice), both when it states both, pressure otherwise.
   */
  criterion: ConvergenceCriterionKind;
  toleranceMevPerAtom: number;
  /** Tolerated shift of the lattice constant per sweep, % of a (pressure and both). */
  toleranceLatticePercent: number;
  /** A crystal whose shape is relaxed (vc-relax), pressure and both: tolerated shift of c/a per sweep, %; default DEFAULT_SHAPE_TOLERANCE_PERCENT. */
  toleranceShapePercent?: number;
  electronic: ElectronicKind;
  /** The largest predicted pw.x time (s) of one extension run started without asking. */
  extensionBudgetSeconds: number;
  eos: { points: number; rangePercent: number; form: string };
  smearing: { kind: 'mv' | 'mp' | 'gaussian' | 'fd'; degaussRy: number };
  spinPolarized: boolean;
  startingMagnetization: number;
  /** SCF control for every input (make_pw_input's arguments); never changes the physics. */
  scf?: ScfControl;
  /** Where defaulted inputs came from, in words the plan's reasons use (so a reason is true of the case at hand). */
  origins?: { pseudopotential: string; cutoffsRy: string; latticeConstant?: string };
}

export const LATTICE_CONSTANT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    element: { type: 'string', description: "Chemical symbol, e.g. 'Al' (with a named structure)." },
    elements: {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Z][a-z]?$' },
      minItems: 2,
      maxItems: 2,
      description:
        'A binary compound built by name: cation and anion, e.g. ["Ga", "As"] with structure zincblende, ["Na", "Cl"] rocksalt, ["Cs", "Cl"] cesiumchloride.',
    },
    structure: {
      oneOf: [
        {
          type: 'string',
          enum: [...STRUCTURES, ...BINARY_STRUCTURES],
          description:
            'Crystal structure of an element (fcc, bcc, diamond, hcp, sc), or the prototype of a binary compound given as elements (rocksalt B1, zincblende B3, cesiumchloride B2).',
        },
        {
          ...STRUCTURE_FILE_SCHEMA,
          description:
            "Any bulk crystal from a structure file: { file: NaCl.cif } (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF), relative to the objective file (an objective sentence that names a file: the working directory, or the folder of a notebook's canvas). Compounds and non-cubic cells are fine.",
        },
      ],
    },
    latticeConstantAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 20,
      description:
        "Starting lattice constant a in Å (e.g. the experimental value; of the conventional cubic cell for the binary prototypes): the centre of the EOS series. With a structure file, the file's cell is the start.",
    },
    pseudopotentials: {
      type: 'object',
      additionalProperties: { type: 'string', pattern: '^[^/\\\\]+\\.(upf|UPF)$' },
      description:
        "UPF file per species, e.g. { Na: Na.pbe.UPF, Cl: Cl.pbe.UPF }; default: the library's file for each species and the functional.",
    },
    cell: {
      type: 'string',
      enum: ['primitive', 'as-given'],
      description:
        'A crystal from a file: compute on its standardised primitive cell (default: fewest atoms, the same crystal) or on the cell as the file gives it.',
    },
    cellShape: {
      type: 'string',
      enum: ['relax', 'fixed'],
      description:
        'Non-cubic crystals from a file: relax the shape (c/a, angles, internal coordinates) with a vc-relax before the EOS (relax, default), or keep the shape of the file (fixed).',
    },
    cOverA: { type: 'number', exclusiveMinimum: 0, description: 'hcp only: c/a, held fixed (default ideal 1.633).' },
    functional: {
      type: 'string',
      enum: [...FUNCTIONALS, 'LDA'],
      description: "Exchange-correlation functional (LDA means 'PZ'). Default PBE.",
    },
    pseudopotential: {
      type: 'string',
      pattern: '^[^/\\\\]+\\.(upf|UPF)$',
      description: "UPF file name in the pseudopotential directory; default: the library's file for the element and functional.",
    },
    cutoffsRy: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0 },
      minItems: 3,
      maxItems: 15,
      uniqueItems: true,
      description: 'ecutwfc values of the cutoff sweep, Ry.',
    },
    dual: {
      type: 'number',
      minimum: 4,
      maximum: 16,
      description:
        "ecutrho / ecutwfc; default 4 for norm-conserving, 8 for ultrasoft/PAW pseudopotentials, or higher where the file's suggested density cutoff needs it at the sweep's lowest cutoff.",
    },
    kSpacingsPerAngstrom: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0, maximum: 2 },
      minItems: 3,
      maxItems: 15,
      uniqueItems: true,
      description:
        'k-point spacings of the k sweep, 1/Å (with 2π). Default: metals 0.3, 0.25, 0.2, 0.15, 0.11; insulators 0.5, 0.4, 0.3, 0.25.',
    },
    cutoffSweepKSpacingPerAngstrom: {
      type: 'number',
      minimum: 0.02,
      maximum: 2,
      description: 'k spacing of the cutoff sweep, 1/Å; one of kSpacingsPerAngstrom (default: the middle one).',
    },
    criterion: {
      type: 'string',
      enum: ['energy', 'pressure', 'both'],
      description:
        'What each sweep run is judged by against the finest: the shift of the lattice constant that its pressure implies (pressure), the energy per atom (energy), or both. Default pressure, or energy when only toleranceMevPerAtom is given.',
    },
    toleranceMevPerAtom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 50,
      description: 'Energy tolerance per atom against the finest run, meV/atom (energy, both). Default 1.',
    },
    toleranceLatticePercent: {
      type: 'number',
      minimum: 0.001,
      maximum: 5,
      description: 'Tolerated shift of the lattice constant per sweep, % of a, from the pressure (pressure, both). Default 0.05.',
    },
    toleranceShapePercent: {
      type: 'number',
      minimum: 0.001,
      maximum: 5,
      description:
        'Non-cubic crystals whose shape is relaxed: tolerated shift of c/a per sweep, %, from the deviatoric stress (pressure, both). Default 0.15, nominal at a shape modulus of B/2: a crystal whose shape is softer (hcp Zn, Cd) may be off by up to about 1.35× it.',
    },
    electronic: {
      type: 'string',
      enum: ['metal', 'insulator'],
      description: 'Where the k sweep starts. Default insulator for diamond C and Si, metal otherwise.',
    },
    extensionBudgetSeconds: {
      type: 'number',
      exclusiveMinimum: 0,
      description:
        'A sweep extension whose run is predicted to take longer than this (s of pw.x) is not started without asking. Default 1800.',
    },
    eos: {
      type: 'object',
      properties: {
        points: { type: 'integer', minimum: 5, maximum: 15, description: 'Volumes in the EOS series (default 5).' },
        rangePercent: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 15,
          description: 'The series spans ±this percent of the lattice constant (default 5).',
        },
        form: { type: 'string', enum: [...EOS_FORMS], description: 'Equation of state (default birch-murnaghan).' },
      },
      additionalProperties: false,
    },
    smearing: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
        degaussRy: { type: 'number', exclusiveMinimum: 0, maximum: 0.1 },
      },
      additionalProperties: false,
    },
    spinPolarized: { type: 'boolean', description: 'Default: true for Fe, Co and Ni.' },
    startingMagnetization: {
      oneOf: [
        { type: 'number', minimum: -1, maximum: 1 },
        { type: 'object', additionalProperties: { type: 'number', minimum: -1, maximum: 1 } },
      ],
      description:
        'Spin-polarized runs: starting magnetization of each magnetic species (one number), or per species ({ Fe: 0.6, O: 0 }); default 0.5.',
    },
    scf: SCF_CONTROL_SCHEMA,
  },
  required: ['structure'],
  // A structure named by its lattice needs a starting lattice constant, and the element (an element's
  // lattice) or the two elements (a binary prototype); a file has all of them. An element or a pair
  // named without a structure is read as the lattice route too (it needs the lattice and a); inputs
  // with neither need only the structure (a lattice, a prototype or { file }).
  if: {
    anyOf: [
      { properties: { structure: { type: 'string' } }, required: ['structure'] },
      { not: { required: ['structure'] }, anyOf: [{ required: ['element'] }, { required: ['elements'] }] },
    ],
  },
  then: { required: ['structure', 'latticeConstantAngstrom'] },
  allOf: [
    { if: { properties: { structure: { enum: [...BINARY_STRUCTURES] } }, required: ['structure'] }, then: { required: ['elements'] } },
    { if: { properties: { structure: { enum: [...STRUCTURES] } }, required: ['structure'] }, then: { required: ['element'] } },
  ],
  additionalProperties: false,
} as const;

/** The inputs of an objective, as its schema admits them (a structure file read when the objective is loaded). */
export type LatticeObjectiveInputs = InputsOf<typeof LATTICE_CONSTANT_INPUT_SCHEMA>;

export const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/**
 * The default ecutrho/ecutwfc: the pseudopotential type's usual ratio, or more where the file's
 * header suggests a density cutoff that ratio would not reach at the sweep's lowest cutoff (V,
 * W, Pt, Pd and Au of pslibrary ask for 8.9–13.6 × their wavefunction suggestion). A fixed ratio
 * keeps the cutoff sweep one-dimensional; a higher one costs a larger density grid only.
 */
export function defaultDual(norm: boolean, lowestCutoffRy: number | undefined, suggestedEcutrhoRy: number | undefined): number {
  const usual = norm ? 4 : 8;
  const lowest = lowestCutoffRy ?? 0;
  if (!suggestedEcutrhoRy || !lowest || usual * lowest >= suggestedEcutrhoRy) return usual;
  // a whole number, as the site-preference template's bulk sweep does
  return Math.ceil(suggestedEcutrhoRy / lowest);
}

/**
 * Cutoffs from the pseudopotential's suggestion upward in 10-Ry steps: the suggestion is where the
 * file's author found it converged, so the cheapest values are the candidates; an extension adds
 * one more step at a time.
 */
export function defaultCutoffsRy(suggestedEcutwfcRy: number | undefined): number[] {
  const start = Math.max(15, Math.ceil((suggestedEcutwfcRy ?? 20) / 5) * 5);
  return [start, start + 10, start + 20, start + 30];
}

/**
 * Coarse to fine, where convergence is likely. A metal's lattice constant within 0.05 % needs about
 * 0.2 1/Å (Ir: 15³) and sometimes 0.15, so a metal's sweep ends at 0.11 1/Å: a reference judged
 * against a coarser 0.15 would not show that 0.15 itself is converged (fcc Al, LDA, mv 0.02 Ry:
 * 14³ is 0.95 kbar off 25³ but 0.71 kbar off 18³). An insulator's converges at a coarser mesh; an
 * extension adds one finer value at a time. The middle spacing, where the cutoff sweep runs, is
 * 0.2 for a metal either way.
 */
export const DEFAULT_K_SPACINGS: Record<ElectronicKind, number[]> = {
  metal: [0.3, 0.25, 0.2, 0.15, 0.11],
  insulator: [0.5, 0.4, 0.3, 0.25],
};

/**
 * The default tolerated shift of c/a per sweep for a crystal whose shape is relaxed, %, nominal at the
 * shape modulus B/2 (SHAPE_MODULUS_PER_BULK): for hcp Mg, whose measured modulus is 0.81 B, it holds c/a
 * to 0.09 %; for a crystal whose shape is softer, such as hcp Zn or Cd (about 0.37–0.46 B), to up to
 * about 1.35× the tolerance (0.2 %), so a study of those asks for a tighter one. Tighter (0.05 %
 * as for a, or 0.1 %) does not settle for hcp Mg at mv 0.02 Ry: its stress anisotropy still moves by
 * 0.3 kbar between the 30×30×17, 36×36×20 and 44×44×25 meshes (docs/notes/workflows.md, "c/a of a
 * non-cubic crystal").
 */
export const DEFAULT_SHAPE_TOLERANCE_PERCENT = 0.15;

/** The middle of a k sweep (coarse to fine): where the cutoff sweep runs unless told otherwise. */
export const middleSpacing = (coarseToFine: number[]): number => coarseToFine[Math.floor(coarseToFine.length / 2)]!;

/** A stated energy tolerance alone keeps the energy criterion; a lattice tolerance alone or none, pressure; both, both. */
export function defaultCriterion(raw: Record<string, unknown>): ConvergenceCriterionKind {
  const energy = raw.toleranceMevPerAtom !== undefined;
  const lattice = raw.toleranceLatticePercent !== undefined;
  return energy && lattice ? 'both' : energy ? 'energy' : 'pressure';
}

/** Lattice scale factors spanning ±rangePercent in `points` equal steps. */
export function eosScaleFactors(points: number, rangePercent: number): number[] {
  const r = rangePercent / 100;
  return Array.from({ length: points }, (_, i) => round(1 - r + (2 * r * i) / (points - 1), 6));
}

/**
 * What resolveLatticeInputs reads: an objective's inputs with the crystal named by an element's
 * lattice and one starting magnetization (resolveStudyInputs hands a compound or a file's crystal
 * in with a stand-in lattice, latticeConstantStudy.ts).
 */
export type LatticeElementInputs = Omit<LatticeObjectiveInputs, 'structure' | 'latticeConstantAngstrom' | 'startingMagnetization'> & {
  structure: (typeof STRUCTURES)[number];
  latticeConstantAngstrom: number;
  startingMagnetization?: number;
};

export function resolveLatticeInputs(raw: LatticeElementInputs, env: WorkflowEnvironment): LatticeConstantInputs {
  const element = normaliseSymbol(String(raw.element ?? ''));
  if (!isChemicalSymbol(element)) {
    throw new ObjectiveError(`inputs.element: "${String(raw.element)}" is not a chemical symbol; write one such as 'Al', 'Fe' or 'Si'.`);
  }
  const structure = raw.structure;
  const functional = raw.functional === 'LDA' ? 'PZ' : (raw.functional ?? 'PBE');
  const pseudoFile = raw.pseudopotential;
  const pseudo = env.pseudopotential?.({ element, functional, ...(pseudoFile ? { file: pseudoFile } : {}) });
  if (pseudoFile && env.pseudopotential && !pseudo) {
    throw new ObjectiveError(
      `inputs.pseudopotential: ${pseudoFile} is not in the pseudopotential directory; name a UPF file that is there, or leave it out to use the library's file for ${element}.`,
    );
  }
  const norm = pseudo?.type === 'NC' || pseudo?.type === 'SL';
  const cutoffsRy = [...(raw.cutoffsRy ?? defaultCutoffsRy(pseudo?.suggestedEcutwfcRy))].sort((a, b) => a - b);
  const givenDual = raw.dual;
  const rho = pseudo?.suggestedEcutrhoRy;
  // The sweep's lowest cutoff, but not below the file's own wavefunction suggestion: a sweep given
  // from below it keeps the ratio the file asks for (645/47.6 Ry for V, not 645/20).
  const lowest = Math.max(cutoffsRy[0]!, pseudo?.suggestedEcutwfcRy ?? 0);
  if (givenDual !== undefined && rho !== undefined && givenDual * lowest < rho) {
    // The guard refuses an input below the file's suggested density cutoff: say so before anything runs.
    throw new ObjectiveError(
      `inputs.dual: ${givenDual} × ${round(lowest, 1)} Ry (the sweep's lowest cutoff) = ${round(givenDual * lowest, 1)} Ry is below the ` +
        `${round(rho, 1)} Ry density cutoff ${pseudo!.file} suggests, and the guard refuses such inputs. Use dual ≥ ${Math.ceil(rho / lowest)}, ` +
        `start cutoffsRy at ${Math.ceil(rho / givenDual)} Ry or above, or leave dual out to have it chosen.`,
    );
  }
  const electronic = raw.electronic ?? defaultElectronic(element, structure);
  const kSpacingsPerAngstrom = [...(raw.kSpacingsPerAngstrom ?? DEFAULT_K_SPACINGS[electronic])].sort((a, b) => b - a);
  const cutoffSweepK = raw.cutoffSweepKSpacingPerAngstrom ?? middleSpacing(kSpacingsPerAngstrom);
  if (!kSpacingsPerAngstrom.some((k) => Math.abs(k - cutoffSweepK) < 1e-9)) {
    throw new ObjectiveError(
      `inputs.cutoffSweepKSpacingPerAngstrom: ${cutoffSweepK} 1/Å is not one of the k sweep's spacings (${kSpacingsPerAngstrom.join(', ')}); ` +
        'use one of them, so the cutoff sweep shares a run with the k sweep and its k error is one the k sweep measures.',
    );
  }
  const eos = raw.eos ?? {};
  const points = eos.points ?? 5;
  if (points % 2 === 0) {
    throw new ObjectiveError(
      `inputs.eos.points: ${points} is even; use an odd number (5, 7, 9) so the starting lattice constant is the middle point.`,
    );
  }
  const criterion = raw.criterion ?? defaultCriterion(raw);
  if (criterion === 'energy' && raw.toleranceShapePercent !== undefined) {
    // The shape modulus comes from the probe's bulk modulus, which only the pressure criterion runs: refuse rather than ignore it.
    throw new ObjectiveError(
      `inputs.toleranceShapePercent: ${String(raw.toleranceShapePercent)} % of c/a needs criterion pressure or both, but the criterion is energy` +
        `${raw.criterion === undefined ? ' (chosen because only toleranceMevPerAtom is given)' : ''}: the shape modulus is estimated from the bulk modulus of the pressure criterion's probe. ` +
        'Set criterion: both (keeps the energy tolerance) or criterion: pressure, or leave toleranceShapePercent out.',
    );
  }
  const smearing = raw.smearing ?? {};
  if (structure === 'hcp' && raw.cOverA === undefined) {
    // The ideal ratio is the template's choice; say so rather than decide silently.
    raw = { ...raw, cOverA: round(Math.sqrt(8 / 3), 6) };
  }
  return {
    element,
    structure,
    latticeConstantAngstrom: raw.latticeConstantAngstrom,
    ...(raw.cOverA !== undefined ? { cOverA: raw.cOverA } : {}),
    functional,
    ...((pseudo?.file ?? pseudoFile) ? { pseudopotential: pseudo?.file ?? pseudoFile } : {}),
    cutoffsRy,
    dual: givenDual ?? defaultDual(norm, lowest, rho),
    kSpacingsPerAngstrom,
    cutoffSweepKSpacingPerAngstrom: cutoffSweepK,
    criterion,
    toleranceMevPerAtom: raw.toleranceMevPerAtom ?? 1,
    toleranceLatticePercent: raw.toleranceLatticePercent ?? 0.05,
    ...(raw.toleranceShapePercent !== undefined ? { toleranceShapePercent: raw.toleranceShapePercent } : {}),
    electronic,
    extensionBudgetSeconds: raw.extensionBudgetSeconds ?? 1800,
    eos: { points, rangePercent: eos.rangePercent ?? 5, form: eos.form ?? 'birch-murnaghan' },
    smearing: { kind: smearing.kind ?? 'mv', degaussRy: smearing.degaussRy ?? 0.02 },
    spinPolarized: raw.spinPolarized ?? MAGNETIC_ELEMENTS.has(element),
    startingMagnetization: raw.startingMagnetization ?? 0.5,
    ...(raw.scf ? { scf: raw.scf } : {}),
    origins: {
      pseudopotential: pseudoFile
        ? 'the file named with the objective'
        : `the library's ${functional} file for ${element} (the objective named none)`,
      cutoffsRy: raw.cutoffsRy
        ? 'the cutoffs the objective asked for'
        : pseudo?.suggestedEcutwfcRy
          ? `from the ${round(pseudo.suggestedEcutwfcRy, 1)} Ry its file suggests upward, in 10-Ry steps`
          : `in 10-Ry steps from ${cutoffsRy[0]} Ry: ${pseudo?.file ?? 'the file'} states no suggested cutoff`,
    },
  };
}
