/**
 * The lattice-constant study's inputs for any bulk crystal: an element named with its lattice
 * goes through resolveLatticeInputs as before; a crystal from a file (structure: { file }) is
 * read when the objective is loaded, and a binary compound named with its prototype (zincblende
 * GaAs) is built by name; their species, symmetry and cell decide the defaults:
 * pseudopotentials, suggested cutoffs and dual over all species, spin and starting
 * magnetization per species, the k sweep's start (compounds with an anion: insulator), and the
 * cell method (cubic: isotropic EOS; otherwise vc-relax, then the EOS around the relaxed volume).
 */
import { isChemicalSymbol, normaliseSymbol } from '../dft/io/elements';
import { compoundLatticeConstant } from './everyday/common';
import {
  compoundIsInsulator,
  crystalOfFile,
  crystalOfName,
  defaultSpin,
  spaceGroupSaid,
  startingMagnetizations,
  type CellMethod,
  type StudyCrystal,
} from './latticeConstantCrystal';
import {
  defaultCutoffsRy,
  defaultDual,
  isBinaryStructure,
  resolveLatticeInputs,
  round,
  type BinaryStructure,
  type LatticeConstantInputs,
  type LatticeElementInputs,
  type LatticeObjectiveInputs,
} from './latticeConstantInputs';
import {
  isLoadedStructureFile,
  isStructureFileInput,
  loadedStructureFile,
  loadStructureFileInput,
  type StructureFileInput,
} from './structureFileInput';
import { ObjectiveError, type WorkflowEnvironment } from './types';

/** Objective loading: read `structure: { file }` relative to the objective's directory. */
export function loadLatticeStructureFile(inputs: LatticeObjectiveInputs, baseDir: string): LatticeObjectiveInputs {
  if (!isStructureFileInput(inputs.structure)) return inputs;
  const loaded = loadStructureFileInput(inputs.structure, baseDir, 'inputs.structure');
  if (!loaded.structure.pbc.every(Boolean)) {
    throw new ObjectiveError(
      `inputs.structure.file: ${loaded.file} is not periodic in three directions (a slab or molecule); a lattice constant needs a bulk crystal.`,
    );
  }
  return { ...inputs, structure: loaded };
}

/** The starting lattice constant of a lattice named in the objective (the schema requires one with a name; ajv checked it). */
function givenLatticeConstant(inputs: LatticeObjectiveInputs, structure: string): number {
  if (inputs.latticeConstantAngstrom === undefined)
    throw new ObjectiveError(
      `inputs.latticeConstantAngstrom: ${structure} is built by name and needs a starting lattice constant, Å (e.g. 4.05 for fcc Al, 5.65 for zincblende GaAs).`,
    );
  return inputs.latticeConstantAngstrom;
}

/** An element's lattice: the inputs the element path reads, with one starting magnetization (a per-species one gives the element's). */
function elementInputs(inputs: LatticeObjectiveInputs, structure: LatticeElementInputs['structure']): LatticeElementInputs {
  const { structure: _named, startingMagnetization: m, ...rest } = inputs;
  const own = typeof m === 'object' ? m[normaliseSymbol(String(inputs.element ?? ''))] : m;
  return {
    ...rest,
    structure,
    latticeConstantAngstrom: givenLatticeConstant(inputs, structure),
    ...(own !== undefined ? { startingMagnetization: own } : {}),
  };
}

export function resolveStudyInputs(inputs: LatticeObjectiveInputs, env: WorkflowEnvironment): LatticeConstantInputs {
  const structure = inputs.structure;
  if (typeof structure === 'string' && !isBinaryStructure(structure)) {
    const named = resolveLatticeInputs(elementInputs(inputs, structure), env);
    const crystal = crystalOfName(named.element, structure, named.latticeConstantAngstrom, named.cOverA);
    return {
      ...named,
      crystal,
      cellMethod: 'isotropic',
      ...(named.spinPolarized ? { startingMagnetizations: { [named.element]: named.startingMagnetization } } : {}),
    };
  }
  const { crystal, file, prototype, given } = compoundOrFile(inputs, structure);
  const species = crystal.species;
  const source = file ? file.name : crystal.formula;
  const functional = inputs.functional === 'LDA' ? 'PZ' : (inputs.functional ?? 'PBE');
  const prefer = inputs.pseudopotentials ?? {};
  for (const sp of Object.keys(prefer)) {
    if (!species.includes(normaliseSymbol(sp))) {
      throw new ObjectiveError(`inputs.pseudopotentials.${sp}: ${source} has no ${sp}; its species are ${species.join(', ')}.`);
    }
  }
  const pseudos = species.map((sp) => {
    const p = env.pseudopotential?.({ element: sp, functional, ...(prefer[sp] ? { file: prefer[sp] } : {}) });
    if (prefer[sp] && env.pseudopotential && !p) {
      throw new ObjectiveError(
        `inputs.pseudopotentials.${sp}: ${prefer[sp]} is not in the pseudopotential directory; name a UPF file that is there, or leave it out to use the library's file for ${sp}.`,
      );
    }
    return [sp, p] as const;
  });
  const found = pseudos.filter(([, p]) => p);
  const suggested = Math.max(0, ...found.map(([, p]) => p!.suggestedEcutwfcRy ?? 0));
  const rho = Math.max(0, ...found.map(([, p]) => p!.suggestedEcutrhoRy ?? 0));
  const norm = found.length > 0 && found.every(([, p]) => p!.type === 'NC' || p!.type === 'SL');
  const cutoffsRy = inputs.cutoffsRy ?? defaultCutoffsRy(suggested || undefined);
  const lowest = Math.max(Math.min(...cutoffsRy), suggested);
  const dual = inputs.dual ?? defaultDual(norm, lowest, rho || undefined);
  if (inputs.dual !== undefined && rho && dual * lowest < rho) {
    throw new ObjectiveError(
      `inputs.dual: ${dual} × ${round(lowest, 1)} Ry = ${round(dual * lowest, 1)} Ry is below the ${round(rho, 1)} Ry density cutoff the pseudopotentials suggest; use dual ≥ ${Math.ceil(rho / lowest)}, or leave dual out to have it chosen.`,
    );
  }
  const spinPolarized = inputs.spinPolarized ?? defaultSpin(species);
  const magnetizations = startingMagnetizations(species, inputs.startingMagnetization);
  const electronic = inputs.electronic ?? (compoundIsInsulator(species) ? 'insulator' : 'metal');
  const cellMethod: CellMethod = file && !crystal.cubic && inputs.cellShape !== 'fixed' ? 'vc-relax' : 'isotropic';
  // The shared defaults (sweeps, criterion, EOS, smearing) through the element path, with the first species standing in.
  const base = resolveLatticeInputs(
    {
      ...inputs,
      element: species[0],
      structure: crystal.cubic ? 'sc' : 'hcp',
      latticeConstantAngstrom: crystal.aAngstrom,
      cutoffsRy,
      dual,
      electronic,
      spinPolarized,
      startingMagnetization: magnetizations[species[0]!] ?? 0.5,
      ...(crystal.cubic ? {} : { cOverA: crystal.cOverA }),
      pseudopotential: undefined,
      pseudopotentials: undefined,
      cellShape: undefined,
      cell: undefined,
    },
    {},
  );
  const pseudoFiles = Object.fromEntries(found.map(([sp, p]) => [sp, p!.file]));
  const { pseudopotential: _one, cOverA: _c, ...rest } = base;
  const tabulated = prototype !== undefined && compoundLatticeConstant(prototype, species) === crystal.aAngstrom;
  return {
    ...rest,
    element: species[0]!,
    structure: given,
    ...(file ? { structureFile: file, cell: inputs.cell ?? 'primitive' } : { elements: species }),
    crystal,
    latticeConstantAngstrom: crystal.aAngstrom,
    origins: {
      pseudopotential: Object.keys(prefer).length
        ? "the files named with the objective (the library's for any other species)"
        : `the library's ${functional} file for each species (the objective named none)`,
      cutoffsRy: inputs.cutoffsRy
        ? 'the cutoffs the objective asked for'
        : suggested
          ? `from the ${round(suggested, 1)} Ry the species' files suggest (the largest) upward, in 10-Ry steps`
          : `in 10-Ry steps from ${cutoffsRy[0]} Ry: no file states a suggested cutoff`,
      ...(file
        ? {}
        : {
            latticeConstant: tabulated
              ? `the room-temperature experimental a of ${crystal.formula} (CRC Handbook table), a starting point only; the EOS series is centred on it`
              : 'the starting value given with the objective; the EOS series is centred on it',
          }),
    },
    ...(Object.keys(pseudoFiles).length ? { pseudopotentials: pseudoFiles } : {}),
    ...(spinPolarized ? { startingMagnetizations: magnetizations } : {}),
    cellMethod,
  };
}

/** A crystal from a file (as loaded), or a binary compound named with its prototype. */
function compoundOrFile(
  inputs: LatticeObjectiveInputs,
  structure: BinaryStructure | Exclude<LatticeObjectiveInputs['structure'], string>,
): { crystal: StudyCrystal; file?: StructureFileInput; prototype?: BinaryStructure; given: BinaryStructure | StructureFileInput } {
  if (typeof structure === 'string') return { crystal: binaryCrystal(inputs, structure), prototype: structure, given: structure };
  const file = loadedStructureFile(structure, 'inputs.structure');
  return { crystal: crystalOfFile(file), file, given: file };
}

/** A binary compound named with its prototype: its two species and the conventional cell's starting a. */
function binaryCrystal(inputs: LatticeObjectiveInputs, prototype: BinaryStructure): StudyCrystal {
  const given = inputs.elements ?? [];
  const elements = given.map((e) => normaliseSymbol(e));
  const bad = elements.find((e) => !isChemicalSymbol(e));
  if (elements.length !== 2 || bad !== undefined || elements[0] === elements[1]) {
    throw new ObjectiveError(
      `inputs.elements: ${prototype} needs two different elements, cation first (e.g. [Ga, As]); got ${JSON.stringify(given)}${bad !== undefined ? ` (${bad} is not a chemical symbol)` : ''}.`,
    );
  }
  return crystalOfName(elements, prototype, givenLatticeConstant(inputs, prototype));
}

/** The study's line from resolved inputs. */
export const studyObjective = (i: LatticeConstantInputs): string => {
  if (!i.crystal?.source)
    return `Lattice constant of ${i.structure} ${i.elements?.join('') ?? i.element} (${i.functional}${i.pseudopotential ? `, ${i.pseudopotential}` : ''})`;
  const c = i.crystal;
  return `${c.cubic ? 'Lattice constant' : 'Lattice parameters'} of ${c.formula} (${spaceGroupSaid(c)}) from ${i.crystal.source.name} (${i.functional})`;
};

/** The line from an objective file's inputs as loaded (a structure file read, nothing resolved). */
export const studyObjectiveBeforeResolving = (raw: LatticeObjectiveInputs): string => {
  const fn = raw.functional ? ` (${raw.functional === 'LDA' ? 'PZ' : raw.functional})` : '';
  if (isStructureFileInput(raw.structure)) {
    const file = raw.structure;
    const c = isLoadedStructureFile(file) ? crystalOfFile(file) : undefined;
    return c
      ? `${c.cubic ? 'Lattice constant' : 'Lattice parameters'} of ${c.formula} (${spaceGroupSaid(c)}) from ${file.name ?? file.file}${fn}`
      : `Lattice constant of the crystal in ${file.file}${fn}`;
  }
  // the functional the study resolves to (PBE when none is given; LDA is PZ), never "undefined"
  const functional = raw.functional === 'LDA' ? 'PZ' : (raw.functional ?? 'PBE');
  return `Lattice constant of ${raw.structure} ${raw.elements?.join('') ?? raw.element} (${functional}${raw.pseudopotential ? `, ${raw.pseudopotential}` : ''})`;
};
