/**
 * The steps of the lattice-constant template that depend on what the crystal is: how it is
 * built (by name, or read from the user's file), the pseudopotentials of its species, its spin,
 * and, for a non-cubic crystal, the variable-cell relaxation whose relaxed cell the EOS scales.
 */
import { cellMethodSentence, crystalName } from './latticeConstantCrystal';
import { round, SCF_CONTROL_REASON, type LatticeConstantInputs } from './latticeConstantInputs';
import { symprecArgs } from './structureFileInput';
import type { TemplateStep } from './types';

export const STRUCTURE_REF = '$step.structure.bulk_structure';
export const RELAXED_REF = '$step.relaxed.relaxed_structure';
export const PSEUDO_REF = '$step.pseudopotentials.pseudopotentials';

const speciesOf = (i: LatticeConstantInputs) => i.crystal?.species ?? [i.element];
const nameOf = (i: LatticeConstantInputs) => (i.crystal ? i.crystal.formula : i.element);
const isInsulatorStart = (i: LatticeConstantInputs) => i.electronic === 'insulator';

/** The structure the EOS series scales: the relaxed cell of a non-cubic crystal, else the crystal as built. */
export const eosStructureRef = (i: LatticeConstantInputs): string => (i.cellMethod === 'vc-relax' ? RELAXED_REF : STRUCTURE_REF);

export function electronicArgs(i: LatticeConstantInputs): Record<string, unknown> {
  return {
    calculation: 'scf',
    occupations: 'smearing',
    smearing: i.smearing.kind,
    degaussRy: i.smearing.degaussRy,
    nspin: i.spinPolarized ? 2 : 1,
    ...(i.spinPolarized ? { startingMagnetization: i.startingMagnetizations ?? { [i.element]: i.startingMagnetization } } : {}),
    ...(i.scf ?? {}),
  };
}

export function electronicReasons(i: LatticeConstantInputs): Record<string, string> {
  const name = nameOf(i);
  const magnetic = Object.keys(i.startingMagnetizations ?? { [i.element]: 1 });
  return {
    occupations: isInsulatorStart(i)
      ? `smeared occupations whether ${name} has a gap or not: a small smearing leaves a gapped crystal's energy unchanged and keeps the SCF stable if it has none`
      : `${name} is treated as a metal: smeared occupations converge the Brillouin-zone sum`,
    smearing: `${i.smearing.kind} smearing, as set for the study`,
    degaussRy: `${i.smearing.degaussRy} Ry, the study's smearing width, the same in every run so energies compare`,
    nspin: i.spinPolarized
      ? `${magnetic.join(', ')} ${magnetic.length > 1 ? 'are' : 'is'} magnetic: spin-polarized`
      : `no magnetic species in ${name}: no spin polarization`,
    ...(i.spinPolarized
      ? { startingMagnetization: `a starting moment on ${magnetic.join(', ')} so the SCF can find the magnetic state` }
      : {}),
    ...Object.fromEntries(Object.keys(i.scf ?? {}).map((k) => [k, SCF_CONTROL_REASON])),
  };
}

export function structureStep(i: LatticeConstantInputs): TemplateStep {
  const file = i.structureFile;
  if (file && i.crystal) {
    return {
      id: 'structure',
      title: `Read ${crystalName(i.crystal)}`,
      worker: 'dft',
      tool: 'build_bulk',
      args: { from: file.file, sha256: file.sha256, cell: i.cell ?? 'primitive', ...symprecArgs(file).args },
      reasons: {
        ...symprecArgs(file).reasons,
        from: `the user's structure file named with the objective (${file.name}): its species, positions and cell`,
        sha256: 'the sha256 recorded when the objective was read: the call is refused if the file changed since',
        cell:
          (i.cell ?? 'primitive') === 'primitive'
            ? 'the standardised primitive cell: the same crystal in the fewest atoms per pw.x run; the lattice parameters still come from the conventional cell'
            : 'the cell as the file gives it, as the objective asked',
      },
    };
  }
  const elements = i.elements ?? [i.element];
  return {
    id: 'structure',
    title: `Build ${i.structure} ${elements.join('')} at the starting lattice constant`,
    worker: 'dft',
    tool: 'build_bulk',
    args: { elements, bravais: i.structure, latticeConstantAngstrom: i.latticeConstantAngstrom, ...(i.cOverA ? { cOverA: i.cOverA } : {}) },
    reasons: {
      elements: i.elements ? `the cation and anion of ${elements.join('')}, in that order` : 'the element of the study',
      bravais: i.elements
        ? `${elements.join('')} is studied in the ${String(i.structure)} structure (${i.crystal?.spaceGroup ?? ''}): its primitive cell, one ${elements[0]} and one ${elements[1]}`
        : `${i.element} is studied in the ${i.structure} structure`,
      latticeConstantAngstrom: i.elements
        ? `a of the conventional cubic cell: ${i.origins?.latticeConstant ?? 'the starting value given with the objective; the EOS series is centred on it'}`
        : 'the starting value given with the objective; the EOS series is centred on it',
      ...(i.cOverA ? { cOverA: 'c/a held fixed through the series' } : {}),
    },
  };
}

export function pseudopotentialStep(i: LatticeConstantInputs, preferReason?: string): TemplateStep {
  const species = speciesOf(i);
  const perSpecies = Boolean(i.crystal?.source || i.elements);
  const prefer = perSpecies ? i.pseudopotentials : i.pseudopotential ? { [i.element]: i.pseudopotential } : undefined;
  return {
    id: 'pseudopotentials',
    title: `Choose the ${i.functional} pseudopotential${species.length > 1 ? 's' : ''} for ${species.join(', ')}`,
    worker: 'dft',
    tool: 'select_pseudopotentials',
    args: { elements: species, functional: i.functional, ...(prefer && Object.keys(prefer).length ? { prefer } : {}) },
    reasons: {
      elements: species.length > 1 ? `the species of ${nameOf(i)}` : 'the element of the study',
      functional: `the study asks for ${i.functional}`,
      ...(prefer && Object.keys(prefer).length
        ? {
            prefer:
              preferReason ??
              (perSpecies ? "the library's file for each species (or the one the objective named)" : 'the file named with the objective'),
          }
        : {}),
    },
  };
}

/**
 * A non-cubic crystal: relax its shape (and volume) at the converged settings, then take the relaxed
 * structure. The EOS that follows scales this relaxed cell around its volume.
 */
export function relaxSteps(i: LatticeConstantInputs, chosen: { cut: string; rho: string; k: string }): TemplateStep[] {
  if (i.cellMethod !== 'vc-relax') return [];
  return [
    {
      id: 'relax-input',
      title: 'Variable-cell relaxation at the chosen cutoff and k-spacing',
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: STRUCTURE_REF,
        pseudopotentials: PSEUDO_REF,
        purpose: 'production',
        ...electronicArgs(i),
        calculation: 'vc-relax',
        ecutwfcRy: chosen.cut,
        ecutrhoRy: chosen.rho,
        kSpacingPerAngstrom: chosen.k,
      },
      reasons: {
        structure: 'the crystal as read',
        pseudopotentials: 'the chosen pseudopotentials',
        purpose: 'the relaxed shape is the cell the result is computed on',
        ...electronicReasons(i),
        calculation: i.crystal ? cellMethodSentence('vc-relax', i.crystal) : 'relax the shape of a non-cubic cell before the EOS',
        ecutwfcRy: 'the converged cutoff',
        ecutrhoRy: 'the charge-density cutoff that goes with it',
        kSpacingPerAngstrom: 'the converged k-spacing',
      },
      dependsOn: ['k-choice'],
    },
    {
      id: 'relax-run',
      title: 'Run the vc-relax',
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$step.relax-input.pw_input' },
      reasons: { input: 'the variable-cell relaxation' },
      dependsOn: ['relax-input'],
    },
    {
      id: 'relaxed',
      title: 'The relaxed cell',
      worker: 'dft',
      tool: 'relaxed_structure',
      args: { relaxation: '$step.relax-run.total_energy' },
      reasons: { relaxation: 'the energy of the finished vc-relax, whose final cell and positions the EOS scales' },
      dependsOn: ['relax-run'],
    },
  ];
}

/** The lattice step's arguments: the cell the series scaled; a named lattice is checked against its symmetry. */
export function latticeArgs(i: LatticeConstantInputs): { args: Record<string, unknown>; reasons: Record<string, string> } {
  const structure = eosStructureRef(i);
  if (i.crystal?.source) {
    return {
      args: { eosFit: '$step.eos-fit.eos_fit', structure },
      reasons: {
        eosFit: 'the EOS fit',
        structure:
          i.cellMethod === 'vc-relax'
            ? 'the relaxed cell the series scaled: its symmetry and shape give the lattice parameters'
            : 'the cell the series scaled: its symmetry gives the lattice parameters',
      },
    };
  }
  return {
    args: { eosFit: '$step.eos-fit.eos_fit', structure, bravais: i.structure, ...(i.cOverA ? { cOverA: round(i.cOverA, 12) } : {}) },
    reasons: {
      eosFit: 'the EOS fit',
      structure: 'the cell the series scaled',
      bravais: `the crystal is ${String(i.structure)}: checked against the symmetry of the cell${i.elements ? ', and a is that of its conventional cubic cell' : ''}`,
      ...(i.cOverA ? { cOverA: 'the c/a held fixed' } : {}),
    },
  };
}
