/**
 * Inputs of the adsorption-configuration search: the slab (generated, or a file read when
 * the objective is loaded), the adsorbate (a molecule of the table, by name or SMILES),
 * the calculator (EMT, or pw.x with its settings), the planner, the attempt budget and the
 * AdsMind switches. Defaults are the AdsMind ones and are stated in the schema.
 */
import { FULL_LOOP, type Ablations } from '../../adsorption/loop';
import { MIN_LATERAL_ANGSTROM, MIN_VACUUM_ANGSTROM } from '../../adsorption/slab';
import { DEFAULT_RELAX } from '../../calculators/optimizers/fire';
import { EMT_ELEMENTS } from '../../calculators/emtParameters';
import { fccLatticeConstantAngstrom } from '../../calculators/emtLattice';
import { MOLECULE_NAMES, molecule } from '../../dft/structure/molecules';
import type { Structure } from '../../dft/types';
import { ObjectiveError, type WorkflowEnvironment } from '../types';
import { adsorbateFromSmiles, SMILES_OF } from './smiles';

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
  /** Absolute path of the extxyz or XSF file. */
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

export type CalculatorInputs = { kind: 'emt' } | PwCalculatorInputs;

export interface AdsorptionSearchInputs {
  slab: { generate: GeneratedSlab } | FileSlab;
  adsorbate: string;
  /** The SMILES the objective named the adsorbate by, if it did. */
  adsorbateSmiles?: string;
  calculator: CalculatorInputs;
  planner: { kind: 'offline-heuristic' | 'llm'; screen: boolean; patience: number };
  maxRelaxations: number;
  terminateToleranceEv: number;
  ablations: Ablations;
  relaxation: { fmaxEvPerAngstrom: number; maxSteps: number };
  standardisation: { minLateralAngstrom: number; minVacuumAngstrom: number; fixedFraction?: number };
  screening: { maxSites?: number; azimuthsDeg?: number[] };
  moleculeBoxAngstrom: number;
}

const bool = { type: 'boolean' };
const STRUCTURE = {
  type: 'object',
  properties: { symbols: { type: 'array' }, positions: { type: 'array' }, cell: { type: 'array' }, pbc: { type: 'array' }, tags: { type: 'array' }, fixed: { type: 'array' }, info: { type: 'object' } },
  required: ['symbols', 'positions', 'cell', 'pbc'],
};

export const ADSORPTION_SEARCH_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    slab: {
      description: 'The slab: generate: {metal, facet, size, layers, vacuumAngstrom, latticeConstantAngstrom}, or file: an extxyz or XSF file (relative to the objective file).',
      oneOf: [
        {
          type: 'object',
          properties: {
            generate: {
              type: 'object',
              properties: {
                metal: { type: 'string', pattern: '^[A-Z][a-z]?$', description: "The metal, e.g. 'Pt'." },
                facet: { type: 'string', enum: [...GENERATED_FACETS], description: 'Surface facet (default fcc111).' },
                size: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 8 }, minItems: 2, maxItems: 2, description: 'Lateral repetitions (default [3, 3]).' },
                layers: { type: 'integer', minimum: 2, maximum: 12, description: 'Atomic layers (default 4).' },
                vacuumAngstrom: { type: 'number', exclusiveMinimum: 0, maximum: 20, description: 'Vacuum on each side of the slab, Å (default 8: 16 Å between images; widened to the standard if below it).' },
                latticeConstantAngstrom: { type: 'number', exclusiveMinimum: 0, maximum: 10, description: "Bulk lattice constant, Å; required with pw.x, default EMT's own with EMT." },
                fixedLayers: { type: 'integer', minimum: 0, description: 'Fixed bottom layers (the search fixes the bottom third anyway).' },
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
            file: { type: 'string', minLength: 1, description: 'An extxyz (.extxyz, .xyz) or XSF (.xsf) slab file, relative to the objective file.' },
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
        { type: 'string', enum: [...MOLECULE_NAMES] },
        { type: 'object', properties: { smiles: { type: 'string', minLength: 1 } }, required: ['smiles'], additionalProperties: false },
      ],
    },
    adsorbateSmiles: { type: 'string' },
    calculator: {
      description: "{kind: emt} (fast, for testing the search, not for final numbers) or {kind: 'pw.x', functional, ecutwfcRy, ecutrhoRy, kSpacingPerAngstrom or kMesh, smearing}.",
      oneOf: [
        { type: 'object', properties: { kind: { const: 'emt' } }, required: ['kind'], additionalProperties: false },
        {
          type: 'object',
          properties: {
            kind: { const: 'pw.x' },
            functional: { type: 'string', enum: ['PBE', 'PZ', 'LDA', 'PBEsol'], description: 'Default PBE (LDA means PZ).' },
            pseudopotentials: { type: 'object', additionalProperties: { type: 'string', pattern: '^[^/\\\\]+\\.(upf|UPF)$' }, description: 'Element → UPF file; default the library file for each element.' },
            ecutwfcRy: { type: 'number', exclusiveMinimum: 0, description: "Ry; default the pseudopotentials' largest suggestion." },
            ecutrhoRy: { type: 'number', exclusiveMinimum: 0, description: 'Ry; default 4× (norm-conserving) or 8× (ultrasoft, PAW) ecutwfc.' },
            kSpacingPerAngstrom: { type: 'number', exclusiveMinimum: 0, description: 'k-point spacing of the slab, 1/Å (default 0.25; one point along the normal).' },
            kMesh: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 3, maxItems: 3, description: 'An explicit slab mesh instead of a spacing.' },
            smearing: { type: 'object', properties: { kind: { enum: ['mv', 'mp', 'gaussian', 'fd'] }, degaussRy: { type: 'number', exclusiveMinimum: 0, maximum: 0.1 } }, required: ['kind', 'degaussRy'], additionalProperties: false },
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
      description: "'offline' (the deterministic heuristic) or 'llm' (the planner model; needs a run with a model), or {kind, screen, patience}.",
      oneOf: [
        { type: 'string', enum: ['offline', 'offline-heuristic', 'llm'] },
        { type: 'object', properties: { kind: { enum: ['offline', 'offline-heuristic', 'llm'] }, screen: bool, patience: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['kind'], additionalProperties: false },
      ],
    },
    maxRelaxations: { type: 'integer', minimum: 1, maximum: 100, description: 'The attempt budget (default 10 relaxations).' },
    terminateToleranceEv: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'TERMINATE tolerance, eV (default 0.05).' },
    ablations: { type: 'object', properties: { slipFeedback: bool, forbid: bool, terminate: bool, oneShot: bool }, additionalProperties: false, description: 'AdsMind switches (all on, oneShot off).' },
    relaxation: { type: 'object', properties: { fmaxEvPerAngstrom: { type: 'number', exclusiveMinimum: 0, maximum: 0.5 }, maxSteps: { type: 'integer', minimum: 1, maximum: 2000 } }, additionalProperties: false, description: 'Force threshold (default 0.10 eV/Å) and step limit (default 200).' },
    standardisation: { type: 'object', properties: { minLateralAngstrom: { type: 'number', exclusiveMinimum: 0 }, minVacuumAngstrom: { type: 'number', exclusiveMinimum: 0 }, fixedFraction: { type: 'number', minimum: 0, maximum: 0.9 } }, additionalProperties: false, description: 'Defaults 6 Å, 15 Å, the bottom third fixed.' },
    screening: { type: 'object', properties: { maxSites: { type: 'integer', minimum: 1, maximum: 8 }, azimuthsDeg: { type: 'array', items: { type: 'number', minimum: 0, maximum: 360 }, minItems: 1, maxItems: 8 } }, additionalProperties: false, description: 'Placements screened per hypothesis (default up to 8 sites × 4 azimuths).' },
    moleculeBoxAngstrom: { type: 'number', minimum: 8, maximum: 30, description: 'Box of the gas-phase reference, Å (default 15).' },
  },
  required: ['slab', 'adsorbate', 'calculator'],
  additionalProperties: false,
};

const FUNCTIONAL: Record<string, PwCalculatorInputs['functional']> = { PBE: 'PBE', PZ: 'PZ', LDA: 'PZ', PBESOL: 'PBEsol' };

const roundUp = (x: number, step: number): number => Math.ceil(x / step - 1e-9) * step;

function resolveAdsorbate(raw: unknown): { name: string; smiles?: string } {
  if (typeof raw === 'string') return { name: raw };
  const smiles = (raw as { smiles: string }).smiles;
  const name = adsorbateFromSmiles(smiles);
  if (!name) {
    throw new ObjectiveError(`inputs.adsorbate: the SMILES "${smiles}" is not one of the molecules this build has geometries for; use one of ${Object.entries(SMILES_OF).map(([n, s]) => `${s} (${n})`).join(', ')}, or a name.`);
  }
  return { name, smiles };
}

function resolveCalculator(raw: Record<string, unknown>, elements: string[], env: WorkflowEnvironment): CalculatorInputs {
  if (raw.kind === 'emt') {
    const missing = elements.filter((e) => !EMT_ELEMENTS.includes(e));
    if (missing.length) throw new ObjectiveError(`inputs.calculator: EMT has no parameters for ${missing.join(', ')} (it covers ${EMT_ELEMENTS.join(', ')}); use calculator kind 'pw.x'.`);
    return { kind: 'emt' };
  }
  const functional = FUNCTIONAL[String(raw.functional ?? 'PBE').toUpperCase()]!;
  const named = (raw.pseudopotentials ?? {}) as Record<string, string>;
  const pseudopotentials: Record<string, string> = {};
  let suggested = 0;
  let dual = 4;
  for (const el of elements) {
    const info = env.pseudopotential?.({ element: el, functional, ...(named[el] ? { file: named[el] } : {}) });
    if (!info) {
      if (named[el]) throw new ObjectiveError(`inputs.calculator.pseudopotentials.${el}: ${named[el]} is not a readable UPF file in the pseudopotential directory; give a file that is there, or leave it out to use the library's ${el} file.`);
      if (raw.ecutwfcRy === undefined) throw new ObjectiveError(`inputs.calculator: no ${functional} pseudopotential for ${el} in the pseudopotential directory to take the cutoff from; name the files (pseudopotentials) and give ecutwfcRy and ecutrhoRy.`);
      continue;
    }
    pseudopotentials[el] = info.file;
    suggested = Math.max(suggested, info.suggestedEcutwfcRy ?? 0);
    if (info.type === 'US' || info.type === 'PAW') dual = 8;
  }
  const ecutwfcRy = (raw.ecutwfcRy as number | undefined) ?? (suggested > 0 ? roundUp(suggested, 5) : undefined);
  if (ecutwfcRy === undefined) throw new ObjectiveError('inputs.calculator.ecutwfcRy: the pseudopotentials state no suggested cutoff; give ecutwfcRy (Ry).');
  const k = raw.kMesh ? { kMesh: raw.kMesh as [number, number, number] } : { kSpacingPerAngstrom: (raw.kSpacingPerAngstrom as number | undefined) ?? 0.25 };
  return {
    kind: 'pw.x', functional, pseudopotentials: { ...pseudopotentials, ...named }, ecutwfcRy, ecutrhoRy: (raw.ecutrhoRy as number | undefined) ?? dual * ecutwfcRy, ...k,
    smearing: (raw.smearing as PwCalculatorInputs['smearing'] | undefined) ?? { kind: 'mv', degaussRy: 0.02 }, nspin: (raw.nspin as 1 | 2 | undefined) ?? 1,
    ...(raw.mixingBeta !== undefined ? { mixingBeta: raw.mixingBeta as number } : {}), ...(raw.electronMaxstep !== undefined ? { electronMaxstep: raw.electronMaxstep as number } : {}),
  };
}

function resolveSlab(raw: Record<string, unknown>, calculator: 'emt' | 'pw.x'): AdsorptionSearchInputs['slab'] {
  if ('file' in raw) {
    if (!raw.structure || !raw.sha256) throw new ObjectiveError(`inputs.slab.file: ${String(raw.file)} was not read; objective files read their slab files when loaded (dreams run objective.yaml).`);
    return raw as unknown as FileSlab;
  }
  const g = raw.generate as Partial<GeneratedSlab> & { metal: string };
  const facet = g.facet ?? 'fcc111';
  let latticeConstantAngstrom = g.latticeConstantAngstrom;
  if (latticeConstantAngstrom === undefined) {
    if (calculator !== 'emt') throw new ObjectiveError(`inputs.slab.generate.latticeConstantAngstrom is missing: with pw.x give the ${g.metal} lattice constant computed with the same functional (Å).`);
    if (!EMT_ELEMENTS.includes(g.metal)) throw new ObjectiveError(`inputs.slab.generate.metal: EMT has no parameters for ${g.metal}; it covers ${EMT_ELEMENTS.join(', ')}.`);
    latticeConstantAngstrom = Number(fccLatticeConstantAngstrom(g.metal).toFixed(4));
  }
  const layers = g.layers ?? 4;
  return {
    generate: {
      metal: g.metal, facet, size: g.size ?? [3, 3], layers, vacuumAngstrom: g.vacuumAngstrom ?? 8, latticeConstantAngstrom,
      fixedLayers: g.fixedLayers ?? Math.max(1, Math.floor(layers / 3)),
    },
  };
}

export function resolveSearchInputs(raw: Record<string, unknown>, env: WorkflowEnvironment): AdsorptionSearchInputs {
  const { name, smiles } = resolveAdsorbate(raw.adsorbate);
  const calcRaw = raw.calculator as Record<string, unknown>;
  const slabRaw = raw.slab as Record<string, unknown>;
  const slabElements = 'file' in slabRaw ? [...new Set(((slabRaw.structure as Structure | undefined)?.symbols ?? []))] : [(slabRaw.generate as { metal: string }).metal];
  const elements = [...new Set([...slabElements, ...molecule(name).symbols])];
  const calculator = resolveCalculator(calcRaw, elements, env);
  const plannerRaw = typeof raw.planner === 'object' && raw.planner ? raw.planner as { kind: string; screen?: boolean; patience?: number } : { kind: (raw.planner as string | undefined) ?? 'offline' };
  const relaxation = (raw.relaxation ?? {}) as Partial<AdsorptionSearchInputs['relaxation']>;
  const standardisation = (raw.standardisation ?? {}) as Partial<AdsorptionSearchInputs['standardisation']>;
  return {
    slab: resolveSlab(slabRaw, calculator.kind),
    adsorbate: name, ...(smiles ? { adsorbateSmiles: smiles } : {}),
    calculator,
    planner: {
      kind: plannerRaw.kind === 'llm' ? 'llm' : 'offline-heuristic',
      // A single-point screen costs milliseconds with EMT and an SCF per site class with pw.x.
      screen: plannerRaw.screen ?? calculator.kind === 'emt',
      patience: plannerRaw.patience ?? 2,
    },
    maxRelaxations: (raw.maxRelaxations as number | undefined) ?? 10,
    terminateToleranceEv: (raw.terminateToleranceEv as number | undefined) ?? 0.05,
    ablations: { ...FULL_LOOP, ...(raw.ablations as Partial<Ablations> | undefined) },
    relaxation: { fmaxEvPerAngstrom: relaxation.fmaxEvPerAngstrom ?? DEFAULT_RELAX.fmaxEvPerAngstrom, maxSteps: relaxation.maxSteps ?? DEFAULT_RELAX.maxSteps },
    standardisation: { minLateralAngstrom: standardisation.minLateralAngstrom ?? MIN_LATERAL_ANGSTROM, minVacuumAngstrom: standardisation.minVacuumAngstrom ?? MIN_VACUUM_ANGSTROM, ...(standardisation.fixedFraction !== undefined ? { fixedFraction: standardisation.fixedFraction } : {}) },
    screening: (raw.screening ?? {}) as AdsorptionSearchInputs['screening'],
    moleculeBoxAngstrom: (raw.moleculeBoxAngstrom as number | undefined) ?? 15,
  };
}

export function slabLabel(i: AdsorptionSearchInputs): string {
  if ('generate' in i.slab) {
    const g = i.slab.generate;
    return `${g.metal}(${g.facet.replace(/^fcc/, '')})`;
  }
  const counts = new Map<string, number>();
  for (const s of i.slab.structure.symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => `${el}${n > 1 ? n : ''}`).join('');
}

export function searchObjective(raw: Record<string, unknown>): string {
  const i = raw as unknown as AdsorptionSearchInputs;
  const calc = i.calculator?.kind === 'pw.x' ? `pw.x ${(i.calculator as PwCalculatorInputs).functional ?? 'PBE'}` : 'EMT';
  const slab = i.slab && 'generate' in i.slab ? `${i.slab.generate.metal}(${(i.slab.generate.facet ?? 'fcc111').replace(/^fcc/, '')})` : i.slab && 'structure' in i.slab && i.slab.structure ? slabLabel(i) : 'the slab';
  return `Most stable adsorption configuration of ${typeof i.adsorbate === 'string' ? i.adsorbate : 'the adsorbate'} on ${slab} (AdsMind closed loop, ${calc})`;
}

/** "most stable configuration of CO on Pt(111) with EMT" and similar sentences. */
export function searchInputsFromText(text: string): Record<string, unknown> | undefined {
  const m = /(?:most stable|lowest[- ]energy|best)\s+(?:adsorption\s+)?(?:configuration|site|geometry|adsorption site)\s+(?:of|for)\s+([A-Za-z0-9]+)\s+on\s+([A-Z][a-z]?)\s*\(\s*(111|100|110)\s*\)/i.exec(text);
  if (!m) return undefined;
  const adsorbate = MOLECULE_NAMES.find((n) => n.toLowerCase() === m[1]!.toLowerCase());
  if (!adsorbate) return undefined;
  const out: Record<string, unknown> = { adsorbate, slab: { generate: { metal: m[2], facet: `fcc${m[3]}` } } };
  if (/\bEMT\b/i.test(text)) out.calculator = { kind: 'emt' };
  else {
    const f = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text);
    if (f) out.calculator = { kind: 'pw.x', functional: f[1]!.toUpperCase() === 'PBESOL' ? 'PBEsol' : f[1]!.toUpperCase() };
  }
  if (/\b(llm|model|language model)\s+planner\b/i.test(text)) out.planner = 'llm';
  const budget = /\b(\d{1,3})\s+relaxations?\b/i.exec(text);
  if (budget) out.maxRelaxations = Number(budget[1]);
  return out;
}
