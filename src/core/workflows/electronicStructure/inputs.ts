/**
 * Inputs of the band-structure and DOS studies: the crystal (an element in its ground-state
 * structure at the experimental lattice constant, or named with its lattice, or the user's
 * structure file), the functional and pseudopotentials, the SCF settings (given, or chosen by a
 * cutoff and a k sweep), occupations (fixed for an insulator, smeared for a metal unless the user
 * says), and the band path density or the DOS mesh. Lengths in Å, k spacings in 1/Å (with 2π),
 * cutoffs in Ry, energies in eV.
 */
import { isMetallic } from '../../guard/rules/metalsHaveSmearing';
import { loadStructureFileInput, structureFileNamedIn } from '../structureFileInput';
import type { InputsOf } from '../defineWorkflow';
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
    functional: { type: 'string', enum: ['PBE', 'PZ', 'PBEsol'], description: 'Default PBE.' },
    pseudopotentials: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: "UPF file per element (default: the library's for the functional).",
    },
    ecutwfcRy: { type: 'number', exclusiveMinimum: 0, description: 'Wavefunction cutoff, Ry; absent: chosen by a cutoff sweep.' },
    ecutrhoRy: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'Charge-density cutoff, Ry (default 4× ecutwfc for norm-conserving, 8× otherwise).',
    },
    kSpacingPerAngstrom: { type: 'number', exclusiveMinimum: 0, description: 'SCF k-spacing, 1/Å with 2π; absent: chosen by a k sweep.' },
    cutoffsRy: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0 },
      minItems: 3,
      description: 'Cutoff sweep (when ecutwfcRy is absent).',
    },
    kSpacingsPerAngstrom: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0 },
      minItems: 3,
      description: 'k sweep (when kSpacingPerAngstrom is absent).',
    },
    toleranceMevPerAtom: { type: 'number', exclusiveMinimum: 0, description: 'Sweep tolerance, meV/atom (default 1).' },
    occupations: {
      type: 'string',
      enum: ['fixed', 'smearing'],
      description: 'SCF occupations: default fixed for a non-metal, smearing for a metal.',
    },
    smearing: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
    degaussRy: { type: 'number', exclusiveMinimum: 0 },
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
  functional: 'PBE' | 'PZ' | 'PBEsol';
  pseudopotentials?: Record<string, string>;
  /** Given settings, or undefined where a sweep chooses them. */
  ecutwfcRy?: number;
  dual: number;
  kSpacingPerAngstrom?: number;
  cutoffsRy: number[];
  /** Where the default cutoff sweep starts from: the largest ecutwfc the species' files suggest, Ry. */
  cutoffsFromSuggestionRy?: number;
  kSpacingsPerAngstrom: number[];
  toleranceMevPerAtom: number;
  occupations: 'fixed' | 'smearing';
  smearing?: string;
  degaussRy?: number;
  metal: boolean;
  pointsPerInverseAngstrom: number;
  nbnd?: number;
  dosMeshFactor: number;
  dosOccupations: 'tetrahedra_opt' | 'smearing';
  pdos: boolean;
  deltaEEv: number;
}

/** Inputs after defaults, or an ObjectiveError naming each problem. */
export function resolveElectronicInputs(r: ElectronicObjectiveInputs, env: WorkflowEnvironment): ElectronicInputs {
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
  const functional = r.functional ?? 'PBE';
  // the pseudopotential's type sets the density cutoff's ratio: 4 for norm-conserving, 8 for ultrasoft and PAW
  const files = species.map((el) =>
    env.pseudopotential?.({ element: el, functional, ...(r.pseudopotentials?.[el] ? { file: r.pseudopotentials[el] } : {}) }),
  );
  const types = files.map((f) => f?.type);
  // the default sweep starts where the files' authors found them converged (none stated: 20 Ry), in 10-Ry steps
  const suggested = Math.max(0, ...files.map((f) => f?.suggestedEcutwfcRy ?? 0));
  const start = suggested ? Math.max(15, Math.ceil(suggested / 5) * 5) : 20;
  const dual = types.every((t) => t === 'NC') ? 4 : 8;
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
  const occupations = r.occupations ?? (metal ? 'smearing' : 'fixed');
  if (metal && occupations === 'fixed')
    problems.push(
      `inputs.occupations: ${species.join(', ')} is a metal; fixed occupations give no converged SCF. Use 'smearing' (the default for a metal)`,
    );
  if (problems.length)
    throw new ObjectiveError(`the band-structure/DOS objective cannot be run as written: ${problems.join('; ')}.`, problems);
  return {
    species,
    element: element ?? '',
    ...(r.elements ? { elements: r.elements } : {}),
    ...(structure ? { structure } : {}),
    ...(a !== undefined ? { latticeConstantAngstrom: a } : {}),
    ...((r.cOverA ?? (structure === 'hcp' ? table?.cOverA : undefined)) ? { cOverA: r.cOverA ?? table?.cOverA } : {}),
    ...(r.structureFile ? { structureFile: r.structureFile, ...(r.structureSha256 ? { structureSha256: r.structureSha256 } : {}) } : {}),
    functional,
    ...(r.pseudopotentials ? { pseudopotentials: r.pseudopotentials } : {}),
    ...(r.ecutwfcRy !== undefined ? { ecutwfcRy: r.ecutwfcRy } : {}),
    dual: r.ecutrhoRy !== undefined && r.ecutwfcRy !== undefined ? r.ecutrhoRy / r.ecutwfcRy : dual,
    ...(r.kSpacingPerAngstrom !== undefined ? { kSpacingPerAngstrom: r.kSpacingPerAngstrom } : {}),
    cutoffsRy: r.cutoffsRy ?? [0, 10, 20, 30, 40].map((d) => start + d),
    ...(!r.cutoffsRy && suggested ? { cutoffsFromSuggestionRy: suggested } : {}),
    kSpacingsPerAngstrom: r.kSpacingsPerAngstrom ?? (metal ? [0.3, 0.25, 0.2, 0.15, 0.11] : [0.5, 0.4, 0.3, 0.25, 0.2]),
    toleranceMevPerAtom: r.toleranceMevPerAtom ?? 1,
    occupations,
    ...(occupations === 'smearing' ? { smearing: r.smearing ?? 'mv', degaussRy: r.degaussRy ?? 0.02 } : {}),
    metal,
    pointsPerInverseAngstrom: r.pointsPerInverseAngstrom ?? 30,
    ...(r.nbnd !== undefined ? { nbnd: r.nbnd } : {}),
    dosMeshFactor: r.dosMeshFactor ?? 2,
    dosOccupations: r.dosOccupations ?? 'tetrahedra_opt',
    pdos: r.pdos ?? true,
    deltaEEv: r.deltaEEv ?? 0.02,
  };
}

/** Reads the structure file an objective names (relative to its directory): its absolute path, sha256 and species. */
export function loadElectronicStructureFile(inputs: ElectronicObjectiveInputs, baseDir: string): ElectronicObjectiveInputs {
  if (typeof inputs.structureFile !== 'string') return inputs;
  const loaded = loadStructureFileInput({ file: inputs.structureFile }, baseDir, 'inputs.structureFile');
  if (!loaded.structure.pbc.every(Boolean)) {
    throw new ObjectiveError(
      `inputs.structureFile: ${loaded.file} is not periodic in three directions (a slab or molecule); a band structure or DOS needs a bulk crystal.`,
    );
  }
  return {
    ...inputs,
    structureFile: loaded.file,
    structureSha256: loaded.sha256,
    structureSpecies: [...new Set(loaded.structure.symbols)],
  };
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
