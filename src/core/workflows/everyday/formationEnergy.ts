/**
 * The formation-energy template: a compound and each of its elements in its ground state (hcp Mg,
 * O2 as a triplet molecule in a box, bcc Fe ferromagnetic ...), every energy at one set of
 * settings (spin-polarised throughout when any reference is magnetic), each relaxed (vc-relax for
 * crystals, relax for molecules) unless the objective says not, and
 *   ΔH_f = [E(compound) − Σ_X n_X E(X reference)/m_X] / N
 * per formula unit and per atom, with the coefficients from the atoms of each cell. Energies in eV.
 */
import { claimValue, type ReportClaim } from '../../guard/claimChecks';
import type { EnergyDifferenceValue } from '../../artifacts/relaxation';
import { GROUND_STATES } from '../../dft/elementalReferences';
import { defineWorkflow, type ComposeContextOf, type InputsOf } from '../defineWorkflow';
import { ELEMENT_CRYSTALS, type Bravais } from '../electronicStructure/inputs';
import {
  isStructureFileInput,
  loadedStructureFile,
  loadStructureFileInput,
  structureFileNamedIn,
  type StructureFileInput,
} from '../structureFileInput';
import { ObjectiveError, type TemplateStep, type WorkflowEnvironment } from '../types';
import {
  binaryFormulaIn,
  binaryPrototypeNamedIn,
  CRYSTAL_SCHEMA,
  crystalStep,
  electronicArgs,
  elementsInText,
  isBinary,
  loadCrystalFile,
  namedSymbols,
  need,
  PSEUDOS,
  pseudopotentialsStep,
  reportStep,
  resolveCrystal,
  resolveSettings,
  sweptSettingsSentence,
  settingsSteps,
  SETTINGS_SCHEMA,
  shown,
  statedLatticeConstant,
  type Crystal,
  type StudySettings,
} from './common';

interface Reference {
  element: string;
  kind: 'crystal' | 'molecule' | 'file';
  bravais?: Bravais;
  latticeConstantAngstrom?: number;
  cOverA?: number;
  molecule?: string;
  boxAngstrom?: number;
  file?: StructureFileInput;
  /** Atoms of the element in the reference cell. */
  atoms: number;
  /** −(atoms in the compound cell) / (atoms in the reference cell). */
  coefficient: number;
  /** Starting magnetization of its run (a magnetic ground state, or a triplet O2). */
  start: number;
  phase: string;
}

export interface FormationInputs {
  compound: Crystal;
  references: Reference[];
  settings: StudySettings;
  relax: boolean;
  formulaUnits: number;
  natoms: number;
  formula: string;
  forceThresholdEvPerAngstrom: number;
  pressureThresholdKbar: number;
}

const COMPOUND = '$step.compound.bulk_structure';
const DIATOMIC = new Set(['H', 'N', 'O']);
const MAGNETIC_REFERENCES: Record<string, number> = { Fe: 0.5, Co: 0.5, Ni: 0.5, O: 0.5 };

const REFERENCE_SCHEMA = {
  type: 'object',
  properties: {
    bravais: { type: 'string', enum: ['fcc', 'bcc', 'diamond', 'hcp', 'sc'] },
    latticeConstantAngstrom: { type: 'number', exclusiveMinimum: 0, maximum: 20 },
    cOverA: { type: 'number', exclusiveMinimum: 0 },
    molecule: { type: 'string', enum: ['H2', 'N2', 'O2'] },
    boxAngstrom: { type: 'number', minimum: 5, maximum: 30 },
    file: { type: 'string', minLength: 1 },
    name: { type: 'string' },
    sha256: { type: 'string' },
    format: { type: 'string' },
    structure: { type: 'object' },
  },
  additionalProperties: false,
} as const;

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    ...CRYSTAL_SCHEMA,
    ...SETTINGS_SCHEMA,
    references: {
      type: 'object',
      additionalProperties: REFERENCE_SCHEMA,
      description:
        'Per element, its reference when not the default ground state: { bravais, latticeConstantAngstrom }, { molecule: O2, boxAngstrom }, or { file }.',
    },
    relax: {
      type: 'boolean',
      description: 'Relax every structure at the settings (vc-relax for crystals, relax for molecules; default true).',
    },
    forceThresholdEvPerAngstrom: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 0.5,
      description: 'Relaxations: force threshold, eV/Å (default 0.01).',
    },
    pressureThresholdKbar: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 50,
      description: 'vc-relax: stress threshold, kbar (default 0.5).',
    },
  },
  additionalProperties: false,
} as const;

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** An element's reference as the objective gives it. */
type GivenReference = InputsOf<typeof REFERENCE_SCHEMA>;

function referenceOf(el: string, given: GivenReference | undefined, inCompound: number, baseDir: string): Reference {
  const g = GROUND_STATES[el];
  const start = MAGNETIC_REFERENCES[el] ?? 0;
  if (given?.file) {
    // a file read when the objective was loaded (loadFiles); given from outside, read now (its sha256, if given, checked)
    const file = loadedStructureFile(given as GivenReference & { file: string }, `inputs.references.${el}`, baseDir);
    const atoms = file.structure.symbols.filter((s) => s === el).length;
    if (atoms !== file.structure.symbols.length)
      throw new ObjectiveError(
        `inputs.references.${el}.file: ${file.name} holds other elements; an elemental reference holds ${el} alone.`,
      );
    return { element: el, kind: 'file', file, atoms, coefficient: -inCompound / atoms, start, phase: `from ${file.name}` };
  }
  const molecule = given?.molecule ?? (!given?.bravais && DIATOMIC.has(el) ? `${el}2` : undefined);
  if (molecule) {
    return {
      element: el,
      kind: 'molecule',
      molecule,
      boxAngstrom: given?.boxAngstrom ?? 10,
      atoms: 2,
      coefficient: -inCompound / 2,
      start,
      phase: g?.phase ? `${molecule}, ${g.phase}` : molecule,
    };
  }
  const table = ELEMENT_CRYSTALS[el];
  const bravais = given?.bravais ?? table?.structure;
  const a = given?.latticeConstantAngstrom ?? (bravais === table?.structure ? table?.a : undefined);
  if (!bravais || a === undefined) {
    throw new ObjectiveError(
      `inputs.references.${el}: no ground-state crystal of ${el} is on record here; give { bravais, latticeConstantAngstrom } or { file } for its reference.`,
    );
  }
  if (isBinary(bravais))
    throw new ObjectiveError(
      `inputs.references.${el}.bravais: ${bravais} is a prototype of two species; an elemental reference is one element's lattice (fcc, bcc, hcp, diamond, sc) or { file }.`,
    );
  const cOverA = given?.cOverA ?? (bravais === 'hcp' ? (table?.cOverA ?? Math.sqrt(8 / 3)) : undefined);
  const atoms = namedSymbols(bravais, [el]).length;
  return {
    element: el,
    kind: 'crystal',
    bravais,
    latticeConstantAngstrom: a,
    ...(cOverA ? { cOverA } : {}),
    atoms,
    coefficient: -inCompound / atoms,
    start,
    phase: `${bravais}${g?.magnetic ? `, ${g.magnetic}` : ''}`,
  };
}

function resolve(inputs: InputsOf<typeof INPUT_SCHEMA>, env: WorkflowEnvironment): FormationInputs {
  const compound = resolveCrystal(inputs, 'a formation energy');
  if (compound.species.length < 2)
    throw new ObjectiveError(
      `inputs: ${compound.name} holds one element; a formation energy is of a compound (give elements or a structure file).`,
    );
  const symbols = compound.symbols!;
  const counts = Object.fromEntries(compound.species.map((el) => [el, symbols.filter((s) => s === el).length]));
  const z = Object.values(counts).reduce(gcd, 0);
  const given = inputs.references ?? {};
  for (const el of Object.keys(given))
    if (!compound.species.includes(el))
      throw new ObjectiveError(`inputs.references.${el}: ${compound.name} holds no ${el}; its species are ${compound.species.join(', ')}.`);
  const references = compound.species.map((el) => referenceOf(el, given[el], counts[el]!, process.cwd()));
  const base = resolveSettings(inputs, compound.species, env);
  const magnetic = references.some((r) => r.start !== 0);
  const startingMagnetization = inputs.startingMagnetization ?? Object.fromEntries(compound.species.map((el) => [el, 0]));
  const settings: StudySettings = {
    ...base,
    spinPolarized: inputs.spinPolarized ?? (magnetic || base.spinPolarized),
    startingMagnetization,
  };
  return {
    compound,
    references,
    settings,
    relax: inputs.relax ?? true,
    formulaUnits: z,
    natoms: symbols.length,
    formula: Object.entries(counts)
      .map(([el, n]) => `${el}${n / z > 1 ? n / z : ''}`)
      .join(''),
    forceThresholdEvPerAngstrom: inputs.forceThresholdEvPerAngstrom ?? 0.01,
    pressureThresholdKbar: inputs.pressureThresholdKbar ?? 0.5,
  };
}

/** Objective loading: the compound's file and any reference files, relative to the objective. */
function loadFiles(inputs: InputsOf<typeof INPUT_SCHEMA>, baseDir: string): InputsOf<typeof INPUT_SCHEMA> {
  const out = loadCrystalFile(inputs, baseDir);
  const refs = inputs.references;
  if (!refs) return out;
  return {
    ...out,
    references: Object.fromEntries(
      Object.entries(refs).map(([el, r]) => [
        el,
        isStructureFileInput(r) ? loadStructureFileInput(r, baseDir, `inputs.references.${el}`) : r,
      ]),
    ),
  };
}

function steps(i: FormationInputs): TemplateStep[] {
  const s = settingsSteps(i.settings, COMPOUND, 'compound', electronicArgs(i.settings));
  const relaxArgs = (crystal: boolean) =>
    i.relax
      ? {
          calculation: crystal ? 'vc-relax' : 'relax',
          forceThresholdEvPerAngstrom: i.forceThresholdEvPerAngstrom,
          ...(crystal ? { pressureThresholdKbar: i.pressureThresholdKbar } : {}),
        }
      : { calculation: 'scf' };
  const relaxReasons = (crystal: boolean): Record<string, string> =>
    i.relax
      ? {
          calculation: crystal ? 'the cell and atoms at their minimum at these settings' : "the molecule's bond at its minimum",
          forceThresholdEvPerAngstrom: `${i.forceThresholdEvPerAngstrom} eV/Å`,
          ...(crystal ? { pressureThresholdKbar: `${i.pressureThresholdKbar} kbar` } : {}),
        }
      : { calculation: 'single point at the given geometry (the objective asks for no relaxation)' };
  const out: TemplateStep[] = [
    crystalStep('compound', i.compound, 'the compound'),
    pseudopotentialsStep(i.settings, i.compound.species),
    ...s.steps,
    {
      id: 'compound-input',
      title: `${i.formula}: ${i.relax ? 'vc-relax' : 'SCF'} input`,
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: COMPOUND,
        pseudopotentials: PSEUDOS,
        purpose: 'production',
        ...relaxArgs(true),
        ...electronicArgs(i.settings).args,
        ecutwfcRy: s.cut,
        ecutrhoRy: s.rho,
        kSpacingPerAngstrom: s.k,
      },
      reasons: {
        structure: 'the compound',
        pseudopotentials: 'the chosen pseudopotentials',
        purpose: 'its energy enters the formation energy',
        ...relaxReasons(true),
        ...electronicArgs(i.settings).reasons,
        ...s.reasons,
      },
      dependsOn: s.after,
    },
    {
      id: 'compound-run',
      title: `Run ${i.formula}`,
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$step.compound-input.pw_input' },
      reasons: { input: 'the compound' },
      dependsOn: ['compound-input'],
    },
  ];
  for (const r of i.references) {
    const id = `ref-${r.element.toLowerCase()}`;
    const structureName = r.kind === 'molecule' ? 'molecule' : 'bulk_structure';
    out.push(
      r.kind === 'molecule'
        ? {
            id,
            title: `${r.molecule} in a ${r.boxAngstrom} Å box`,
            worker: 'dft',
            tool: 'build_molecule',
            args: { name: r.molecule, boxAngstrom: r.boxAngstrom },
            reasons: {
              name: `${r.element}'s ground state: ${r.phase}`,
              boxAngstrom: `${r.boxAngstrom} Å: periodic images do not interact`,
            },
          }
        : crystalStep(
            id,
            r.kind === 'file'
              ? { kind: 'file', species: [r.element], file: r.file!, name: r.file!.name }
              : {
                  kind: 'named',
                  species: [r.element],
                  bravais: r.bravais!,
                  latticeConstantAngstrom: r.latticeConstantAngstrom!,
                  ...(r.cOverA ? { cOverA: r.cOverA } : {}),
                  name: `${r.bravais} ${r.element}`,
                },
            `${r.element}'s ground state (${r.phase})`,
          ),
    );
    const e = electronicArgs(i.settings, { [r.element]: r.start });
    const k = r.kind === 'molecule' ? { kMesh: [1, 1, 1] } : { kSpacingPerAngstrom: s.k };
    out.push(
      {
        id: `${id}-input`,
        title: `${r.element} reference: ${i.relax ? (r.kind === 'molecule' ? 'relax' : 'vc-relax') : 'SCF'} input`,
        worker: 'dft',
        tool: 'make_pw_input',
        args: {
          structure: `$step.${id}.${structureName}`,
          pseudopotentials: PSEUDOS,
          purpose: 'production',
          ...relaxArgs(r.kind !== 'molecule'),
          ...e.args,
          ecutwfcRy: s.cut,
          ecutrhoRy: s.rho,
          ...k,
        },
        reasons: {
          structure: `${r.element} in its ground state (${r.phase})`,
          pseudopotentials: 'the chosen pseudopotentials',
          purpose: 'its energy enters the formation energy',
          ...relaxReasons(r.kind !== 'molecule'),
          ...e.reasons,
          ...s.reasons,
          ...(r.kind === 'molecule' ? { kMesh: 'a molecule in a box: Γ only' } : {}),
          ...(r.start
            ? { startingMagnetization: `${r.element}'s ground state is magnetic (${r.phase}): a starting moment of ${r.start}` }
            : {}),
        },
        dependsOn: [id, ...s.after],
      },
      {
        id: `${id}-run`,
        title: `Run the ${r.element} reference`,
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: `$step.${id}-input.pw_input` },
        reasons: { input: `the ${r.element} reference` },
        dependsOn: [`${id}-input`],
      },
    );
  }
  // a list takes "$all" hints: each run step makes one energy
  const energies = ['$all.compound-run.total_energy', ...i.references.map((r) => `$all.ref-${r.element.toLowerCase()}-run.total_energy`)];
  const coefficients = [1, ...i.references.map((r) => r.coefficient)];
  const deps = ['compound-run', ...i.references.map((r) => `ref-${r.element.toLowerCase()}-run`)];
  const why = {
    quantity: 'the compound against its elements in their ground states',
    energies: "the compound, then each element's reference",
    coefficients: `1 for the ${i.natoms}-atom compound cell, and for each element minus its atoms in the compound over those in its reference cell (${i.references.map((r) => `${r.element}: ${shown(r.coefficient, 6)}`).join(', ')})`,
  };
  out.push(
    {
      id: 'formation-per-formula-unit',
      title: `ΔH_f of ${i.formula} per formula unit`,
      worker: 'dft',
      tool: 'energy_difference',
      args: { quantity: 'formation_energy', energies, coefficients, per: 'formula-unit', count: i.formulaUnits },
      reasons: { ...why, per: 'per formula unit', count: `${i.formulaUnits} formula unit(s) of ${i.formula} in the cell` },
      dependsOn: deps,
    },
    {
      id: 'formation-per-atom',
      title: `ΔH_f of ${i.formula} per atom`,
      worker: 'dft',
      tool: 'energy_difference',
      args: { quantity: 'formation_energy', energies, coefficients, per: 'atom', count: i.natoms },
      reasons: { ...why, per: 'per atom', count: `${i.natoms} atoms in the cell` },
      dependsOn: deps,
    },
    reportStep(
      `Report the formation energy of ${i.formula}`,
      ['formation_energy', ...s.quantities],
      ['formation-per-formula-unit', 'formation-per-atom'],
    ),
  );
  return out;
}

function claimsAndText(ctx: ComposeContextOf<FormationInputs>): { text: string; claims: ReportClaim[] } {
  const i = ctx.inputs;
  const fuRef = need(ctx, 'formation-per-formula-unit', 'energy_difference');
  const atRef = need(ctx, 'formation-per-atom', 'energy_difference');
  const fu = ctx.value(fuRef) as EnergyDifferenceValue;
  const at = ctx.value(atRef) as EnergyDifferenceValue;
  const claims: ReportClaim[] = [
    {
      quantity: 'formation_energy',
      value: claimValue(fu.value, 4),
      unit: 'eV',
      cites: `${fuRef}.value`,
      statement: `ΔH_f(${i.formula}) = ${claimValue(fu.value, 4)} eV per formula unit`,
    },
    {
      quantity: 'formation_energy',
      value: claimValue(at.value, 4),
      unit: 'eV/atom',
      cites: `${atRef}.value`,
      statement: `ΔH_f(${i.formula}) = ${claimValue(at.value, 4)} eV/atom`,
    },
  ];
  const settings = sweptSettingsSentence(i.settings, ctx);
  const text = [
    `The formation energy of ${i.formula} (${i.compound.name}) is **${shown(fu.value, 4)} eV per formula unit** (${fuRef}), ${shown(at.value, 4)} eV/atom (${atRef}).`,
    '',
    `${fu.formula}`,
    '',
    `References: ${i.references.map((r) => `${r.element} as ${r.phase}`).join('; ')}; ${i.relax ? 'every structure relaxed at these settings (vc-relax for crystals, relax for molecules)' : 'every structure at its given geometry'}.`,
    '',
    settings.text,
  ].join('\n');
  return { text, claims: [...claims, ...settings.claims] };
}

export const FORMATION_ENERGY = defineWorkflow({
  id: 'formation-energy',
  title: 'Formation energy of a compound',
  description:
    'The formation energy of a compound from its elements in their ground states (hcp Mg, O2 as a triplet molecule, bcc Fe ferromagnetic, ...), ' +
    'every energy at one set of settings (spin-polarised throughout when a reference is magnetic), each structure relaxed unless asked not to, ' +
    'per formula unit and per atom. Inputs: elements with bravais rocksalt, zincblende or cesiumchloride (and the lattice constant unless tabulated), or structure: { file }; references per ' +
    'element when not the default; functional; settings given or chosen by sweeps on the compound.',
  inputSchema: INPUT_SCHEMA,
  inputsFromText: (text) => {
    if (!/\bformation (energy|enthalpy)\b/i.test(text)) return undefined;
    const functional = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text)?.[1];
    // a structure file the sentence names is the compound (any number of species), read when the objective is
    const file = structureFileNamedIn(text);
    if (file)
      return {
        structure: { file },
        ...(functional ? { functional: functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() } : {}),
      };
    const species = binaryFormulaIn(text) ?? elementsInText(text);
    if (species.length !== 2) return undefined;
    const a = statedLatticeConstant(text);
    // a pair that no prototype word or table places is asked for (ZnO is wurtzite, not rocksalt)
    const bravais = binaryPrototypeNamedIn(text, species);
    return {
      elements: species,
      ...(bravais ? { bravais } : {}),
      ...(a !== undefined ? { latticeConstantAngstrom: a } : {}),
      ...(functional ? { functional: functional.toUpperCase() === 'PBESOL' ? 'PBEsol' : functional.toUpperCase() } : {}),
    };
  },
  loadInputFiles: loadFiles,
  resolveInputs: resolve,
  steps,
  // an objective file's inputs as read get the line of their resolution without a machine (defineWorkflow)
  objective: (i) => `formation energy of ${i.formula} with ${i.settings.functional}`,
  composers: {
    title: (ctx) => `Formation energy of ${ctx.inputs.formula} (${ctx.inputs.settings.functional})`,
    text: (ctx) => claimsAndText(ctx).text,
    claims: (ctx) => claimsAndText(ctx).claims,
  },
});
