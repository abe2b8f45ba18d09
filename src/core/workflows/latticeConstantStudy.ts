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
  type LatticeConstantInputs,
  type LatticeObjectiveInputs,
} from './latticeConstantInputs';
import { isStructureFileInput, loadStructureFileInput, type StructureFileInput } from './structureFileInput';
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

function fileInputOf(raw: Record<string, unknown>): StructureFileInput | undefined {
  const s = raw.structure;
  if (!isStructureFileInput(s)) return undefined;
  const f = s as Partial<StructureFileInput> & { file: string };
  if (!f.structure || !f.sha256) {
    // Inputs that were not loaded from an objective file (a plan built in code): read the file now.
    return loadStructureFileInput(f, process.cwd(), 'inputs.structure');
  }
  return f as StructureFileInput;
}

export function resolveStudyInputs(inputs: LatticeObjectiveInputs, env: WorkflowEnvironment): LatticeConstantInputs {
  // the shared defaults below still read their fields one by one
  const raw: Record<string, unknown> = { ...inputs };
  const file = fileInputOf(raw);
  if (!file && !isBinaryStructure(raw.structure)) {
    const named = resolveLatticeInputs(raw, env);
    const crystal = crystalOfName(named.element, named.structure as string, named.latticeConstantAngstrom, named.cOverA);
    return {
      ...named,
      crystal,
      cellMethod: 'isotropic',
      ...(named.spinPolarized ? { startingMagnetizations: { [named.element]: named.startingMagnetization } } : {}),
    };
  }
  const crystal = file ? crystalOfFile(file) : binaryCrystal(raw);
  const species = crystal.species;
  const source = file ? file.name : crystal.formula;
  const functional = (raw.functional === 'LDA' ? 'PZ' : (raw.functional as LatticeConstantInputs['functional'] | undefined)) ?? 'PBE';
  const prefer = (raw.pseudopotentials ?? {}) as Record<string, string>;
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
  const cutoffsRy = (raw.cutoffsRy as number[] | undefined) ?? defaultCutoffsRy(suggested || undefined);
  const lowest = Math.max(Math.min(...cutoffsRy), suggested);
  const dual = (raw.dual as number | undefined) ?? defaultDual(norm, lowest, rho || undefined);
  if (raw.dual !== undefined && rho && dual * lowest < rho) {
    throw new ObjectiveError(
      `inputs.dual: ${dual} × ${round(lowest, 1)} Ry = ${round(dual * lowest, 1)} Ry is below the ${round(rho, 1)} Ry density cutoff the pseudopotentials suggest; use dual ≥ ${Math.ceil(rho / lowest)}, or leave dual out to have it chosen.`,
    );
  }
  const spinPolarized = (raw.spinPolarized as boolean | undefined) ?? defaultSpin(species);
  const magnetizations = startingMagnetizations(species, raw.startingMagnetization as number | Record<string, number> | undefined);
  const electronic =
    (raw.electronic as LatticeConstantInputs['electronic'] | undefined) ?? (compoundIsInsulator(species) ? 'insulator' : 'metal');
  const cellMethod: CellMethod = file && !crystal.cubic && raw.cellShape !== 'fixed' ? 'vc-relax' : 'isotropic';
  // The shared defaults (sweeps, criterion, EOS, smearing) through the element path, with the first species standing in.
  const base = resolveLatticeInputs(
    {
      ...raw,
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
  const tabulated = !file && compoundLatticeConstant(raw.structure as never, species) === crystal.aAngstrom;
  return {
    ...rest,
    element: species[0]!,
    structure: raw.structure as never,
    ...(file
      ? { structureFile: file, cell: (raw.cell as LatticeConstantInputs['cell'] | undefined) ?? 'primitive' }
      : { elements: species }),
    crystal,
    latticeConstantAngstrom: crystal.aAngstrom,
    origins: {
      pseudopotential: Object.keys(prefer).length
        ? "the files named with the objective (the library's for any other species)"
        : `the library's ${functional} file for each species (the objective named none)`,
      cutoffsRy: raw.cutoffsRy
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

/** A binary compound named with its prototype: its two species and the conventional cell's starting a. */
function binaryCrystal(raw: Record<string, unknown>): StudyCrystal {
  const given = (raw.elements as string[] | undefined) ?? [];
  const elements = given.map((e) => normaliseSymbol(e));
  const bad = elements.find((e) => !isChemicalSymbol(e));
  if (elements.length !== 2 || bad !== undefined || elements[0] === elements[1]) {
    throw new ObjectiveError(
      `inputs.elements: ${String(raw.structure)} needs two different elements, cation first (e.g. [Ga, As]); got ${JSON.stringify(given)}${bad !== undefined ? ` (${bad} is not a chemical symbol)` : ''}.`,
    );
  }
  return crystalOfName(elements, String(raw.structure), raw.latticeConstantAngstrom as number);
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
    const file: { file: string; name?: string; structure?: unknown; sha256?: unknown } = raw.structure;
    const c = file.structure && file.sha256 ? crystalOfFile(file as StructureFileInput) : undefined;
    return c
      ? `${c.cubic ? 'Lattice constant' : 'Lattice parameters'} of ${c.formula} (${spaceGroupSaid(c)}) from ${file.name ?? file.file}${fn}`
      : `Lattice constant of the crystal in ${file.file}${fn}`;
  }
  return `Lattice constant of ${raw.structure} ${raw.elements?.join('') ?? raw.element} (${raw.functional}${raw.pseudopotential ? `, ${raw.pseudopotential}` : ''})`;
};
