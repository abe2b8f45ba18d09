/**
 * Inputs of the band-structure and DOS studies: the crystal (an element in its ground-state
 * structure at the experimental lattice constant, or named with its lattice, or the user's
 * structure file), the functional, pseudopotentials and SCF settings (given, or chosen by a cutoff
 * and a k sweep; sweptSettings.ts, as the everyday templates' are, held under `settings`),
 * occupations (fixed for an insulator, smeared for a metal unless the user says), and the band
 * path density or the DOS mesh. Lengths in Å, k spacings in 1/Å (with 2π),
 * cutoffs in Ry, energies in eV.
 */
import { isMetallic } from '../../guard/rules/metalsHaveSmearing';
import { defaultSpin, startingMagnetizations } from '../latticeConstantCrystal';
import { loadStructureFileInput, structureFileNamedIn } from '../structureFileInput';
import type { InputsOf } from '../defineWorkflow';
import { resolveSweptSettings, SWEPT_SETTINGS_KEYS, SWEPT_SETTINGS_SCHEMA, type SweptSettings } from '../sweptSettings';
import { ObjectiveError, type WorkflowEnvironment } from '../types';

/**
 * Ground-state crystals of common elements at room temperature: structure and lattice constant,
 * Å (C. Kittel, Introduction to Solid State Physics, 8th ed., ch. 1, Table 4; Mg, Ti, Zn c/a from
 * the same table). A starting structure, never a result.
 */
export const ELEMENT_CRYSTALS: Readonly<Record<string, { structure: Bravais; a: number; cOverA?: number }>> = {
  C: { structure: 'diamond', a: 3.567 },
  Si: { structure: 'diamond', a: 5.431 },
  Ge: { structure: 'diamond', a: 5.658 },
  Al: { structure: 'fcc', a: 4.05 },
  Cu: { structure: 'fcc', a: 3.61 },
  Ag: { structure: 'fcc', a: 4.09 },
  Au: { structure: 'fcc', a: 4.08 },
  Ni: { structure: 'fcc', a: 3.52 },
  Pd: { structure: 'fcc', a: 3.89 },
  Pt: { structure: 'fcc', a: 3.92 },
  Pb: { structure: 'fcc', a: 4.95 },
  Fe: { structure: 'bcc', a: 2.87 },
  Cr: { structure: 'bcc', a: 2.88 },
  Mo: { structure: 'bcc', a: 3.15 },
  W: { structure: 'bcc', a: 3.16 },
  Na: { structure: 'bcc', a: 4.23 },
  K: { structure: 'bcc', a: 5.23 },
  Li: { structure: 'bcc', a: 3.49 },
  Mg: { structure: 'hcp', a: 3.21, cOverA: 1.62 },
  Ti: { structure: 'hcp', a: 2.95, cOverA: 1.59 },
  Zn: { structure: 'hcp', a: 2.66, cOverA: 1.86 },
};

export type Bravais = 'fcc' | 'bcc' | 'diamond' | 'hcp' | 'sc' | 'rocksalt' | 'zincblende' | 'cesiumchloride';

/** The prototypes of a binary compound (cation, anion), each with an example for error messages. */
export const BINARY_EXAMPLE: Readonly<Partial<Record<Bravais, string>>> = {
  rocksalt: '["Mg", "O"]',
  zincblende: '["Ga", "As"]',
  cesiumchloride: '["Cs", "Cl"]',
};

export const ELECTRONIC_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    element: {
      type: 'string',
      pattern: '^[A-Z][a-z]?$',
      description: 'The element (with structure and latticeConstantAngstrom, or its ground-state crystal from the table).',
    },
    elements: {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Z][a-z]?$' },
      minItems: 2,
      maxItems: 2,
      description: 'Rocksalt, zincblende, cesiumchloride: cation and anion.',
    },
    structure: { type: 'string', enum: ['fcc', 'bcc', 'diamond', 'hcp', 'sc', 'rocksalt', 'zincblende', 'cesiumchloride'] },
    latticeConstantAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'Lattice constant a, Å (the experimental one by default).',
    },
    cOverA: { type: 'number', exclusiveMinimum: 0 },
    structureFile: {
      type: 'string',
      minLength: 1,
      description:
        "The user's structure file (CIF, POSCAR, pw.x, extxyz, XSF), relative to the objective file; computed on its standardised primitive cell.",
    },
    structureSha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: "Recorded when the objective is loaded: the file's sha256.",
    },
    structureSpecies: {
      type: 'array',
      items: { type: 'string' },
      description: 'Recorded when the objective is loaded: the species of the file.',
    },
    ...SWEPT_SETTINGS_SCHEMA,
    ecutrhoRy: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'Charge-density cutoff, Ry (default 4× ecutwfc for norm-conserving, 8× otherwise); with ecutwfcRy, sets the dual.',
    },
    cutoffsRy: {
      ...SWEPT_SETTINGS_SCHEMA.cutoffsRy,
      description:
        "Cutoff sweep, Ry (when ecutwfcRy is absent; default five from the pseudopotentials' suggested cutoff up in 10-Ry steps).",
    },
    kSpacingsPerAngstrom: {
      ...SWEPT_SETTINGS_SCHEMA.kSpacingsPerAngstrom,
      description:
        'SCF k sweep, 1/Å (when kSpacingPerAngstrom is absent; default 0.3, 0.25, 0.2, 0.15, 0.11 for a metal, 0.5, 0.4, 0.3, 0.25, 0.2 otherwise).',
    },
    occupations: {
      type: 'string',
      enum: ['fixed', 'smearing'],
      description: 'SCF occupations: default fixed for a non-metal, smearing for a metal.',
    },
    smearing: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
    degaussRy: { type: 'number', exclusiveMinimum: 0 },
    spinPolarized: {
      type: 'boolean',
      description:
        'Spin-polarised SCF (nspin = 2) and bands of both spin channels (default: when a species is magnetic: Cr, Mn, Fe, Co, Ni, Gd).',
    },
    startingMagnetization: {
      type: 'object',
      additionalProperties: { type: 'number', minimum: -1, maximum: 1 },
      description: 'Starting magnetization per species of a spin-polarised study (default 0.5 on each magnetic species).',
    },
    pointsPerInverseAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'Band structure: k-points per 1/Å of path (default 30).',
    },
    nbnd: { type: 'integer', minimum: 1, description: 'Bands of the NSCF run (default: occupied + at least 4).' },
    dosMeshFactor: {
      type: 'integer',
      minimum: 1,
      maximum: 8,
      description: "DOS: the NSCF mesh as a multiple of the SCF's in each direction (default 2).",
    },
    dosOccupations: {
      type: 'string',
      enum: ['tetrahedra_opt', 'smearing'],
      description: "DOS: optimised tetrahedra (default) or the SCF's smearing.",
    },
    pdos: { type: 'boolean', description: 'DOS: also the projected DOS per species and l (projwfc.x; default true).' },
    deltaEEv: { type: 'number', exclusiveMinimum: 0, description: 'DOS: energy step, eV (default 0.02).' },
  },
  additionalProperties: false,
} as const;

/** The inputs of an objective, as its schema admits them. */
export type ElectronicObjectiveInputs = InputsOf<typeof ELECTRONIC_INPUT_SCHEMA>;

export interface ElectronicInputs {
  species: string[];
  element: string;
  elements?: string[];
  structure?: Bravais;
  latticeConstantAngstrom?: number;
  cOverA?: number;
  structureFile?: string;
  structureSha256?: string;
  /** The functional, pseudopotentials, cutoff, dual, k-spacing and sweeps (the everyday templates' too). */
  settings: SweptSettings;
  occupations: 'fixed' | 'smearing';
  smearing?: string;
  degaussRy?: number;
  metal: boolean;
  /** nspin = 2 with these starting moments (absent in runs recorded before spin was offered: unpolarised). */
  spinPolarized?: boolean;
  startingMagnetization?: Record<string, number>;
  pointsPerInverseAngstrom: number;
  nbnd?: number;
  dosMeshFactor: number;
  dosOccupations: 'tetrahedra_opt' | 'smearing';
  pdos: boolean;
  deltaEEv: number;
}

/** Inputs after defaults, or an ObjectiveError naming each problem. */
export function resolveElectronicInputs(given: ElectronicObjectiveInputs, env: WorkflowEnvironment): ElectronicInputs {
  const r =
    typeof given.structureFile === 'string'
      ? { ...given, ...structureFileAsRead({ ...given, structureFile: given.structureFile }) }
      : given;
  const problems: string[] = [];
  const fileSpecies = r.structureFile ? r.structureSpecies : undefined;
  const element = r.element ?? r.elements?.[0] ?? fileSpecies?.[0];
  if (!element)
    problems.push(
      `inputs.element: name the element (e.g. "Si")${r.structureFile ? ', or inputs.elements, the species of the structure file' : ''}`,
    );
  const table = element ? ELEMENT_CRYSTALS[element] : undefined;
  const structure = r.structureFile ? undefined : (r.structure ?? table?.structure);
  const a = r.structureFile ? undefined : (r.latticeConstantAngstrom ?? (structure === table?.structure ? table?.a : undefined));
  if (!r.structureFile && element && (!structure || a === undefined)) {
    problems.push(
      `inputs.structure and inputs.latticeConstantAngstrom: ${element} is not in the table of ground-state crystals (${Object.keys(ELEMENT_CRYSTALS).join(', ')}); give its structure and lattice constant`,
    );
  }
  if (structure && structure in BINARY_EXAMPLE && r.elements?.length !== 2)
    problems.push(`inputs.elements: ${structure} needs a cation and an anion, e.g. ${BINARY_EXAMPLE[structure]}`);
  const species = fileSpecies ?? r.elements ?? (element ? [element] : []);
  const metal = isMetallic({
    symbols: species,
    positions: [],
    cell: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    pbc: [true, true, true],
  });
  const spinPolarized = r.spinPolarized ?? (defaultSpin(species) || Object.keys(r.startingMagnetization ?? {}).length > 0);
  // pw.x takes fixed occupations with nspin = 2 only with a fixed total magnetization: a spin-polarised study smears
  const occupations = r.occupations ?? (metal || spinPolarized ? 'smearing' : 'fixed');
  if (metal && occupations === 'fixed')
    problems.push(
      `inputs.occupations: ${species.join(', ')} is a metal; fixed occupations give no converged SCF. Use 'smearing' (the default for a metal)`,
    );
  else if (spinPolarized && occupations === 'fixed')
    problems.push(
      "inputs.occupations: a spin-polarised study (nspin = 2) with fixed occupations needs a fixed total magnetization, which this study does not set; use 'smearing' (the default when spin-polarised): an insulator's gap is still read with the Fermi level inside it, in each spin channel",
    );
  if (problems.length)
    throw new ObjectiveError(`the band-structure/DOS objective cannot be run as written: ${problems.join('; ')}.`, problems);
  const settings = resolveSweptSettings(r, species, env, {
    cutoffsRy: 'from-suggestion',
    kSpacingsPerAngstrom: metal ? [0.3, 0.25, 0.2, 0.15, 0.11] : [0.5, 0.4, 0.3, 0.25, 0.2],
  });
  return {
    species,
    element: element ?? '',
    ...(r.elements ? { elements: r.elements } : {}),
    ...(structure ? { structure } : {}),
    ...(a !== undefined ? { latticeConstantAngstrom: a } : {}),
    ...((r.cOverA ?? (structure === 'hcp' ? table?.cOverA : undefined)) ? { cOverA: r.cOverA ?? table?.cOverA } : {}),
    ...(r.structureFile ? { structureFile: r.structureFile, ...(r.structureSha256 ? { structureSha256: r.structureSha256 } : {}) } : {}),
    settings,
    occupations,
    ...(occupations === 'smearing' ? { smearing: r.smearing ?? 'mv', degaussRy: r.degaussRy ?? 0.02 } : {}),
    metal,
    ...(spinPolarized ? { spinPolarized, startingMagnetization: startingMagnetizations(species, r.startingMagnetization) } : {}),
    pointsPerInverseAngstrom: r.pointsPerInverseAngstrom ?? 30,
    ...(r.nbnd !== undefined ? { nbnd: r.nbnd } : {}),
    dosMeshFactor: r.dosMeshFactor ?? 2,
    dosOccupations: r.dosOccupations ?? 'tetrahedra_opt',
    pdos: r.pdos ?? true,
    deltaEEv: r.deltaEEv ?? 0.02,
  };
}

/**
 * Resolved inputs as a run recorded them in its workflow event. Before the settings were nested
 * under `settings` (as the everyday templates' are), they were recorded flat (`ecutwfcRy` beside
 * `species`): such a run's inputs are read into the shape the steps and report read now, so it
 * resumes. Inputs already nested are returned as they are.
 */
export function readRecordedElectronicInputs(recorded: Record<string, unknown>): Record<string, unknown> {
  if (typeof recorded.settings === 'object' && recorded.settings !== null) return recorded;
  const settings: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  const keys: readonly string[] = SWEPT_SETTINGS_KEYS;
  for (const [k, v] of Object.entries(recorded)) (keys.includes(k) ? settings : rest)[k] = v;
  return { ...rest, settings };
}

/** Reads the structure file an objective names (relative to its directory): its absolute path, sha256 and species. */
export function loadElectronicStructureFile(inputs: ElectronicObjectiveInputs, baseDir: string): ElectronicObjectiveInputs {
  if (typeof inputs.structureFile !== 'string') return inputs;
  return { ...inputs, ...readStructureFile(inputs.structureFile, baseDir) };
}

function readStructureFile(name: string, baseDir: string): { structureFile: string; structureSha256: string; structureSpecies: string[] } {
  const loaded = loadStructureFileInput({ file: name }, baseDir, 'inputs.structureFile');
  if (!loaded.structure.pbc.every(Boolean)) {
    throw new ObjectiveError(
      `inputs.structureFile: ${loaded.file} is not periodic in three directions (a slab or molecule); a band structure or DOS needs a bulk crystal.`,
    );
  }
  return { structureFile: loaded.file, structureSha256: loaded.sha256, structureSpecies: [...new Set(loaded.structure.symbols)] };
}

/**
 * The structure file as read now (loading made its path absolute; otherwise relative to the
 * working directory): inputs from outside (start_workflow, MCP) may carry any species and
 * sha256, so neither is taken from them; a given sha256 must be the file's.
 */
function structureFileAsRead(r: ElectronicObjectiveInputs & { structureFile: string }) {
  const read = readStructureFile(r.structureFile, process.cwd());
  if (r.structureSha256 !== undefined && r.structureSha256 !== read.structureSha256)
    throw new ObjectiveError(
      `inputs.structureSha256: ${read.structureFile} has sha256 ${read.structureSha256}, not the ${r.structureSha256} given: the file changed since it was read, or the sha256 is not this file's. ` +
        'Check the file, then give structureFile alone: DREAMS reads it and records its sha256 and species.',
    );
  return read;
}

/**
 * "band structure of Si with PBE", "DOS of fcc Al" → inputs; "band structure of examples/GaAs.cif with PBE" →
 * structureFile (the file holds the species and the cell; read when the objective is); undefined when the
 * text asks for something else.
 */
export function electronicInputsFromText(text: string, kind: 'bands' | 'dos'): Record<string, unknown> | undefined {
  const asks = kind === 'bands' ? /band[- ]?structure|\bbands?\b.*\b(along|path)\b|band gap/i : /\bDOS\b|density of states|\bPDOS\b/i;
  if (!asks.test(text)) return undefined;
  const out: Record<string, unknown> = {};
  const file = structureFileNamedIn(text);
  if (file) out.structureFile = file;
  const symbol = file
    ? undefined
    : text.match(/\b[A-Z][a-z]?\b/g)?.find((w) => w !== 'I' && w !== 'DOS' && ELEMENT_CRYSTALS[w] !== undefined);
  if (symbol) out.element = symbol;
  const structure = file ? undefined : /\b(fcc|bcc|diamond|hcp|sc)\b/i.exec(text)?.[1]?.toLowerCase();
  if (structure) out.structure = structure;
  const a = file ? undefined : /(\d+\.\d+)\s*(?:Å|Ang|angstrom)/i.exec(text);
  if (a) out.latticeConstantAngstrom = Number(a[1]);
  const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
  if (functional)
    out.functional =
      functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() === 'LDA' ? 'PZ' : functional.toUpperCase();
  return out;
}
