/**
 * The shape of an adsorption-search objective's inputs and their JSON schema (what a
 * person writes; defaults are the AdsMind ones and the schema states them).
 */
import type { Ablations } from '../../adsorption/loop';
import { MOLECULE_NAMES } from '../../dft/structure/molecules';
import type { Structure } from '../../dft/types';
import { enumSchema } from '../../guard/schemaAnnotations';
import type { InputsOf } from '../defineWorkflow';

export const GENERATED_FACETS = ['fcc111', 'fcc100', 'fcc110'] as const;
export type GeneratedFacet = (typeof GENERATED_FACETS)[number];

export interface GeneratedSlab {
  metal: string;
  facet: GeneratedFacet;
  size: [number, number];
  layers: number;
  /** Vacuum on each side of the slab, Å (as build_slab takes it). */
  vacuumAngstrom: number;
  latticeConstantAngstrom: number;
  fixedLayers: number;
}

export interface FileSlab {
  /** Absolute path of the slab file (any structure format DREAMS reads). */
  file: string;
  /** The structure read from it when the objective was loaded. */
  structure: Structure;
  sha256: string;
}

export interface PwCalculatorInputs {
  kind: 'pw.x';
  functional: 'PBE' | 'PZ' | 'PBEsol';
  pseudopotentials: Record<string, string>;
  ecutwfcRy: number;
  ecutrhoRy: number;
  kSpacingPerAngstrom?: number;
  kMesh?: [number, number, number];
  smearing: { kind: 'mv' | 'mp' | 'gaussian' | 'fd'; degaussRy: number };
  nspin: 1 | 2;
  mixingBeta?: number;
  electronMaxstep?: number;
}

/** The user's own calculator over i-PI: DREAMS starts the client the command names (no shell). */
export interface IpiCalculatorInputs {
  kind: 'ipi';
  command: string[];
  port?: number;
  unixSocket?: string;
  timeoutSeconds?: number;
}

export type CalculatorInputs = { kind: 'emt' } | PwCalculatorInputs | IpiCalculatorInputs;

export interface AdsorptionSearchInputs {
  slab: { generate: GeneratedSlab } | FileSlab;
  adsorbate: string;
  /** The SMILES the objective named the adsorbate by, if it did. */
  adsorbateSmiles?: string;
  calculator: CalculatorInputs;
  planner: { kind: 'offline-heuristic' | 'llm'; screen: boolean; patience: number };
  maxRelaxations: number;
  terminateToleranceEv: number;
  /** The search's energy resolution: other sites within it of the best are degenerate with it. */
  degenerateToleranceEv: number;
  ablations: Ablations;
  relaxation: { fmaxEvPerAngstrom: number; maxSteps: number };
  standardisation: { minLateralAngstrom: number; minVacuumAngstrom: number; fixedFraction?: number };
  screening: { maxSites?: number; azimuthsDeg?: number[] };
  moleculeBoxAngstrom: number;
}

const bool = { type: 'boolean' } as const;
const STRUCTURE = {
  type: 'object',
  properties: {
    symbols: { type: 'array' },
    positions: { type: 'array' },
    cell: { type: 'array' },
    pbc: { type: 'array' },
    tags: { type: 'array' },
    fixed: { type: 'array' },
    info: { type: 'object' },
  },
  required: ['symbols', 'positions', 'cell', 'pbc'],
} as const;

export const ADSORPTION_SEARCH_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    slab: {
      description:
        'The slab: generate: {metal, facet, size, layers, vacuumAngstrom, latticeConstantAngstrom}, or file: a slab in any structure file (extxyz, XSF, CIF, POSCAR, pw.x input or output), relative to the objective file.',
      oneOf: [
        {
          type: 'object',
          properties: {
            generate: {
              type: 'object',
              properties: {
                metal: { type: 'string', pattern: '^[A-Z][a-z]?$', description: "The metal, e.g. 'Pt'." },
                facet: { type: 'string', enum: [...GENERATED_FACETS], description: 'Surface facet (default fcc111).' },
                size: {
                  type: 'array',
                  items: { type: 'integer', minimum: 1, maximum: 8 },
                  minItems: 2,
                  maxItems: 2,
                  description: 'Lateral repetitions (default [3, 3]).',
                },
                layers: { type: 'integer', minimum: 2, maximum: 12, description: 'Atomic layers (default 4).' },
                vacuumAngstrom: {
                  type: 'number',
                  exclusiveMinimum: 0,
                  maximum: 20,
                  description: 'Vacuum on each side of the slab, Å (default 8: 16 Å between images; widened to the standard if below it).',
                },
                latticeConstantAngstrom: {
                  type: 'number',
                  exclusiveMinimum: 0,
                  maximum: 10,
                  description: "Bulk lattice constant, Å; required with pw.x, default EMT's own with EMT.",
                },
                fixedLayers: {
                  type: 'integer',
                  minimum: 0,
                  description: 'Fixed bottom layers (the search fixes the bottom third anyway).',
                },
              },
              required: ['metal'],
              additionalProperties: false,
            },
          },
          required: ['generate'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            file: {
              type: 'string',
              minLength: 1,
              description: 'A slab file (extxyz, XSF, CIF, POSCAR/CONTCAR, pw.x input or output), relative to the objective file.',
            },
            structure: STRUCTURE,
            sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          },
          required: ['file'],
          additionalProperties: false,
        },
      ],
    },
    adsorbate: {
      description: `A molecule of the table by name (${MOLECULE_NAMES.join(', ')}) or {smiles: "..."}.`,
      oneOf: [
        enumSchema(MOLECULE_NAMES),
        { type: 'object', properties: { smiles: { type: 'string', minLength: 1 } }, required: ['smiles'], additionalProperties: false },
      ],
    },
    adsorbateSmiles: { type: 'string' },
    calculator: {
      description:
        "{kind: emt} (fast, for testing the search, not for final numbers), {kind: 'pw.x', functional, ecutwfcRy, ecutrhoRy, kSpacingPerAngstrom or kMesh, smearing}, or {kind: ipi, command: [...]} (your own calculator over the i-PI socket, e.g. any ASE calculator through dreams_ase_ipi_client.py; a screening model, not DFT).",
      oneOf: [
        { type: 'object', properties: { kind: { const: 'emt' } }, required: ['kind'], additionalProperties: false },
        {
          type: 'object',
          properties: {
            kind: { const: 'ipi' },
            command: {
              type: 'array',
              items: { type: 'string', minLength: 1 },
              minItems: 1,
              maxItems: 64,
              description:
                "The i-PI client's argument list, started without a shell, e.g. [/usr/bin/python3, dreams_ase_ipi_client.py, ase.calculators.emt:EMT].",
            },
            port: { type: 'integer', minimum: 1, maximum: 65535, description: 'TCP port on 127.0.0.1 (default a free one).' },
            unixSocket: { type: 'string', pattern: '^[\\w.-]+$', description: 'Listen on the UNIX socket /tmp/ipi_<name> instead of TCP.' },
            timeoutSeconds: { type: 'number', exclusiveMinimum: 0, description: 'Longest one geometry may take, s (default 600).' },
          },
          required: ['kind', 'command'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            kind: { const: 'pw.x' },
            functional: { type: 'string', enum: ['PBE', 'PZ', 'LDA', 'PBEsol'], description: 'Default PBE (LDA means PZ).' },
            pseudopotentials: {
              type: 'object',
              additionalProperties: { type: 'string', pattern: '^[^/\\\\]+\\.(upf|UPF)$' },
              description: 'Element → UPF file; default the library file for each element.',
            },
            ecutwfcRy: { type: 'number', exclusiveMinimum: 0, description: "Ry; default the pseudopotentials' largest suggestion." },
            ecutrhoRy: {
              type: 'number',
              exclusiveMinimum: 0,
              description: 'Ry; default 4× (norm-conserving) or 8× (ultrasoft, PAW) ecutwfc.',
            },
            kSpacingPerAngstrom: {
              type: 'number',
              exclusiveMinimum: 0,
              description: 'k-point spacing of the slab, 1/Å (default 0.25; one point along the normal).',
            },
            kMesh: {
              type: 'array',
              items: { type: 'integer', minimum: 1 },
              minItems: 3,
              maxItems: 3,
              description: 'An explicit slab mesh instead of a spacing.',
            },
            smearing: {
              type: 'object',
              properties: {
                kind: { enum: ['mv', 'mp', 'gaussian', 'fd'] },
                degaussRy: { type: 'number', exclusiveMinimum: 0, maximum: 0.1 },
              },
              required: ['kind', 'degaussRy'],
              additionalProperties: false,
            },
            nspin: { enum: [1, 2] },
            mixingBeta: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
            electronMaxstep: { type: 'integer', minimum: 1, maximum: 1000 },
          },
          required: ['kind'],
          additionalProperties: false,
        },
      ],
    },
    planner: {
      description:
        "'offline' (the deterministic heuristic) or 'llm' (the planner model; needs a run with a model), or {kind, screen, patience}.",
      oneOf: [
        { type: 'string', enum: ['offline', 'offline-heuristic', 'llm'] },
        {
          type: 'object',
          properties: {
            kind: { enum: ['offline', 'offline-heuristic', 'llm'] },
            screen: bool,
            patience: { type: 'integer', minimum: 1, maximum: 10 },
          },
          required: ['kind'],
          additionalProperties: false,
        },
      ],
    },
    maxRelaxations: { type: 'integer', minimum: 1, maximum: 100, description: 'The attempt budget (default 10 relaxations).' },
    terminateToleranceEv: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'TERMINATE tolerance, eV (default 0.05).' },
    degenerateToleranceEv: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      description:
        "The search's energy resolution, eV: configurations of other sites within it of the best are reported as degenerate, not ranked (default 0.01).",
    },
    ablations: {
      type: 'object',
      properties: { slipFeedback: bool, forbid: bool, terminate: bool, oneShot: bool },
      additionalProperties: false,
      description: 'AdsMind switches (all on, oneShot off).',
    },
    relaxation: {
      type: 'object',
      properties: {
        fmaxEvPerAngstrom: { type: 'number', exclusiveMinimum: 0, maximum: 0.5 },
        maxSteps: { type: 'integer', minimum: 1, maximum: 2000 },
      },
      additionalProperties: false,
      description: 'Force threshold (default 0.10 eV/Å) and step limit (default 200).',
    },
    standardisation: {
      type: 'object',
      properties: {
        minLateralAngstrom: { type: 'number', exclusiveMinimum: 0 },
        minVacuumAngstrom: { type: 'number', exclusiveMinimum: 0 },
        fixedFraction: { type: 'number', minimum: 0, maximum: 0.9 },
      },
      additionalProperties: false,
      description: 'Defaults 6 Å, 15 Å, the bottom third fixed.',
    },
    screening: {
      type: 'object',
      properties: {
        maxSites: { type: 'integer', minimum: 1, maximum: 8 },
        azimuthsDeg: { type: 'array', items: { type: 'number', minimum: 0, maximum: 360 }, minItems: 1, maxItems: 8 },
      },
      additionalProperties: false,
      description: 'Placements screened per hypothesis (default up to 8 sites × 4 azimuths).',
    },
    moleculeBoxAngstrom: { type: 'number', minimum: 8, maximum: 30, description: 'Box of the gas-phase reference, Å (default 15).' },
  },
  required: ['slab', 'adsorbate', 'calculator'],
  additionalProperties: false,
} as const;

/** The inputs of an objective, as its schema admits them (a slab file's structure and sha256 once the file is read). */
export type SearchObjectiveInputs = InputsOf<typeof ADSORPTION_SEARCH_INPUT_SCHEMA>;
