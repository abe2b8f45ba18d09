/**
 * What the relax, magnetic-ordering, formation-energy and surface-energy templates share: the
 * crystal (an element in its ground-state crystal, a named lattice, or the user's structure file),
 * the functional and pseudopotentials, the electronic settings (smearing, spin and the starting
 * magnetization per species), and the cutoff and k-spacing: given, or chosen by a cutoff sweep at
 * one k-spacing and a k sweep at the chosen cutoff, each the cheapest value within the energy
 * tolerance of the finest (the lattice-constant workflow's energy criterion), and, for a study that
 * reports moments, within a moment tolerance too. Å, Ry, 1/Å (with 2π), μB.
 */
import { BINARY_EXAMPLE, ELEMENT_CRYSTALS, type Bravais } from '../electronicStructure/inputs';
import { MAGNETIC_SPECIES } from '../latticeConstantCrystal';
import {
  isStructureFileInput,
  loadedStructureFile,
  loadStructureFileInput,
  STRUCTURE_FILE_SCHEMA,
  symprecArgs,
  type StructureFileInput,
} from '../structureFileInput';
import type { Composer } from '../../plan/types';
import { ObjectiveError, type TemplateStep, type WorkflowEnvironment } from '../types';
import type { InputsOf } from '../defineWorkflow';
import { resolveSweptSettings, SWEPT_SETTINGS_SCHEMA, type SweptSettings } from '../sweptSettings';
import { isChemicalSymbol as isElementSymbol } from '../../dft/io/elements';

export const PSEUDOS = '$step.pseudopotentials.pseudopotentials';
export const CUT = '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy';
export const RHO = '$step.cutoff-choice.converged_settings.chosen.ecutrhoRy';
export const KSPACING = '$step.k-choice.converged_settings.chosen.kSpacingPerAngstrom';

/** A crystal: an element (its ground-state crystal by default), a named lattice, or a structure file. */
export const CRYSTAL_SCHEMA = {
  element: {
    type: 'string',
    pattern: '^[A-Z][a-z]?$',
    description:
      'The element: its ground-state crystal at the experimental lattice constant unless bravais and latticeConstantAngstrom say otherwise.',
  },
  elements: {
    type: 'array',
    items: { type: 'string', pattern: '^[A-Z][a-z]?$' },
    minItems: 2,
    maxItems: 2,
    description:
      'A binary compound: cation and anion, e.g. ["Mg", "O"] (rocksalt), ["Ga", "As"] (zincblende), ["Cs", "Cl"] (cesiumchloride).',
  },
  bravais: {
    type: 'string',
    enum: ['fcc', 'bcc', 'diamond', 'hcp', 'sc', 'rocksalt', 'zincblende', 'cesiumchloride'],
    description:
      'The lattice of an element, or the prototype of a binary compound: rocksalt (B1), zincblende (B3), cesiumchloride (B2); with elements, default the prototype the tables know the formula in (MgO rocksalt, GaAs zincblende, CsCl cesiumchloride), else it must be given.',
  },
  latticeConstantAngstrom: { type: 'number', exclusiveMinimum: 0, maximum: 20, description: 'Lattice constant a, Å.' },
  cOverA: { type: 'number', exclusiveMinimum: 0 },
  structure: {
    ...STRUCTURE_FILE_SCHEMA,
    description:
      'The crystal from a structure file: { file: X.cif } (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF), relative to the objective file; its cell as given.',
  },
} as const;

/** The shared settings fragment, and the everyday templates' smearing and spin. */
export const SETTINGS_SCHEMA = {
  ...SWEPT_SETTINGS_SCHEMA,
  smearing: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: ['mv', 'mp', 'gaussian', 'fd'] },
      degaussRy: { type: 'number', exclusiveMinimum: 0, maximum: 0.1 },
    },
    additionalProperties: false,
    description: 'Smeared occupations in every run (default mv, 0.02 Ry): energies of metals and insulators compare only at one smearing.',
  },
  startingMagnetization: {
    type: 'object',
    additionalProperties: { type: 'number', minimum: -1, maximum: 1 },
    description: 'Starting magnetization per species of a spin-polarised study (default 0.5 on Cr, Mn, Fe, Co, Ni, Gd and on O of O2).',
  },
  spinPolarized: { type: 'boolean', description: 'Run every calculation with nspin = 2 (default: when a species is magnetic).' },
} as const;

export interface Crystal {
  /** How it is built: from a named lattice, or read from a file. */
  kind: 'named' | 'file';
  species: string[];
  /** Every atom's element, in order, when known at plan time. */
  symbols?: string[];
  bravais?: Bravais;
  elements?: string[];
  latticeConstantAngstrom?: number;
  cOverA?: number;
  file?: StructureFileInput;
  /** "fcc Al", "MgO (rocksalt)", "the crystal of Si-displaced.extxyz". */
  name: string;
}

/** The settings every band-structure and DOS study has too (sweptSettings.ts), and the everyday templates' smearing and spin. */
export interface StudySettings extends SweptSettings {
  /** A study that reports moments: each sweep run also within this change of the magnetization per atom of the finest, μB. */
  toleranceMomentMuBPerAtom?: number;
  /**
   * A study whose result follows the forces (a relaxation): each sweep run also within this difference of any force
   * component against the finest run, eV/Å.
   */
  toleranceForceEvPerAngstrom?: number;
  smearing: { kind: string; degaussRy: number };
  spinPolarized: boolean;
  startingMagnetization: Record<string, number>;
}

/** Rocksalt compounds' lattice constants, Å (room temperature; CRC Handbook): a starting point, never a result. */
export const ROCKSALT_A: Readonly<Record<string, number>> = {
  MgO: 4.212,
  NaCl: 5.64,
  LiF: 4.027,
  KCl: 6.293,
  CaO: 4.811,
  NiO: 4.177,
  MnO: 4.445,
  FeO: 4.307,
  NaF: 4.634,
  LiCl: 5.13,
};

/** Zincblende (B3) and cesium-chloride (B2) compounds' lattice constants, Å (room temperature; CRC Handbook): a starting point, never a result. */
export const ZINCBLENDE_A: Readonly<Record<string, number>> = {
  GaAs: 5.653,
  GaP: 5.451,
  InAs: 6.058,
  InP: 5.869,
  AlAs: 5.661,
  ZnS: 5.41,
  ZnSe: 5.668,
  CdTe: 6.481,
  SiC: 4.36,
  BN: 3.615,
};
export const CESIUMCHLORIDE_A: Readonly<Record<string, number>> = { CsCl: 4.123, CsBr: 4.296, CsI: 4.567, NiAl: 2.887 };
const COMPOUND_A: Partial<Record<Bravais, Readonly<Record<string, number>>>> = {
  rocksalt: ROCKSALT_A,
  zincblende: ZINCBLENDE_A,
  cesiumchloride: CESIUMCHLORIDE_A,
};

const ATOMS_PER_PRIMITIVE: Record<Bravais, number> = {
  fcc: 1,
  bcc: 1,
  sc: 1,
  diamond: 2,
  hcp: 2,
  rocksalt: 2,
  zincblende: 2,
  cesiumchloride: 2,
};
const ATOMS_PER_CONVENTIONAL: Record<Bravais, number> = {
  fcc: 4,
  bcc: 2,
  sc: 1,
  diamond: 8,
  hcp: 2,
  rocksalt: 8,
  zincblende: 8,
  cesiumchloride: 2,
};

/** Whether a named crystal is a binary compound (cation, anion): rocksalt, zincblende, cesiumchloride. */
export const isBinary = (bravais: Bravais | undefined): boolean => bravais !== undefined && bravais in BINARY_EXAMPLE;

/** The symbols of a named crystal's cell, as build_bulk makes it (a binary compound: cation, anion alternate). */
export function namedSymbols(bravais: Bravais, species: string[], cubic = false): string[] {
  const n = (cubic ? ATOMS_PER_CONVENTIONAL : ATOMS_PER_PRIMITIVE)[bravais];
  return isBinary(bravais) ? Array.from({ length: n }, (_, i) => species[i % 2]!) : Array(n).fill(species[0]!);
}

/** Objective loading: read `structure: { file }` (relative to the objective file). */
export function loadCrystalFile<T extends { structure?: unknown }>(inputs: T, baseDir: string): T {
  if (!isStructureFileInput(inputs.structure)) return inputs;
  return { ...inputs, structure: loadStructureFileInput(inputs.structure, baseDir, 'inputs.structure') };
}

/** The crystal fields of an objective, as CRYSTAL_SCHEMA admits them (a structure file read when the objective was loaded). */
export type CrystalInputs = InputsOf<{ type: 'object'; properties: typeof CRYSTAL_SCHEMA }>;

/** The crystal the inputs name, or an ObjectiveError saying what to write. */
export function resolveCrystal(raw: CrystalInputs, what: string, cubic = false): Crystal {
  if (raw.structure) {
    const file = loadedStructureFile(raw.structure, 'inputs.structure');
    if (!file.structure.pbc.every(Boolean)) {
      throw new ObjectiveError(
        `inputs.structure.file: ${file.name} is not periodic in three directions (a slab or molecule); ${what} needs a bulk cell (a molecule can be computed in a box: write its cell).`,
      );
    }
    return {
      kind: 'file',
      species: [...new Set(file.structure.symbols)],
      symbols: file.structure.symbols,
      file,
      name: `the crystal of ${file.name}`,
    };
  }
  const elements = raw.elements;
  const element = raw.element ?? elements?.[0];
  if (!element)
    throw new ObjectiveError(`inputs.element: name the element (e.g. "Fe"), or give the crystal as structure: { file: X.cif }.`);
  const table = ELEMENT_CRYSTALS[element];
  const bravais = raw.bravais ?? (elements ? binaryPrototypeNamedIn('', elements) : table?.structure);
  if (elements && !bravais)
    throw new ObjectiveError(
      `inputs.bravais: ${elements.join('')} is not in the tables of binary compounds; name its prototype (rocksalt, zincblende or cesiumchloride) with its lattice constant, or give the crystal as structure: { file: ${elements.join('')}.cif } (e.g. a wurtzite or any other structure).`,
    );
  const a =
    raw.latticeConstantAngstrom ??
    (isBinary(bravais) ? COMPOUND_A[bravais!]![(elements ?? []).join('')] : bravais === table?.structure ? table?.a : undefined);
  if (!bravais || a === undefined) {
    throw new ObjectiveError(
      `inputs.bravais and inputs.latticeConstantAngstrom: ${element} is not in the table of ground-state crystals (${Object.keys(ELEMENT_CRYSTALS).join(', ')}); give its lattice and lattice constant.`,
    );
  }
  if (isBinary(bravais) && elements?.length !== 2)
    throw new ObjectiveError(`inputs.elements: ${bravais} needs a cation and an anion, e.g. ${BINARY_EXAMPLE[bravais]}.`);
  const species = isBinary(bravais) ? elements! : [element];
  const cOverA = raw.cOverA ?? (bravais === 'hcp' ? (table?.cOverA ?? Math.sqrt(8 / 3)) : undefined);
  return {
    kind: 'named',
    species,
    symbols: namedSymbols(bravais, species, cubic),
    bravais,
    ...(isBinary(bravais) ? { elements } : {}),
    latticeConstantAngstrom: a,
    ...(cOverA !== undefined ? { cOverA } : {}),
    name: isBinary(bravais) ? `${species.join('')} (${bravais})` : `${bravais} ${element}`,
  };
}

/** The build_bulk step of a crystal: read as given from its file, or built (the cubic cell when asked). */
export function crystalStep(id: string, c: Crystal, why: string, cubic = false): TemplateStep {
  if (c.kind === 'file') {
    return {
      id,
      title: `Read ${c.file!.name}`,
      worker: 'dft',
      tool: 'build_bulk',
      args: { from: c.file!.file, sha256: c.file!.sha256, cell: 'as-given', ...symprecArgs(c.file!).args },
      reasons: {
        ...symprecArgs(c.file!).reasons,
        from: `the user's structure file (${c.file!.name}): ${why}`,
        sha256: 'the sha256 recorded when the objective was read: refused if the file changed since',
        cell: 'the cell and positions as the file gives them',
      },
    };
  }
  return {
    id,
    title: `Build ${c.name} (a = ${c.latticeConstantAngstrom} Å${cubic ? ', cubic cell' : ''})`,
    worker: 'dft',
    tool: 'build_bulk',
    args: {
      elements: isBinary(c.bravais) ? c.elements : [c.species[0]],
      bravais: c.bravais,
      latticeConstantAngstrom: c.latticeConstantAngstrom,
      ...(c.cOverA ? { cOverA: c.cOverA } : {}),
      ...(cubic ? { cubic: true } : {}),
    },
    reasons: {
      elements: 'the species of the crystal',
      bravais: `${c.name}: ${why}`,
      latticeConstantAngstrom: 'the starting lattice constant (the experimental one unless given)',
      ...(c.cOverA ? { cOverA: 'the c/a of the crystal' } : {}),
      ...(cubic ? { cubic: 'the conventional cubic cell, which holds both sublattices of an antiferromagnet' } : {}),
    },
  };
}

/** The settings fields of an everyday objective, as SETTINGS_SCHEMA admits them. */
export type StudySettingsInputs = InputsOf<{ type: 'object'; properties: typeof SETTINGS_SCHEMA }>;

/** Settings after defaults (sweptSettings.ts: the dual from the pseudopotentials' type); smeared occupations, spin where a species is magnetic. */
export function resolveSettings(
  inputs: StudySettingsInputs,
  species: string[],
  env: WorkflowEnvironment,
  spinSpecies: string[] = species,
): StudySettings {
  // the cutoff sweep starts at the files' suggestion (a production input below it is refused by the
  // guard's cutoff-above-pseudopotential-suggestion, so a sweep point below it is spent for nothing);
  // four values, as the lattice-constant workflow's, and an unconverged sweep is extended one at a time
  const swept = resolveSweptSettings(inputs, species, env, {
    cutoffsRy: 'from-suggestion',
    suggestionSteps: 4,
    kSpacingsPerAngstrom: [0.4, 0.3, 0.25, 0.2],
  });
  const smearing = { kind: inputs.smearing?.kind ?? 'mv', degaussRy: inputs.smearing?.degaussRy ?? 0.02 };
  const magnetic = spinSpecies.filter((s) => MAGNETIC_SPECIES.has(s));
  const given = inputs.startingMagnetization;
  const spinPolarized = inputs.spinPolarized ?? (magnetic.length > 0 || (given !== undefined && Object.keys(given).length > 0));
  const startingMagnetization =
    given ?? Object.fromEntries((magnetic.length ? magnetic : species).map((s) => [s, magnetic.length ? 0.5 : 0]));
  return { ...swept, smearing, spinPolarized, startingMagnetization };
}

export function pseudopotentialsStep(s: StudySettings, species: string[]): TemplateStep {
  const prefer = s.pseudopotentials && Object.keys(s.pseudopotentials).length ? { prefer: s.pseudopotentials } : {};
  return {
    id: 'pseudopotentials',
    title: `Choose the ${s.functional} pseudopotentials for ${species.join(', ')}`,
    worker: 'dft',
    tool: 'select_pseudopotentials',
    args: { elements: species, functional: s.functional, ...prefer },
    reasons: {
      elements: 'every species of the study',
      functional: `the study asks for ${s.functional === 'PZ' ? 'LDA (PZ)' : s.functional}`,
      ...(prefer.prefer ? { prefer: 'the files named with the objective' } : {}),
    },
  };
}

/** The electronic arguments every input of the study shares (smearing and spin); `start` overrides the starting magnetization of one input. */
export function electronicArgs(
  s: StudySettings,
  start?: Record<string, number>,
): { args: Record<string, unknown>; reasons: Record<string, string> } {
  const magnetization = start ?? s.startingMagnetization;
  return {
    args: {
      occupations: 'smearing',
      smearing: s.smearing.kind,
      degaussRy: s.smearing.degaussRy,
      nspin: s.spinPolarized ? 2 : 1,
      ...(s.spinPolarized ? { startingMagnetization: magnetization } : {}),
    },
    reasons: {
      occupations: 'smeared occupations in every run: metals need them, and energies of different systems compare only at one smearing',
      smearing: `${s.smearing.kind} smearing in every run`,
      degaussRy: `${s.smearing.degaussRy} Ry in every run, so the energies compare`,
      nspin: s.spinPolarized
        ? 'spin-polarised in every run, so the energies compare and magnetic species keep their moments'
        : 'no magnetic species: no spin polarization',
      ...(s.spinPolarized
        ? { startingMagnetization: `starting moments ${JSON.stringify(magnetization)}: a magnetic state to converge to` }
        : {}),
    },
  };
}

/**
 * The cutoff and k-spacing: given, or a cutoff sweep (at the middle spacing of the k sweep, on
 * `structure`) then a k sweep at the chosen cutoff, each chosen by select_converged_settings.
 * Returns the steps and the hints the production inputs take.
 */
export function settingsSteps(
  s: StudySettings,
  structure: string,
  structureStep: string,
  electronic = electronicArgs(s),
): {
  steps: TemplateStep[];
  cut: unknown;
  rho: unknown;
  k: unknown;
  reasons: Record<string, string>;
  after: string[];
  quantities: string[];
} {
  const steps: TemplateStep[] = [];
  const within = toleranceWords(s);
  const sweepK = s.kSpacingPerAngstrom ?? s.kSpacingsPerAngstrom[Math.floor(s.kSpacingsPerAngstrom.length / 2)]!;
  const template = { structure, pseudopotentials: PSEUDOS, purpose: 'convergence-test', calculation: 'scf', ...electronic.args };
  const reasons: Record<string, string> = {
    ecutwfcRy: `${s.ecutwfcRy} Ry, the cutoff given with the objective`,
    ecutrhoRy: `${s.dual} × ecutwfc for these pseudopotentials`,
    kSpacingPerAngstrom: `${s.kSpacingPerAngstrom} 1/Å, the k-spacing given with the objective`,
  };
  let cut: unknown = s.ecutwfcRy;
  let rho: unknown = s.ecutwfcRy !== undefined ? Number((s.dual * s.ecutwfcRy).toFixed(6)) : undefined;
  let k: unknown = s.kSpacingPerAngstrom;
  const sweep = (
    id: string,
    title: string,
    args: Record<string, unknown>,
    why: Record<string, string>,
    kind: 'ecutwfc' | 'kspacing',
    values: number[],
    dependsOn: string[],
  ): void => {
    const purpose = `the template of the ${kind === 'ecutwfc' ? 'cutoff' : 'k'} sweep`;
    steps.push(
      {
        id: `${id}-input`,
        title,
        worker: 'dft',
        tool: 'make_pw_input',
        args,
        reasons: {
          structure: 'the crystal of the study',
          pseudopotentials: 'the chosen pseudopotentials',
          purpose,
          calculation: 'single points',
          ...electronic.reasons,
          ...why,
        },
        dependsOn,
      },
      {
        id: `${id}-series`,
        title: `${kind === 'ecutwfc' ? 'Cutoff' : 'k-spacing'} series ${values.join(', ')} ${kind === 'ecutwfc' ? 'Ry' : '1/Å'}`,
        worker: 'dft',
        tool: 'generate_series',
        args: { template: `$step.${id}-input.pw_input`, kind, values },
        reasons: {
          template: 'the sweep template',
          kind: kind === 'ecutwfc' ? 'a cutoff sweep' : 'a k-point sweep',
          values:
            kind === 'ecutwfc' && s.cutoffsFromSuggestionRy !== undefined
              ? `from the ${Number(s.cutoffsFromSuggestionRy.toFixed(1))} Ry the pseudopotentials suggest upward in 10-Ry steps (a production input below the suggestion is refused)`
              : 'the values of the study, coarse to fine',
        },
        dependsOn: [`${id}-input`],
      },
      {
        id: `${id}-runs`,
        title: `Run the ${kind === 'ecutwfc' ? 'cutoff' : 'k'} series`,
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: `$each.${id}-series.pw_input` },
        reasons: { input: 'each input of the series' },
        dependsOn: [`${id}-series`],
      },
      {
        id: `${id}-choice`,
        title: `Choose the ${kind === 'ecutwfc' ? 'cheapest cutoff' : 'coarsest k-spacing'} within ${within}`,
        worker: 'dft',
        tool: 'select_converged_settings',
        args: {
          parameter: kind,
          energies: `$all.${id}-runs.total_energy`,
          criterion: 'energy',
          toleranceMevPerAtom: s.toleranceMevPerAtom,
          ...(s.toleranceMomentMuBPerAtom !== undefined ? { toleranceMomentMuBPerAtom: s.toleranceMomentMuBPerAtom } : {}),
          ...(s.toleranceForceEvPerAngstrom !== undefined ? { toleranceForceEvPerAngstrom: s.toleranceForceEvPerAngstrom } : {}),
          ...(s.extensionBudgetSeconds !== undefined ? { extensionBudgetSeconds: s.extensionBudgetSeconds } : {}),
        },
        reasons: {
          parameter: 'the sweep',
          energies: 'every energy of the sweep',
          criterion:
            s.toleranceForceEvPerAngstrom !== undefined
              ? 'each run against the finest by its energy per atom, and by its forces (toleranceForceEvPerAngstrom), which the geometry follows'
              : 'an energy difference depends on the energies: each run against the finest by its energy per atom',
          toleranceMevPerAtom: `${s.toleranceMevPerAtom} meV/atom against the finest run`,
          ...(s.extensionBudgetSeconds !== undefined
            ? {
                extensionBudgetSeconds: `an extension run predicted to take more than ${s.extensionBudgetSeconds} s of pw.x is not started without asking`,
              }
            : {}),
          ...(s.toleranceMomentMuBPerAtom !== undefined
            ? {
                toleranceMomentMuBPerAtom: `the moments are the result: each run within ${s.toleranceMomentMuBPerAtom} μB/atom of the finest run's magnetization (pw.x prints it to 0.01 μB per cell)`,
              }
            : {}),
          ...(s.toleranceForceEvPerAngstrom !== undefined
            ? {
                toleranceForceEvPerAngstrom: `the relaxed geometry follows the forces: each run within ${s.toleranceForceEvPerAngstrom} eV/Å of the finest run in every force component`,
              }
            : {}),
        },
        dependsOn: [`${id}-runs`],
      },
    );
  };
  if (cut === undefined) {
    const top = Math.max(...s.cutoffsRy);
    sweep(
      'cutoff',
      `Cutoff sweep template at ${top} Ry, k-spacing ${sweepK} 1/Å`,
      { ...template, ecutwfcRy: top, ecutrhoRy: Number((s.dual * top).toFixed(6)), kSpacingPerAngstrom: sweepK },
      {
        ecutwfcRy: 'the highest cutoff of the sweep',
        ecutrhoRy: `${s.dual} × ecutwfc`,
        kSpacingPerAngstrom: `a spacing the k sweep tests (${sweepK} 1/Å): its error cancels between cutoffs`,
      },
      'ecutwfc',
      s.cutoffsRy,
      [structureStep, 'pseudopotentials'],
    );
    cut = CUT;
    rho = RHO;
    reasons.ecutwfcRy = 'the converged cutoff';
    reasons.ecutrhoRy = 'the charge-density cutoff that goes with it';
  }
  if (k === undefined) {
    sweep(
      'k',
      'k-sweep template at the cutoff',
      { ...template, ecutwfcRy: cut, ecutrhoRy: rho, kSpacingPerAngstrom: sweepK },
      { ecutwfcRy: reasons.ecutwfcRy!, ecutrhoRy: reasons.ecutrhoRy!, kSpacingPerAngstrom: 'the series varies it' },
      'kspacing',
      s.kSpacingsPerAngstrom,
      s.ecutwfcRy === undefined ? ['cutoff-choice'] : [structureStep, 'pseudopotentials'],
    );
    k = KSPACING;
    reasons.kSpacingPerAngstrom = 'the converged k-spacing';
  }
  return {
    steps,
    cut,
    rho,
    k,
    reasons,
    after: steps.length ? [steps.at(-1)!.id] : [structureStep, 'pseudopotentials'],
    quantities: [
      ...(s.ecutwfcRy === undefined ? ['converged_cutoff'] : []),
      ...(s.kSpacingPerAngstrom === undefined ? ['converged_kspacing'] : []),
    ],
  };
}

/** The converged-settings claims and a sentence, for a report composer. */
/** The settings sentence of a study whose cutoff and k-spacing may have been chosen by its cutoff-choice and k-choice steps. */
export function sweptSettingsSentence(
  s: StudySettings,
  ctx: Pick<Parameters<Composer>[0], 'ref' | 'value'>,
): ReturnType<typeof settingsSentence> {
  const cut = ctx.ref('cutoff-choice', 'converged_settings');
  const k = ctx.ref('k-choice', 'converged_settings');
  return settingsSentence(s, { ...(cut ? { cut } : {}), ...(k ? { k } : {}) }, (r) => ctx.value(r));
}

export function settingsSentence(
  s: StudySettings,
  refs: { cut?: string; k?: string },
  value: (r: string) => unknown,
): { text: string; claims: { quantity: string; value: number; unit: string; cites: string; statement: string }[] } {
  const claims = [];
  const parts: string[] = [];
  if (refs.cut) {
    const v = value(refs.cut) as { chosen: { ecutwfcRy: number } };
    claims.push({
      quantity: 'converged_cutoff',
      value: v.chosen.ecutwfcRy,
      unit: 'Ry',
      cites: `${refs.cut}.chosen.ecutwfcRy`,
      statement: `ecutwfc = ${v.chosen.ecutwfcRy} Ry`,
    });
    parts.push(`ecutwfc ${v.chosen.ecutwfcRy} Ry chosen within ${toleranceWords(s)} (${refs.cut})`);
  } else parts.push(`ecutwfc ${s.ecutwfcRy} Ry as given`);
  if (refs.k) {
    const v = value(refs.k) as { chosen: { kSpacingPerAngstrom: number } };
    claims.push({
      quantity: 'converged_kspacing',
      value: v.chosen.kSpacingPerAngstrom,
      unit: '1/Å',
      cites: `${refs.k}.chosen.kSpacingPerAngstrom`,
      statement: `k-spacing = ${v.chosen.kSpacingPerAngstrom} 1/Å`,
    });
    parts.push(`k-spacing ${v.chosen.kSpacingPerAngstrom} 1/Å chosen within ${toleranceWords(s)} (${refs.k})`);
  } else parts.push(`k-spacing ${s.kSpacingPerAngstrom} 1/Å as given`);
  return {
    text: `Settings: ${s.functional}, ${parts.join('; ')}; ${s.smearing.kind} smearing ${s.smearing.degaussRy} Ry${s.spinPolarized ? `, spin-polarised (starting moments ${JSON.stringify(s.startingMagnetization)})` : ''}.`,
    claims,
  };
}

/** The sweeps' tolerances in words: "1 meV/atom", "5 meV/atom and 0.02 μB/atom", "5 meV/atom and 0.005 eV/Å in the forces". */
function toleranceWords(s: StudySettings): string {
  return (
    `${s.toleranceMevPerAtom} meV/atom${s.toleranceMomentMuBPerAtom !== undefined ? ` and ${s.toleranceMomentMuBPerAtom} μB/atom` : ''}` +
    `${s.toleranceForceEvPerAngstrom !== undefined ? ` and ${s.toleranceForceEvPerAngstrom} eV/Å in the forces` : ''}`
  );
}

/** The report step every template ends with. */
export function reportStep(title: string, quantities: string[], dependsOn: string[]): TemplateStep {
  return {
    id: 'report',
    title,
    worker: 'dft',
    tool: 'write_report',
    args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
    reasons: {
      title: 'names the study',
      text: 'the results with the settings behind them',
      claims: 'one claim per reported number, each citing its artifact',
    },
    reportQuantities: quantities,
    dependsOn,
  };
}

export const need = (ctx: { ref(step: string, name: string): string | undefined }, step: string, name: string): string => {
  const r = ctx.ref(step, name);
  if (!r) throw new Error(`the report needs the ${name} of step ${step}, which the run has not made yet; run that step first.`);
  return r;
};

export const shown = (x: number, digits = 4): string => String(Number(x.toPrecision(digits)));

/** Capitalised English words that are also element symbols: not read as elements in a sentence. */
const WORDS = new Set(['I', 'In', 'As', 'At', 'Be', 'He', 'No', 'Am', 'Es', 'Po', 'Pa']);

/** The prototype a sentence names by word (zincblende, rocksalt, ...) or the tables know the formula in; undefined when neither. */
export function binaryPrototypeNamedIn(text: string, species: string[]): Bravais | undefined {
  if (/zinc[- ]?blende|sphalerite|\bB3\b/i.test(text)) return 'zincblende';
  if (/\bca?esium[- ]chloride|\bCsCl[- ](?:structure|type)|\bB2\b/i.test(text)) return 'cesiumchloride';
  if (/rock[- ]?salt|\bB1\b/i.test(text)) return 'rocksalt';
  const formula = species.join('');
  return formula in ZINCBLENDE_A
    ? 'zincblende'
    : formula in CESIUMCHLORIDE_A
      ? 'cesiumchloride'
      : formula in ROCKSALT_A
        ? 'rocksalt'
        : undefined;
}

/**
 * A binary formula written as one word of two element symbols (GaAs, NaCl, SiC, CsCl), file names aside.
 * A word of two one-letter symbols in capitals (NC, US, SI, PW, NO, HF) is far more often an abbreviation
 * ("NC pseudopotentials", "SI units") than a compound: it is read as one only when the tables know the
 * formula (BN) or the sentence names a prototype for it ("zincblende BP").
 */
export function binaryFormulaIn(text: string): string[] | undefined {
  for (const word of text.replace(/[\w.+-]+\.upf\b/gi, ' ').match(/\b[A-Z][a-z]?[A-Z][a-z]?\b/g) ?? []) {
    const species = elementsInText(word);
    if (species.length !== 2) continue;
    if (/^[A-Z]{2}$/.test(word) && !binaryPrototypeNamedIn(text, species)) continue;
    return species;
  }
  return undefined;
}

/** Not a length: a number followed by a reciprocal length (0.2 Å⁻¹, 0.2 Å^-1, 0.2 Å-1); ANY_LENGTH also skips one after a "/". */
const NOT_RECIPROCAL = String.raw`(?!\s*(?:⁻¹|\^?\s*-\s*1\b|\^\s*\(?-1))`;
const STATED_A0 = new RegExp(
  String.raw`(?:\ba0?\b|\ba_0\b|start(?:ing)?(?: at| from)?|initial(?: guess)?|guess)\s*(?:=|:|of|at|from)?\s*(\d+(?:\.\d+)?)\s*(?:Å|A\b|Ang|angstrom)` +
    NOT_RECIPROCAL,
  'i',
);
const ANY_LENGTH = new RegExp(String.raw`(?<![\d.]\s*/\s*)(\d+\.\d+)\s*(?:Å|Ang\b|angstrom)` + NOT_RECIPROCAL, 'i');

/**
 * The starting lattice constant a sentence states (a0 = 4.05 Å, starting at 5.65 Å, 4.05 Å); a k-spacing
 * in reciprocal length ("0.2 Å⁻¹", "0.15 1/Å") is not one.
 */
export function statedLatticeConstant(text: string): number | undefined {
  const a0 = STATED_A0.exec(text) ?? ANY_LENGTH.exec(text);
  return a0 ? Number(a0[1]) : undefined;
}

/** The tabulated room-temperature lattice constant (Å) of a binary compound in a prototype, if the tables have it: a starting point only. */
export const compoundLatticeConstant = (bravais: Bravais, species: string[]): number | undefined => COMPOUND_A[bravais]?.[species.join('')];

/** The element symbols a sentence names, in order ("formation energy of MgO" → Mg, O; "relax Si" → Si). */
export function elementsInText(text: string): string[] {
  const out: string[] = [];
  for (const token of text.match(/\b(?:[A-Z][a-z]?\d*)+\b/g) ?? []) {
    const parts = token.match(/[A-Z][a-z]?/g) ?? [];
    if (parts.length === 1 && WORDS.has(parts[0]!)) continue;
    if (parts.join('') !== token.replace(/\d/g, '') || !parts.every((p) => isElementSymbol(p))) continue;
    for (const p of parts) if (!out.includes(p)) out.push(p);
  }
  return out;
}
