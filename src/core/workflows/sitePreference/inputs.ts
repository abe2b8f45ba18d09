/**
 * Inputs of the adsorption site-preference study (CO/Pt(111) style): the surface, the
 * adsorbate, the functional, the bulk lattice constant (given, or computed through the
 * lattice-constant steps), the electronic settings (given, or taken from the bulk
 * convergence tests), the slab and its convergence sweep. Defaults are the template's
 * choices and are stated in the schema.
 */
import { isChemicalSymbol, normaliseSymbol } from '../../dft/io/elements';
import { MOLECULE_NAMES, molecule } from '../../dft/structure/molecules';
import { defaultDual, SCF_CONTROL_SCHEMA, type ScfControl } from '../latticeConstantInputs';
import type { InputsOf } from '../defineWorkflow';
import { enumSchema } from '../../guard/schemaAnnotations';
import { ObjectiveError, type WorkflowEnvironment } from '../types';

const FACET_BULK = { fcc111: 'fcc', fcc100: 'fcc', fcc110: 'fcc', hcp0001: 'hcp', bcc110: 'bcc', bcc100: 'bcc' } as const;
export type SurfaceFacet = keyof typeof FACET_BULK;
const FUNCTIONALS = ['PBE', 'PZ', 'LDA', 'PBEsol'] as const;

export interface BulkInputs {
  /** Centre of the bulk EOS series, Å (an experimental value is a good start). */
  startingLatticeConstantAngstrom: number;
  toleranceMevPerAtom: number;
  kSpacingsPerAngstrom?: number[];
  cutoffsRy: number[];
  dual: number;
}

export interface SlabSweepInputs {
  /** Layer counts: one value builds that slab; several are swept (at the largest vacuum). */
  layers: number[];
  /** Vacuum on each side of the slab, Å: one value, or several swept at the chosen layers. */
  vacuumAngstrom: number[];
  /** Fixed bottom layers; by default half the slab (rounded down). */
  fixedLayers?: number;
  /** Largest change of ΔBE accepted against the largest slab of a sweep, eV. */
  toleranceEv: number;
}

export interface SitePreferenceInputs {
  metal: string;
  facet: SurfaceFacet;
  adsorbate: string;
  /** Sites whose adsorption energies are computed; ΔBE needs ontop and fcc. */
  sites: ['ontop', 'fcc'];
  /** 'PZ' for LDA. */
  functional: 'PBE' | 'PZ' | 'PBEsol';
  /** Element → UPF file name in the pseudopotential directory. */
  pseudopotentials: Record<string, string>;
  /** Given bulk lattice constant, Å; absent when `bulk` computes it. */
  latticeConstantAngstrom?: number;
  bulk?: BulkInputs;
  /** Given electronic settings; absent when taken from the bulk convergence tests. */
  ecutwfcRy?: number;
  ecutrhoRy?: number;
  kSpacingPerAngstrom?: number;
  kMesh?: [number, number, number];
  smearing: { kind: 'mv' | 'mp' | 'gaussian' | 'fd'; degaussRy: number };
  size: [number, number];
  slab: SlabSweepInputs;
  moleculeBoxAngstrom: number;
  /** Relaxations stop below this force, eV/Å; absent: pw.x's default (0.0257 eV/Å). */
  forceThresholdEvPerAngstrom?: number;
  /** Starting height of the binding atom above the top layer per site, Å; absent: from covalent radii. */
  startingHeightsAngstrom?: Partial<Record<'ontop' | 'fcc', number>>;
  /** SCF control of the study's production runs (e.g. a smaller mixing step for a sloshing slab); pw.x's defaults when absent. */
  scf?: ScfControl;
}

const positiveList = (description: string, extra: object = {}) => ({
  oneOf: [
    { type: 'number', exclusiveMinimum: 0, ...extra },
    { type: 'array', items: { type: 'number', exclusiveMinimum: 0, ...extra }, minItems: 1, maxItems: 6, uniqueItems: true },
  ],
  description,
});

export const SITE_PREFERENCE_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    metal: { type: 'string', description: "The metal of the surface, e.g. 'Pt'." },
    facet: { type: 'string', enum: Object.keys(FACET_BULK), description: 'Surface facet (default fcc111).' },
    adsorbate: {
      ...enumSchema(MOLECULE_NAMES),
      description: "Adsorbate from the molecule table (default 'CO'), bound upright through its first atom.",
    },
    functional: { type: 'string', enum: [...FUNCTIONALS], description: "Exchange-correlation functional (LDA means 'PZ'). Default PBE." },
    pseudopotentials: {
      type: 'object',
      additionalProperties: { type: 'string', pattern: '^[^/\\\\]+\\.(upf|UPF)$' },
      description:
        'Element → UPF file name in the pseudopotential directory; default: the library file for each element and the functional.',
    },
    latticeConstantAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 10,
      description:
        'The bulk lattice constant the slab is cut at, Å, computed earlier with the same functional and settings. Give this or bulk.',
    },
    bulk: {
      type: 'object',
      properties: {
        startingLatticeConstantAngstrom: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 10,
          description: 'Centre of the bulk EOS series, Å (e.g. the experimental value).',
        },
        toleranceMevPerAtom: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 50,
          description: 'Bulk convergence tolerance, meV/atom (default 1).',
        },
        kSpacingsPerAngstrom: {
          type: 'array',
          items: { type: 'number', exclusiveMinimum: 0, maximum: 2 },
          minItems: 3,
          maxItems: 15,
          uniqueItems: true,
          description: 'k spacings of the bulk k sweep, 1/Å.',
        },
        cutoffsRy: {
          type: 'array',
          items: { type: 'number', exclusiveMinimum: 0 },
          minItems: 3,
          maxItems: 15,
          uniqueItems: true,
          description:
            "ecutwfc values of the bulk cutoff sweep, Ry (default: from the highest suggestion of the study's pseudopotentials upward).",
        },
      },
      required: ['startingLatticeConstantAngstrom'],
      additionalProperties: false,
      description:
        'Compute the lattice constant, cutoff and k-spacing from bulk convergence tests and an EOS (the lattice-constant steps) instead of giving them.',
    },
    ecutwfcRy: { type: 'number', exclusiveMinimum: 0, description: 'Wavefunction cutoff, Ry (with a given lattice constant).' },
    ecutrhoRy: {
      type: 'number',
      exclusiveMinimum: 0,
      description: "Charge-density cutoff, Ry (default 8 × ecutwfc, at least the pseudopotentials' suggestion).",
    },
    kSpacingPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 2,
      description: 'k-point spacing for the slab, 1/Å with 2π (one point along the surface normal).',
    },
    kMesh: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      minItems: 3,
      maxItems: 3,
      description: 'Explicit slab k-mesh instead of a spacing, e.g. [4, 4, 1].',
    },
    smearing: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
        degaussRy: { type: 'number', exclusiveMinimum: 0, maximum: 0.1 },
      },
      additionalProperties: false,
      description: 'Smearing for the metal (default Marzari–Vanderbilt 0.02 Ry), the same in every run so energies compare.',
    },
    size: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: 6 },
      minItems: 2,
      maxItems: 2,
      description: 'Lateral supercell (default [2, 2]: one adsorbate per 2×2 cell, 1/4 ML).',
    },
    slab: {
      type: 'object',
      properties: {
        layers: {
          oneOf: [
            { type: 'integer', minimum: 2, maximum: 12 },
            { type: 'array', items: { type: 'integer', minimum: 2, maximum: 12 }, minItems: 1, maxItems: 6, uniqueItems: true },
          ],
          description: 'Layers, or a list to sweep (default [3, 4, 5]).',
        },
        vacuumAngstrom: positiveList('Vacuum on each side, Å, or a list to sweep at the chosen layers (default 10).', { maximum: 30 }),
        fixedLayers: { type: 'integer', minimum: 0, description: 'Fixed bottom layers (default half the slab, rounded down).' },
        toleranceEv: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 0.5,
          description: 'Slab convergence tolerance on ΔBE, eV (default 0.02).',
        },
      },
      additionalProperties: false,
    },
    moleculeBoxAngstrom: {
      type: 'number',
      minimum: 6,
      maximum: 30,
      description: 'Edge of the cubic box of the gas-phase molecule, Å (default 10).',
    },
    forceThresholdEvPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 0.5,
      description: "Relaxations stop when every force component is below this, eV/Å (default: pw.x's 0.0257 eV/Å).",
    },
    startingHeightsAngstrom: {
      type: 'object',
      properties: { ontop: { type: 'number', minimum: 0.5, maximum: 4 }, fcc: { type: 'number', minimum: 0.5, maximum: 4 } },
      additionalProperties: false,
      description:
        'Starting height of the binding atom above the top layer at each site, Å (e.g. ontop 1.85, fcc 1.3 for C on Pt); default: where it meets a surface atom at the sum of their covalent radii. Closer starts save relaxation steps.',
    },
    scf: {
      ...SCF_CONTROL_SCHEMA,
      description:
        "SCF control of the gas, slab and adsorbate runs (electron_maxstep, mixing_beta, mixing_mode, diagonalization), e.g. { mixingBeta: 0.3 } for a slab whose SCF sloshes; pw.x's defaults when left out. It changes how many SCF iterations a run takes, not its energy. (local-TF mixing damps sloshing, but with pw.x 6.7 at 540 Ry it made each iteration about eight times dearer.)",
    },
  },
  required: ['metal'],
  additionalProperties: false,
} as const;

/** The inputs of an objective, as its schema admits them. */
export type SitePreferenceObjectiveInputs = InputsOf<typeof SITE_PREFERENCE_INPUT_SCHEMA>;

export const round = (x: number, digits: number): number => Number(x.toFixed(digits));
const list = <T>(v: T | T[] | undefined, fallback: T[]): T[] => (v === undefined ? fallback : Array.isArray(v) ? v : [v]);

/** Fixed bottom layers of a slab: the given number, else half the slab (rounded down). */
export function fixedLayersFor(layers: number, given: number | undefined): number {
  const n = given ?? Math.floor(layers / 2);
  if (n >= layers)
    throw new ObjectiveError(
      `inputs.slab.fixedLayers: ${n} fixed layers leave nothing to relax in a ${layers}-layer slab; fix at most ${layers - 1}.`,
    );
  return n;
}

export function bulkStructureOf(facet: SurfaceFacet): 'fcc' | 'bcc' | 'hcp' {
  return FACET_BULK[facet];
}

function elementsOf(metal: string, adsorbate: string): string[] {
  return [...new Set([metal, ...molecule(adsorbate).symbols])];
}

/**
 * The files the study will use (named ones, else the library's file for the element and
 * functional, pinned so every step uses the same file) and the highest cutoffs they suggest.
 */
function studyPseudopotentials(
  elements: string[],
  functional: string,
  files: Record<string, string>,
  env: WorkflowEnvironment,
): { files: Record<string, string>; wfc: number; rho: number } {
  let wfc = 0;
  let rho = 0;
  const chosen: Record<string, string> = { ...files };
  for (const element of elements) {
    const p = env.pseudopotential?.({ element, functional, ...(files[element] ? { file: files[element] } : {}) });
    if (files[element] && env.pseudopotential && !p) {
      throw new ObjectiveError(
        `inputs.pseudopotentials.${element}: ${files[element]} is not in the pseudopotential directory; name a UPF file that is there, or leave it out to use the library's file.`,
      );
    }
    if (p) chosen[element] = p.file;
    wfc = Math.max(wfc, p?.suggestedEcutwfcRy ?? 0);
    rho = Math.max(rho, p?.suggestedEcutrhoRy ?? 0);
  }
  return { files: chosen, wfc, rho };
}

export function resolveSitePreferenceInputs(raw: SitePreferenceObjectiveInputs, env: WorkflowEnvironment): SitePreferenceInputs {
  const metal = normaliseSymbol(raw.metal);
  if (!isChemicalSymbol(metal))
    throw new ObjectiveError(`inputs.metal: "${String(raw.metal)}" is not a chemical symbol; write one such as 'Pt'.`);
  const facet = (raw.facet as SurfaceFacet | undefined) ?? 'fcc111';
  const adsorbate = raw.adsorbate ?? 'CO';
  const functional = raw.functional === 'LDA' ? 'PZ' : (raw.functional ?? 'PBE');
  const files = raw.pseudopotentials ?? {};
  const elements = elementsOf(metal, adsorbate);
  const unknown = Object.keys(files).filter((el) => !elements.includes(el));
  if (unknown.length)
    throw new ObjectiveError(
      `inputs.pseudopotentials names ${unknown.join(', ')}, which the study does not contain (${elements.join(', ')}); remove ${unknown.length === 1 ? 'it' : 'them'}.`,
    );
  const suggested = studyPseudopotentials(elements, functional, files, env);

  const given = raw.latticeConstantAngstrom;
  const bulkRaw = raw.bulk;
  if ((given === undefined) === (bulkRaw === undefined)) {
    throw new ObjectiveError(
      'give either inputs.latticeConstantAngstrom (a lattice constant computed with the same functional and settings) or inputs.bulk.startingLatticeConstantAngstrom (to compute it here), not ' +
        (given === undefined ? 'neither.' : 'both.'),
    );
  }
  let bulk: BulkInputs | undefined;
  if (bulkRaw) {
    for (const k of ['ecutwfcRy', 'ecutrhoRy', 'kSpacingPerAngstrom', 'kMesh'] as const) {
      if (raw[k] !== undefined)
        throw new ObjectiveError(
          `inputs.${k}: with inputs.bulk the settings come from the bulk convergence tests; remove ${k}, or give latticeConstantAngstrom instead of bulk.`,
        );
    }
    // Sweep from the highest suggestion of any element upward, so the adsorbate's cutoff is met too.
    const start = Math.max(15, Math.ceil(Math.max(suggested.wfc, 20) / 5) * 5);
    const cutoffsRy = [...(bulkRaw.cutoffsRy ?? [start, start + 5, start + 10, start + 15, start + 25])].sort((a, b) => a - b);
    const dual = defaultDual(false, cutoffsRy[0], suggested.rho); // 8, or what the files' density suggestion needs
    bulk = {
      startingLatticeConstantAngstrom: bulkRaw.startingLatticeConstantAngstrom,
      toleranceMevPerAtom: bulkRaw.toleranceMevPerAtom ?? 1,
      ...(bulkRaw.kSpacingsPerAngstrom ? { kSpacingsPerAngstrom: bulkRaw.kSpacingsPerAngstrom } : {}),
      cutoffsRy,
      dual,
    };
  } else {
    if (raw.ecutwfcRy === undefined)
      throw new ObjectiveError(
        'inputs.ecutwfcRy is missing: with a given lattice constant give the converged cutoff too (or use inputs.bulk to compute both).',
      );
    if ((raw.kSpacingPerAngstrom === undefined) === (raw.kMesh === undefined)) {
      throw new ObjectiveError('give the slab k-sampling as inputs.kSpacingPerAngstrom or inputs.kMesh (one of them).');
    }
  }
  const ecutwfcRy = raw.ecutwfcRy;
  const ecutrhoRy = raw.ecutrhoRy ?? (ecutwfcRy !== undefined ? Math.max(8 * ecutwfcRy, Math.ceil(suggested.rho)) : undefined);

  const slabRaw = raw.slab ?? {};
  const layers = [...list(slabRaw.layers, [3, 4, 5])].sort((a, b) => a - b);
  const vacuumAngstrom = [...list(slabRaw.vacuumAngstrom, [10])].sort((a, b) => a - b);
  for (const n of layers) fixedLayersFor(n, slabRaw.fixedLayers);
  const smearing = raw.smearing ?? {};
  return {
    metal,
    facet,
    adsorbate,
    sites: ['ontop', 'fcc'],
    functional,
    pseudopotentials: suggested.files,
    ...(given !== undefined ? { latticeConstantAngstrom: given } : {}),
    ...(bulk ? { bulk } : {}),
    ...(ecutwfcRy !== undefined ? { ecutwfcRy } : {}),
    ...(ecutrhoRy !== undefined ? { ecutrhoRy } : {}),
    ...(raw.kSpacingPerAngstrom !== undefined ? { kSpacingPerAngstrom: raw.kSpacingPerAngstrom } : {}),
    ...(raw.kMesh !== undefined ? { kMesh: raw.kMesh as [number, number, number] } : {}),
    smearing: { kind: smearing.kind ?? 'mv', degaussRy: smearing.degaussRy ?? 0.02 },
    size: (raw.size as [number, number] | undefined) ?? [2, 2],
    slab: {
      layers,
      vacuumAngstrom,
      ...(slabRaw.fixedLayers !== undefined ? { fixedLayers: slabRaw.fixedLayers } : {}),
      toleranceEv: slabRaw.toleranceEv ?? 0.02,
    },
    moleculeBoxAngstrom: raw.moleculeBoxAngstrom ?? 10,
    ...(raw.forceThresholdEvPerAngstrom !== undefined ? { forceThresholdEvPerAngstrom: raw.forceThresholdEvPerAngstrom } : {}),
    ...(raw.startingHeightsAngstrom !== undefined ? { startingHeightsAngstrom: raw.startingHeightsAngstrom } : {}),
    ...(raw.scf !== undefined ? { scf: raw.scf } : {}),
  };
}

export function sitePreferenceObjective(i: SitePreferenceInputs): string {
  const fn = i.functional === 'PZ' ? 'LDA' : i.functional;
  return `${i.adsorbate}/${i.metal}(${i.facet.replace(/^[a-z]+/, '')}) site preference ΔBE = E_ads(ontop) − E_ads(fcc) (${fn}, p(${i.size.join('×')}))`;
}

/** "CO on Pt(111): ontop vs fcc with LDA" → the inputs it states (the rest must come from a file). */
export function sitePreferenceInputsFromText(text: string): Record<string, unknown> | undefined {
  if (!/site preference|ontop|on-top|ΔBE|delta[ _]?BE|binding[- ]energy difference/i.test(text)) return undefined;
  const m = /\b([A-Z][a-z]?(?:[A-Z][a-z]?)*)\s*(?:\/|on)\s*([A-Z][a-z]?)\s*\(\s*(111|100|110|0001)\s*\)/.exec(text);
  if (!m) return undefined;
  const out: Record<string, unknown> = { metal: m[2] };
  if (MOLECULE_NAMES.includes(m[1]!)) out.adsorbate = m[1];
  const facet = m[3] === '0001' ? 'hcp0001' : `fcc${m[3]}`;
  out.facet = facet;
  const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
  if (functional)
    out.functional =
      functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() === 'LDA' ? 'PZ' : functional.toUpperCase();
  const a0 = /\ba0?\s*=\s*(\d+(?:\.\d+)?)\s*(?:Å|A\b|Ang)/i.exec(text);
  if (a0) out.latticeConstantAngstrom = Number(a0[1]);
  return out;
}
