/**
 * The surface-energy template: slabs of a metal surface at several thicknesses and its bulk, at
 * one set of settings (the same cutoffs, k-spacing and functional: the bulk is sampled as
 * densely as the slab in its plane), and
 *   γ = (E_slab − N_slab/N_bulk E_bulk) / 2A
 * per thickness, in eV/Å² and J/m², so the report shows γ converging with the layers. The slabs
 * are symmetric (both faces alike), unrelaxed unless asked. The bulk is a named metal or the
 * user's structure file (a one-element fcc, bcc or hcp crystal). Its lattice constant is computed
 * at the study's functional, cutoffs and k-spacing before anything is cut (an EOS of the bulk
 * cell, Birch–Murnaghan, a through the cell's symmetry), and the slabs and the bulk reference are
 * both at that a; `latticeConstantAsGiven` cuts at the given (or the file's) a instead.
 */
import { claimValue, type ReportClaim } from '../../guard/claimChecks';
import type { EnergyDifferenceValue } from '../../artifacts/relaxation';
import type { EosFitValue } from '../../artifacts/shapes';
import { analyseSymmetry, symprecSaid } from '../../dft/structure/symmetry';
import { FACETS, type Facet } from '../../dft/structure/surface';
import { defineWorkflow, type ComposeContextOf, type InputsOf } from '../defineWorkflow';
import { ELEMENT_CRYSTALS } from '../electronicStructure/inputs';
import { eosSteps } from '../eosSteps';
import { eosScaleFactors } from '../latticeConstantInputs';
import {
  loadedStructureFile,
  STRUCTURE_FILE_SCHEMA,
  structureFileNamedIn,
  symprecArgs,
  type StructureFileInput,
} from '../structureFileInput';
import { ObjectiveError, type TemplateStep, type WorkflowEnvironment } from '../types';
import {
  electronicArgs,
  elementsInText,
  loadCrystalFile,
  need,
  PSEUDOS,
  pseudopotentialsStep,
  reportStep,
  resolveSettings,
  sweptSettingsSentence,
  settingsSteps,
  SETTINGS_SCHEMA,
  shown,
  type StudySettings,
} from './common';

type Metal = 'fcc' | 'bcc' | 'hcp';

export interface SurfaceInputs {
  element: string;
  facet: Facet;
  bravais: Metal;
  /** The EOS's starting a; with latticeConstantAsGiven, the a the slabs are cut at. Å. */
  latticeConstantAngstrom: number;
  /** Where that a came from. */
  latticeOrigin: 'given' | 'experimental' | 'file';
  /** true: cut at latticeConstantAngstrom as it is; false: compute a at the study's settings first. */
  latticeConstantAsGiven: boolean;
  /** hcp: the c/a of the bulk and the slabs (the file's, else ideal). */
  cOverA?: number;
  /** The user's bulk crystal, when it came from a file. */
  file?: StructureFileInput;
  /** The file's crystal as the symmetry reads it ("Fm-3m (225)"). */
  spaceGroup?: string;
  eos: { points: number; rangePercent: number };
  layers: number[];
  vacuumAngstrom: number;
  size: [number, number];
  relax: boolean;
  forceThresholdEvPerAngstrom: number;
  settings: StudySettings;
  bulkAtoms: number;
}

/** The starting crystal (named at the starting a, or the file's primitive cell): the sweeps and the EOS run on it. */
const START = '$step.bulk.bulk_structure';
/** The bulk the reference energy is computed on: at the computed a, or the starting crystal when a is taken as given. */
const AT_A0 = '$step.bulk-a0.bulk_structure';
const LATTICE = '$step.lattice.lattice_constant';
const DEFAULT_FACET: Record<Metal, Facet> = { fcc: 'fcc111', bcc: 'bcc110', hcp: 'hcp0001' };
const MILLER = ['111', '100', '110', '0001'] as const;
const facetsOf = (b: Metal): Facet[] => FACETS.filter((f) => f.startsWith(b));

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    element: {
      type: 'string',
      pattern: '^[A-Z][a-z]?$',
      description: 'The metal (its fcc, bcc or hcp crystal), unless structure gives the bulk.',
    },
    structure: {
      ...STRUCTURE_FILE_SCHEMA,
      description:
        'The bulk crystal from a structure file: { file: Al.cif } (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF), relative to the objective file; ' +
        'a one-element fcc, bcc or hcp crystal (any cell: the symmetry decides). Its a is the starting point of the EOS, its c/a is kept.',
    },
    facet: {
      type: 'string',
      enum: [...FACETS],
      description: 'The surface (default the close-packed one: fcc111, bcc110, hcp0001).',
    },
    miller: {
      type: 'string',
      enum: [...MILLER],
      description:
        "The surface by its Miller indices (111, 100, 110; 0001 for hcp): the facet of the bulk's lattice, e.g. 111 of an fcc crystal is fcc111.",
    },
    latticeConstantAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 20,
      description:
        "Bulk lattice constant a, Å: where the EOS that computes a at the study's settings starts (default the experimental one, or the file's); " +
        'with latticeConstantAsGiven, the a the slabs and the bulk are computed at.',
    },
    latticeConstantAsGiven: {
      type: 'boolean',
      description:
        "Cut the slabs at latticeConstantAngstrom (or the file's a) as given, without computing a at these settings (default false: a from an EOS of the bulk " +
        'at the same functional, cutoffs and k-spacing, so the slab carries no strain). For an a already computed at exactly these settings.',
    },
    eos: {
      type: 'object',
      properties: {
        points: { type: 'integer', minimum: 5, maximum: 15, description: 'Lattice constants in the EOS series (odd; default 5).' },
        rangePercent: { type: 'number', exclusiveMinimum: 0, maximum: 15, description: 'Half-width of the series in a, % (default 5).' },
      },
      additionalProperties: false,
      description: 'The EOS that finds the bulk a (Birch–Murnaghan): points and range around the starting a.',
    },
    layers: {
      type: 'array',
      items: { type: 'integer', minimum: 2, maximum: 20 },
      minItems: 1,
      maxItems: 6,
      uniqueItems: true,
      description: 'Slab thicknesses to compute, in layers (default 3, 5, 7): γ should converge with them.',
    },
    vacuumAngstrom: { type: 'number', minimum: 4, maximum: 40, description: 'Vacuum on each side of the slab, Å (default 8).' },
    size: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: 4 },
      minItems: 2,
      maxItems: 2,
      description: 'Lateral cell, p × q (default 1 × 1).',
    },
    relax: {
      type: 'boolean',
      description: 'Relax every atom of the slab, both faces alike (default false: the unrelaxed surface energy).',
    },
    forceThresholdEvPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 0.5,
      description: 'With relax: force threshold, eV/Å (default 0.01).',
    },
    ...SETTINGS_SCHEMA,
  },
  // the bulk is a named metal or a file: without a file, the element is required
  if: { not: { required: ['structure'] } },
  then: { required: ['element'] },
  additionalProperties: false,
} as const;

/** What the symmetry of a file's crystal says about it: a one-element fcc, bcc or hcp metal, its a and c/a; else why not. */
export function metalOfFile(
  file: StructureFileInput,
  asked: { facet?: Facet; miller?: string },
): { element: string; bravais: Metal; facet: Facet; aAngstrom: number; cOverA?: number; spaceGroup: string } {
  const st = file.structure;
  const where = `inputs.structure.file: ${file.name}`;
  if (!st.pbc.every(Boolean))
    throw new ObjectiveError(
      `${where} is not periodic in three directions (a slab or a molecule): the surface energy needs the bulk crystal the slabs are cut from. Give the bulk's file.`,
    );
  const elements = [...new Set(st.symbols)];
  let sym: ReturnType<typeof analyseSymmetry>;
  try {
    sym = analyseSymmetry(st);
  } catch (e) {
    throw new ObjectiveError(
      `${where}: its symmetry cannot be found (${(e as Error).message}), so it cannot be cut along ${surfaceWords(asked)}.`,
    );
  }
  const sg = `${sym.spaceGroup.symbol} (${sym.spaceGroup.number})${symprecSaid(st.symprecAngstrom)}`;
  const natoms = sym.primitive.symbols.length;
  const bravais: Metal | undefined =
    elements.length !== 1
      ? undefined
      : sym.spaceGroup.number === 225 && natoms === 1
        ? 'fcc'
        : sym.spaceGroup.number === 229 && natoms === 1
          ? 'bcc'
          : sym.spaceGroup.number === 194 && natoms === 2
            ? 'hcp'
            : undefined;
  if (!bravais) {
    const formula = elements.length === 1 ? elements[0]! : elements.join('');
    throw new ObjectiveError(
      `${where} holds ${formula} in ${sg} with ${natoms} atom(s) per primitive cell: it cannot be cut along ${surfaceWords(asked)} here. ` +
        'The surface-energy template cuts symmetric slabs of a one-element fcc (Fm-3m, 225), bcc (Im-3m, 229) or hcp (P6_3/mmc, 194) crystal ' +
        `(${FACETS.join(', ')}); ${elements.length > 1 ? "a compound's slab needs a choice of termination and chemical potentials, which it does not make" : 'other lattices have no slab builder here'}. ` +
        'Give a file of such a crystal.',
    );
  }
  const facet = asked.facet ?? (asked.miller ? (`${bravais}${asked.miller}` as Facet) : DEFAULT_FACET[bravais]);
  if (!facetsOf(bravais).includes(facet)) {
    throw new ObjectiveError(
      `${where} is ${bravais} ${elements[0]} (${sg}): it cannot be cut along ${surfaceWords(asked)}; the ${bravais} surfaces here are ${facetsOf(bravais).join(', ')}.`,
    );
  }
  return {
    element: elements[0]!,
    bravais,
    facet,
    aAngstrom: sym.lattice.aAngstrom,
    ...(bravais === 'hcp' ? { cOverA: sym.lattice.cOverA } : {}),
    spaceGroup: sg,
  };
}

const surfaceWords = (asked: { facet?: Facet; miller?: string }): string =>
  asked.facet
    ? `${asked.facet.replace(/\d+$/, '')}(${asked.facet.replace(/^[a-z]+/, '')})`
    : asked.miller
      ? `(${asked.miller})`
      : 'its close-packed surface';

/** The inputs as the schema admits them (its if/then, an element unless a structure file gives the bulk, is checked by ajv). */
type SurfaceObjectiveInputs = InputsOf<typeof INPUT_SCHEMA>;
/** The slice that names the bulk and its surface: a metal by name or a structure file, the facet or Miller indices, a given a. */
type BulkInputs = Pick<SurfaceObjectiveInputs, 'element' | 'structure' | 'facet' | 'miller' | 'latticeConstantAngstrom'>;
/** The bulk those inputs name: the metal, its surface, the starting a and where it came from. */
type Bulk = Pick<SurfaceInputs, 'element' | 'facet' | 'cOverA' | 'file' | 'spaceGroup'> & {
  a: number;
  origin: SurfaceInputs['latticeOrigin'];
};

const askedSurface = (inputs: Pick<BulkInputs, 'facet' | 'miller'>): { facet?: Facet; miller?: string } => ({
  ...(inputs.facet ? { facet: inputs.facet } : {}),
  ...(inputs.miller ? { miller: inputs.miller } : {}),
});

/** Objective loading: read the bulk's file and check, from its symmetry, that it can be cut along the asked surface. */
function loadInputFiles(inputs: SurfaceObjectiveInputs, baseDir: string): SurfaceObjectiveInputs {
  const loaded = loadCrystalFile(inputs, baseDir);
  if (loaded.structure) metalOfFile(loadedStructureFile(loaded.structure, 'inputs.structure'), askedSurface(loaded));
  return loaded;
}

/** The bulk of a structure file (its element, surface, a and c/a read by the symmetry), or of a named metal (the table's crystal and a). */
function resolveBulk(inputs: BulkInputs): Bulk {
  const asked = askedSurface(inputs);
  const given = inputs.latticeConstantAngstrom;
  if (inputs.structure) {
    const file = loadedStructureFile(inputs.structure, 'inputs.structure');
    const m = metalOfFile(file, asked);
    if (inputs.element !== undefined && inputs.element !== m.element)
      throw new ObjectiveError(
        `inputs.element: ${inputs.element}, but ${file.name} holds ${m.element}; leave element out (the file says it) or give the right file.`,
      );
    return {
      element: m.element,
      facet: m.facet,
      a: given ?? m.aAngstrom,
      origin: given !== undefined ? 'given' : 'file',
      cOverA: m.cOverA,
      file,
      spaceGroup: m.spaceGroup,
    };
  }
  const element = inputs.element;
  if (element === undefined)
    throw new ObjectiveError('inputs.element: give the metal (element: Al), or its bulk crystal as structure: { file: Al.cif }.');
  const table = ELEMENT_CRYSTALS[element];
  const tableMetal = table && ['fcc', 'bcc', 'hcp'].includes(table.structure) ? (table.structure as Metal) : undefined;
  const f =
    asked.facet ??
    (asked.miller && tableMetal ? (`${tableMetal}${asked.miller}` as Facet) : tableMetal ? DEFAULT_FACET[tableMetal] : undefined);
  if (!f) throw new ObjectiveError(`inputs.facet: ${element} has no default surface here; name the facet (${FACETS.join(', ')}).`);
  if (!FACETS.includes(f))
    throw new ObjectiveError(
      `inputs.miller: ${element} is ${String(tableMetal)}, which has no (${String(asked.miller)}) slab here; its surfaces are ${facetsOf(tableMetal!).join(', ')}.`,
    );
  const facet = f;
  const bravais = facet.replace(/\d+$/, '') as Metal;
  if (table && table.structure !== bravais && given === undefined) {
    throw new ObjectiveError(
      `inputs.latticeConstantAngstrom: ${element} is ${table.structure}, but ${facet} is a ${bravais} surface; give the ${bravais} lattice constant.`,
    );
  }
  const a = given ?? table?.a;
  if (a === undefined)
    throw new ObjectiveError(`inputs.latticeConstantAngstrom: no lattice constant of ${element} is on record here; give it.`);
  // a named hcp metal keeps the ideal c/a, in the bulk and the slabs alike
  return {
    element,
    facet,
    a,
    origin: given !== undefined ? 'given' : 'experimental',
    cOverA: bravais === 'hcp' ? Math.sqrt(8 / 3) : undefined,
  };
}

function resolve(inputs: SurfaceObjectiveInputs, env: WorkflowEnvironment): SurfaceInputs {
  const points = inputs.eos?.points ?? 5;
  if (points % 2 === 0)
    throw new ObjectiveError(
      `inputs.eos.points: ${points} is even; use an odd number (5, 7, 9) so the starting lattice constant is the middle point.`,
    );
  const asGiven = inputs.latticeConstantAsGiven ?? false;
  const { element, facet, a, origin, cOverA, file, spaceGroup } = resolveBulk(inputs);
  if (asGiven && origin === 'experimental')
    throw new ObjectiveError(
      "inputs.latticeConstantAsGiven: give latticeConstantAngstrom (or a structure file) to cut at; without one, a is computed at the study's settings.",
    );
  const bravais = facet.replace(/\d+$/, '') as Metal;
  const layers = [...(inputs.layers ?? [3, 5, 7])].sort((x, y) => x - y);
  // the schema admits exactly two sizes (minItems, maxItems 2)
  const [p = 1, q = 1] = inputs.size ?? [];
  return {
    element,
    facet,
    bravais,
    latticeConstantAngstrom: a,
    latticeOrigin: origin,
    latticeConstantAsGiven: asGiven,
    ...(cOverA !== undefined ? { cOverA } : {}),
    ...(file ? { file } : {}),
    ...(spaceGroup ? { spaceGroup } : {}),
    eos: { points, rangePercent: inputs.eos?.rangePercent ?? 5 },
    layers,
    vacuumAngstrom: inputs.vacuumAngstrom ?? 8,
    size: [p, q],
    relax: inputs.relax ?? false,
    forceThresholdEvPerAngstrom: inputs.forceThresholdEvPerAngstrom ?? 0.01,
    settings: resolveSettings(inputs, [element], env),
    bulkAtoms: bravais === 'hcp' ? 2 : 1,
  };
}

const surfaceName = (i: SurfaceInputs): string => `${i.element}(${i.facet.replace(/^[a-z]+/, '')})`;
const round = (x: number, digits: number): number => Number(x.toFixed(digits));
const originWords = (i: SurfaceInputs): string =>
  i.latticeOrigin === 'file'
    ? `the a of ${i.file!.name}`
    : i.latticeOrigin === 'given'
      ? 'the a given with the objective'
      : `the experimental a of ${i.element}`;

/** The starting crystal: built at the starting a, or the file's crystal in its standardised primitive cell. */
function startStep(i: SurfaceInputs): TemplateStep {
  if (i.file) {
    return {
      id: 'bulk',
      title: `Read ${i.file.name} (${i.bravais} ${i.element}, ${i.spaceGroup})`,
      worker: 'dft',
      tool: 'build_bulk',
      args: { from: i.file.file, sha256: i.file.sha256, cell: 'primitive', ...symprecArgs(i.file).args },
      reasons: {
        ...symprecArgs(i.file).reasons,
        from: `the user's bulk crystal (${i.file.name}): the ${surfaceName(i)} slabs are cut from it`,
        sha256: 'the sha256 recorded when the objective was read: refused if the file changed since',
        cell: 'the standardised primitive cell: the same crystal in the fewest atoms, so the sweeps and the EOS cost least',
      },
    };
  }
  const a = i.latticeConstantAngstrom;
  return {
    id: 'bulk',
    title: `Build ${i.bravais} ${i.element} (a = ${a} Å${i.latticeConstantAsGiven ? ', as given' : ', the starting point'})`,
    worker: 'dft',
    tool: 'build_bulk',
    args: { elements: [i.element], bravais: i.bravais, latticeConstantAngstrom: a, ...(i.cOverA ? { cOverA: round(i.cOverA, 12) } : {}) },
    reasons: {
      elements: 'the metal',
      bravais: `${i.bravais} ${i.element}: the bulk the ${surfaceName(i)} slabs are cut from`,
      latticeConstantAngstrom: i.latticeConstantAsGiven
        ? `${a} Å as given (latticeConstantAsGiven): the slabs and the bulk are computed at it`
        : `${a} Å, ${originWords(i)}: where the EOS that computes a at the study's settings starts`,
      ...(i.cOverA ? { cOverA: 'the ideal c/a, kept in the bulk and the slabs' } : {}),
    },
  };
}

/** A bulk SCF input at the slab settings (the EOS template and the bulk reference share them): tool, arguments and reasons. */
function bulkScfAtSlabSettings(
  structure: string,
  why: { structure: string; purpose: string; calculation: string },
  s: ReturnType<typeof settingsSteps>,
  e: ReturnType<typeof electronicArgs>,
): Pick<TemplateStep, 'tool' | 'args' | 'reasons'> {
  return {
    tool: 'make_pw_input',
    args: {
      structure,
      pseudopotentials: PSEUDOS,
      purpose: 'production',
      calculation: 'scf',
      ...e.args,
      ecutwfcRy: s.cut,
      ecutrhoRy: s.rho,
      kSpacingPerAngstrom: s.k,
    },
    reasons: {
      structure: why.structure,
      pseudopotentials: 'the chosen pseudopotentials',
      purpose: why.purpose,
      calculation: why.calculation,
      ...e.reasons,
      ...s.reasons,
    },
  };
}

/** The EOS of the bulk at the study's settings, its fit, a through the cell's symmetry, and the bulk rebuilt at that a. */
function latticeSteps(i: SurfaceInputs, s: ReturnType<typeof settingsSteps>, e: ReturnType<typeof electronicArgs>): TemplateStep[] {
  const scales = eosScaleFactors(i.eos.points, i.eos.rangePercent);
  return [
    ...eosSteps({
      input: {
        title: 'Bulk EOS template at the slab settings',
        ...bulkScfAtSlabSettings(
          START,
          {
            structure: 'the bulk at the starting lattice constant; the series scales it',
            purpose: "its energies give the bulk's lattice constant at the study's settings",
            calculation: 'single-point energies',
          },
          s,
          e,
        ),
        dependsOn: s.after,
      },
      scales,
      form: 'birch-murnaghan',
      titles: { series: 'Bulk EOS series', runs: 'Run the bulk EOS series', fit: 'Fit birch-murnaghan E(V) of the bulk' },
      reasons: {
        template: 'the bulk at the slab settings',
        values: `${i.eos.points} lattice constants spanning ±${i.eos.rangePercent} % around the starting a (${originWords(i)}): the functional's a lies within a few % of experiment`,
        form: 'birch-murnaghan (3rd order), the usual equation of state',
      },
    }),
    {
      id: 'lattice',
      title: 'Bulk lattice constant from V0 through the cell symmetry',
      worker: 'dft',
      tool: 'lattice_constant_from_volume',
      args: {
        eosFit: '$step.eos-fit.eos_fit',
        structure: START,
        ...(i.file ? {} : { bravais: i.bravais }),
        ...(i.cOverA && !i.file ? { cOverA: round(i.cOverA, 12) } : {}),
      },
      reasons: {
        eosFit: 'the EOS fit of the bulk',
        structure: 'the cell the series scaled: its symmetry gives a',
        ...(i.file ? {} : { bravais: `the bulk is ${i.bravais}: checked against the symmetry of the cell` }),
        ...(i.cOverA && !i.file ? { cOverA: 'the c/a held fixed' } : {}),
      },
      dependsOn: ['eos-fit'],
    },
    {
      id: 'bulk-a0',
      title: `The bulk at the computed a`,
      worker: 'dft',
      tool: 'build_bulk',
      args: {
        elements: [i.element],
        bravais: i.bravais,
        latticeConstantAngstrom: LATTICE,
        ...(i.cOverA ? { cOverA: round(i.cOverA, 12) } : {}),
      },
      reasons: {
        elements: 'the metal',
        bravais: `${i.bravais} ${i.element}${i.file ? `, the crystal of ${i.file.name}` : ''}`,
        latticeConstantAngstrom: "the lattice constant computed at the study's settings: the bulk reference and the slabs are at it",
        ...(i.cOverA ? { cOverA: i.file ? `the c/a of ${i.file.name}` : 'the ideal c/a, as in the slabs' } : {}),
      },
      dependsOn: ['lattice'],
    },
  ];
}

function steps(i: SurfaceInputs): TemplateStep[] {
  const e = electronicArgs(i.settings);
  const s = settingsSteps(i.settings, START, 'bulk', e);
  const perLayer = i.size[0] * i.size[1];
  const computed = !i.latticeConstantAsGiven;
  const a: unknown = computed ? LATTICE : round(i.latticeConstantAngstrom, 10);
  const reference = computed ? AT_A0 : START;
  const out: TemplateStep[] = [
    startStep(i),
    pseudopotentialsStep(i.settings, [i.element]),
    ...s.steps,
    ...(computed ? latticeSteps(i, s, e) : []),
    {
      id: 'bulk-input',
      title: `Bulk SCF input at the slab settings${computed ? ' and the computed a' : ''}`,
      worker: 'dft',
      ...bulkScfAtSlabSettings(
        reference,
        {
          structure: computed ? 'the bulk at the lattice constant computed at these settings' : 'the bulk crystal at the given a',
          purpose: 'the bulk energy per atom the slabs are measured against',
          calculation: 'the bulk at the lattice constant the slabs are cut at',
        },
        s,
        e,
      ),
      dependsOn: computed ? ['bulk-a0', ...s.after] : s.after,
    },
    {
      id: 'bulk-run',
      title: 'Run the bulk',
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$step.bulk-input.pw_input' },
      reasons: { input: 'the bulk' },
      dependsOn: ['bulk-input'],
    },
  ];
  for (const n of i.layers) {
    const id = `slab-${n}`;
    const atoms = n * perLayer;
    out.push(
      {
        id,
        title: `${surfaceName(i)} ${i.size.join('×')}, ${n} layers, ${i.vacuumAngstrom} Å vacuum`,
        worker: 'dft',
        tool: 'build_slab',
        args: {
          element: i.element,
          facet: i.facet,
          latticeConstantAngstrom: a,
          ...(i.file && i.cOverA ? { cOverA: round(i.cOverA, 12) } : {}),
          size: i.size,
          layers: n,
          vacuumAngstrom: i.vacuumAngstrom,
          fixedLayers: 0,
        },
        reasons: {
          element: 'the metal',
          facet: 'the surface of the study',
          latticeConstantAngstrom: computed
            ? "the bulk's lattice constant computed at the study's settings, at which the bulk reference is computed too"
            : `${i.latticeConstantAngstrom} Å as given (latticeConstantAsGiven), the a the bulk is computed at`,
          ...(i.file && i.cOverA ? { cOverA: `the c/a of ${i.file.name}, as in the bulk` } : {}),
          size: `${i.size.join('×')}: a clean surface needs no larger cell`,
          layers: `${n} layers: one thickness of the series ${i.layers.join(', ')}`,
          vacuumAngstrom: `${i.vacuumAngstrom} Å on each side`,
          fixedLayers: 'none: both faces alike, so the slab has two equal surfaces',
        },
        ...(computed ? { dependsOn: ['lattice'] } : {}),
      },
      {
        id: `${id}-input`,
        title: `${n}-layer slab ${i.relax ? 'relax' : 'SCF'} input`,
        worker: 'dft',
        tool: 'make_pw_input',
        args: {
          structure: `$step.${id}.slab`,
          pseudopotentials: PSEUDOS,
          purpose: 'production',
          calculation: i.relax ? 'relax' : 'scf',
          ...(i.relax ? { forceThresholdEvPerAngstrom: i.forceThresholdEvPerAngstrom } : {}),
          ...e.args,
          ecutwfcRy: s.cut,
          ecutrhoRy: s.rho,
          kSpacingPerAngstrom: s.k,
        },
        reasons: {
          structure: `the ${n}-layer slab`,
          pseudopotentials: 'the chosen pseudopotentials',
          purpose: 'its energy gives the surface energy',
          calculation: i.relax ? 'both faces relax alike' : 'the unrelaxed surface',
          ...(i.relax ? { forceThresholdEvPerAngstrom: `${i.forceThresholdEvPerAngstrom} eV/Å` } : {}),
          ...e.reasons,
          ...s.reasons,
          kSpacingPerAngstrom: `${typeof s.k === 'number' ? `${s.k} 1/Å` : "the bulk's spacing"}: in the plane as dense as the bulk, one point along the normal`,
        },
        dependsOn: [id, ...s.after],
      },
      {
        id: `${id}-run`,
        title: `Run the ${n}-layer slab`,
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: `$step.${id}-input.pw_input` },
        reasons: { input: `the ${n}-layer slab` },
        dependsOn: [`${id}-input`],
      },
      {
        id: `gamma-${n}`,
        title: `γ from the ${n}-layer slab`,
        worker: 'dft',
        tool: 'energy_difference',
        args: {
          quantity: 'surface_energy',
          energies: [`$all.${id}-run.total_energy`, '$all.bulk-run.total_energy'],
          coefficients: [1, -atoms / i.bulkAtoms],
          per: 'area',
          surfaces: 2,
          areaFrom: 0,
        },
        reasons: {
          quantity: 'the energy of the surface',
          energies: 'the slab, then the bulk at its settings',
          coefficients: `the slab's ${atoms} atoms against ${shown(atoms / i.bulkAtoms, 6)} bulk cells of ${i.bulkAtoms} atom(s)`,
          per: 'per area of surface',
          surfaces: 'two equal faces',
          areaFrom: "the slab's cell gives the area",
        },
        dependsOn: [`${id}-run`, 'bulk-run'],
      },
    );
  }
  out.push(
    reportStep(
      `Report the surface energy of ${surfaceName(i)}`,
      ['surface_energy', ...(computed ? ['lattice_constant'] : []), ...s.quantities],
      i.layers.map((n) => `gamma-${n}`),
    ),
  );
  return out;
}

/** Which a the slabs were cut at and how it was found, with its claim when it was computed. */
function latticeSentence(ctx: ComposeContextOf<SurfaceInputs>): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const c = i.cOverA && i.bravais === 'hcp' ? ` (c/a ${shown(i.cOverA, 5)}${i.file ? `, of ${i.file.name}` : ', ideal'}, held fixed)` : '';
  if (i.latticeConstantAsGiven) {
    return {
      text:
        `The slabs and the bulk are at a = ${shown(i.latticeConstantAngstrom, 6)} Å${c}, ${originWords(i)} taken as given (latticeConstantAsGiven): ` +
        `it was not computed at these settings, so γ is that of a crystal held at this a, strain included.`,
      claims: [],
    };
  }
  const ref = need(ctx, 'lattice', 'lattice_constant');
  const aa = ctx.value(ref) as number;
  const fitRef = need(ctx, 'eos-fit', 'eos_fit');
  const fit = ctx.value(fitRef) as EosFitValue;
  const start = i.latticeConstantAngstrom;
  return {
    text:
      `The slabs are cut at a = **${shown(aa, 5)} Å**${c} (${ref}), the lattice constant of ${i.bravais} ${i.element} at these settings: ` +
      `a Birch–Murnaghan fit (${fitRef}; B = ${shown(fit.b0GPa, 3)} GPa) of ${fit.points.length} bulk energies at ±${i.eos.rangePercent} % around ${shown(start, 6)} Å (${originWords(i)}), ` +
      `${shown(100 * (aa / start - 1), 2)} % from it. The bulk reference energy is computed at the same a, so the slabs carry no strain against it.`,
    claims: [
      {
        quantity: 'lattice_constant',
        value: claimValue(aa, 4),
        unit: 'Å',
        cites: ref,
        statement: `a = ${claimValue(aa, 4)} Å`,
      },
    ],
  };
}

function claimsAndText(ctx: ComposeContextOf<SurfaceInputs>): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const rows = ['| layers | γ (eV/Å²) | γ (J/m²) | artifact |', '| --- | --- | --- | --- |'];
  const values: { n: number; ref: string; v: EnergyDifferenceValue }[] = [];
  for (const n of i.layers) {
    const ref = need(ctx, `gamma-${n}`, 'energy_difference');
    const v = ctx.value(ref) as EnergyDifferenceValue;
    values.push({ n, ref, v });
    rows.push(`| ${n} | ${shown(v.value, 5)} | ${shown(v.valueJPerM2!, 4)} | ${ref} |`);
  }
  const best = values.at(-1)!;
  const previous = values.at(-2);
  const claims: ReportClaim[] = [
    {
      quantity: 'surface_energy',
      value: claimValue(best.v.valueJPerM2!, 3),
      unit: 'J/m^2',
      cites: `${best.ref}.valueJPerM2`,
      statement: `γ = ${claimValue(best.v.valueJPerM2!, 3)} J/m² (${best.n} layers)`,
    },
    {
      quantity: 'surface_energy',
      value: claimValue(best.v.value, 4),
      unit: 'eV/Å^2',
      cites: `${best.ref}.value`,
      statement: `γ = ${claimValue(best.v.value, 4)} eV/Å² (${best.n} layers)`,
    },
  ];
  const lattice = latticeSentence(ctx);
  const settings = sweptSettingsSentence(i.settings, ctx);
  const text = [
    `The ${i.relax ? 'relaxed' : 'unrelaxed'} surface energy of ${surfaceName(i)} is **${shown(best.v.valueJPerM2!, 3)} J/m²** (${shown(best.v.value, 4)} eV/Å², ${best.n} layers, ${best.ref})` +
      (previous
        ? `; the ${previous.n}-layer slab gives ${shown(previous.v.valueJPerM2!, 3)} J/m², ${shown(Math.abs(best.v.valueJPerM2! - previous.v.valueJPerM2!), 2)} J/m² away.`
        : '.'),
    '',
    ...rows,
    '',
    `${best.v.formula}. The slabs are ${i.size.join('×')} with ${i.vacuumAngstrom} Å of vacuum on each side; the bulk shares the slabs' cutoffs, k-spacing and functional.`,
    '',
    lattice.text,
    '',
    settings.text,
  ].join('\n');
  claims.push(...lattice.claims);
  return { text, claims: [...claims, ...settings.claims] };
}

export const SURFACE_ENERGY = defineWorkflow({
  id: 'surface-energy',
  title: 'Surface energy of a metal surface',
  description:
    'The surface energy γ = (E_slab − N E_bulk) / 2A of a metal surface (fcc111, fcc100, fcc110, bcc110, bcc100, hcp0001) from symmetric slabs ' +
    'of several thicknesses and the bulk at the same cutoffs, k-spacing and functional, in eV/Å² and J/m², unrelaxed or relaxed. The bulk lattice ' +
    "constant is computed first at the study's settings (an EOS of the bulk cell), and the slabs and the bulk reference are both at it " +
    '(latticeConstantAsGiven: cut at the given a instead). Inputs: element, or the bulk as structure: { file } (a one-element fcc, bcc or hcp crystal); ' +
    'facet or Miller indices, starting lattice constant, layers, vacuum, functional, settings given or chosen by sweeps on the bulk.',
  inputSchema: INPUT_SCHEMA,
  inputsFromText: (text) => {
    if (!/\bsurface energy\b/i.test(text)) return undefined;
    const miller = /\((\d{3,4})\)/.exec(text)?.[1];
    const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
    const out: Record<string, unknown> = {
      ...(functional ? { functional: functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() } : {}),
    };
    // a structure file the sentence names ("surface energy of (111) from Al.cif") is the bulk, read when the
    // objective is; the file holds the crystal, so the surface is named by its Miller indices alone
    const file = structureFileNamedIn(text);
    if (file) return { structure: { file }, ...(miller ? { miller } : {}), ...out };
    const element = elementsInText(text)[0];
    if (!element) return undefined;
    const table = ELEMENT_CRYSTALS[element];
    const facet = miller && table ? `${table.structure}${miller}` : undefined;
    return {
      element,
      ...(facet && (FACETS as readonly string[]).includes(facet) ? { facet } : miller ? { miller } : {}),
      ...out,
    };
  },
  loadInputFiles,
  resolveInputs: resolve,
  steps,
  // an objective file's inputs as read get the line of their resolution without a machine (defineWorkflow)
  objective: (i) => `surface energy of ${surfaceName(i)} with ${i.settings.functional}`,
  composers: {
    title: (ctx) => `Surface energy of ${surfaceName(ctx.inputs)} (${ctx.inputs.settings.functional})`,
    text: (ctx) => claimsAndText(ctx).text,
    claims: (ctx) => claimsAndText(ctx).claims,
  },
});
