/**
 * The steps a band structure and a DOS share: the crystal, its pseudopotentials, the SCF
 * settings (given, or a cutoff sweep then a k sweep at the chosen cutoff, each choosing the
 * cheapest value within the tolerance), and the production SCF whose charge density (kept in
 * its job directory) the non-self-consistent run continues.
 */
import type { TemplateStep } from '../types';
import type { ElectronicInputs } from './inputs';

export const STRUCTURE = '$step.structure.bulk_structure';
export const PSEUDOS = '$step.pseudopotentials.pseudopotentials';
export const SCF_ENERGY = '$step.scf.total_energy';

const name = (i: ElectronicInputs): string =>
  i.structureFile ? `the crystal of ${i.structureFile}` : `${i.structure} ${i.species.join('')}`;

function occupationArgs(i: ElectronicInputs): { args: Record<string, unknown>; reasons: Record<string, string> } {
  return i.occupations === 'smearing'
    ? {
        args: { occupations: 'smearing', smearing: i.smearing, degaussRy: i.degaussRy },
        reasons: {
          occupations: i.metal
            ? `${i.species.join(', ')} is a metal: smeared occupations`
            : i.spinPolarized
              ? 'spin-polarised: smeared occupations (pw.x takes fixed ones with nspin 2 only at a fixed total magnetization); a gap is read with the Fermi level inside it'
              : 'smeared occupations, as the study asks',
          smearing: `${i.smearing} smearing`,
          degaussRy: `${i.degaussRy} Ry, the same in every run so energies compare`,
        },
      }
    : {
        args: { occupations: 'fixed' },
        reasons: {
          occupations: `${i.species.join(', ')} is not a metal: fixed occupations, so the gap is that of an insulator and no smearing moves the Fermi level`,
        },
      };
}

/** make_pw_input arguments every SCF of the study shares. */
function scfArgs(
  i: ElectronicInputs,
  purpose: 'production' | 'convergence-test',
): { args: Record<string, unknown>; reasons: Record<string, string> } {
  const occ = occupationArgs(i);
  return {
    args: {
      structure: STRUCTURE,
      pseudopotentials: PSEUDOS,
      purpose,
      calculation: 'scf',
      nspin: i.spinPolarized ? 2 : 1,
      ...(i.spinPolarized ? { startingMagnetization: i.startingMagnetization } : {}),
      ...occ.args,
    },
    reasons: {
      structure: `the primitive cell of ${name(i)}`,
      pseudopotentials: 'the chosen pseudopotentials',
      calculation: 'a self-consistent charge density',
      nspin: i.spinPolarized
        ? 'spin-polarised: the majority and minority bands differ, and the bands and DOS read both channels'
        : 'no magnetic species',
      ...(i.spinPolarized
        ? { startingMagnetization: `starting moments ${JSON.stringify(i.startingMagnetization)}: a magnetic state to converge to` }
        : {}),
      ...occ.reasons,
    },
  };
}

export function crystalSteps(i: ElectronicInputs): TemplateStep[] {
  const structure: TemplateStep = i.structureFile
    ? {
        id: 'structure',
        title: `Read ${i.structureFile}`,
        worker: 'dft',
        tool: 'build_bulk',
        args: { from: i.structureFile, cell: 'primitive', ...(i.structureSha256 ? { sha256: i.structureSha256 } : {}) },
        reasons: {
          from: "the user's structure file named with the objective",
          cell: 'bands of the standardised primitive cell, not folded ones of a larger cell',
          ...(i.structureSha256
            ? { sha256: 'the sha256 recorded when the objective was read: the call is refused if the file changed since' }
            : {}),
        },
      }
    : {
        id: 'structure',
        title: `Build the primitive cell of ${name(i)} (a = ${i.latticeConstantAngstrom} Å)`,
        worker: 'dft',
        tool: 'build_bulk',
        args: {
          elements: i.elements ?? [i.element],
          bravais: i.structure,
          latticeConstantAngstrom: i.latticeConstantAngstrom,
          ...(i.cOverA ? { cOverA: i.cOverA } : {}),
        },
        reasons: {
          elements: 'the species of the study',
          bravais: `${i.species.join('')} in the ${i.structure} structure`,
          latticeConstantAngstrom: 'the lattice constant the band structure is computed at',
          ...(i.cOverA ? { cOverA: 'the c/a of the crystal' } : {}),
        },
      };
  const s = i.settings;
  const prefer = s.pseudopotentials && Object.keys(s.pseudopotentials).length ? { prefer: s.pseudopotentials } : {};
  return [
    structure,
    {
      id: 'pseudopotentials',
      title: `Choose the ${s.functional} pseudopotentials for ${i.species.join(', ')}`,
      worker: 'dft',
      tool: 'select_pseudopotentials',
      args: { elements: i.species, functional: s.functional, ...prefer },
      reasons: {
        elements: 'the species of the crystal',
        functional: `the study asks for ${s.functional}`,
        ...(prefer.prefer ? { prefer: 'the files named with the objective' } : {}),
      },
    },
  ];
}

/** The SCF settings: given, or chosen by sweeps. The cutoff and k-spacing as hints for the production input. */
export function settingsSteps(i: ElectronicInputs): {
  steps: TemplateStep[];
  cut: unknown;
  rho: unknown;
  k: unknown;
  reasons: Record<string, string>;
} {
  const steps: TemplateStep[] = [];
  const s = i.settings;
  let cut: unknown = s.ecutwfcRy;
  let rho: unknown = s.ecutwfcRy !== undefined ? Number((s.dual * s.ecutwfcRy).toFixed(6)) : undefined;
  let k: unknown = s.kSpacingPerAngstrom;
  const reasons: Record<string, string> = {
    ecutwfcRy: 'the cutoff given with the objective',
    ecutrhoRy: `${s.dual} × ecutwfc for these pseudopotentials`,
    kSpacingPerAngstrom: 'the k-spacing given with the objective',
  };
  const sweepK = s.kSpacingPerAngstrom ?? Math.min(...s.kSpacingsPerAngstrom);
  const within = `${s.toleranceMevPerAtom} meV/atom`;
  // a run recorded before the budget was a setting has none: its selections are planned as they were
  const budget: { args: Record<string, number>; reasons: Record<string, string> } =
    s.extensionBudgetSeconds !== undefined
      ? {
          args: { extensionBudgetSeconds: s.extensionBudgetSeconds },
          reasons: {
            extensionBudgetSeconds: `an extension run predicted to take more than ${s.extensionBudgetSeconds} s of pw.x is not started without asking`,
          },
        }
      : { args: {}, reasons: {} };
  if (cut === undefined) {
    const highest = Math.max(...s.cutoffsRy);
    const base = scfArgs(i, 'convergence-test');
    steps.push(
      {
        id: 'cutoff-input',
        title: `Cutoff sweep template at ${highest} Ry`,
        worker: 'dft',
        tool: 'make_pw_input',
        args: { ...base.args, ecutwfcRy: highest, ecutrhoRy: Number((s.dual * highest).toFixed(6)), kSpacingPerAngstrom: sweepK },
        reasons: {
          ...base.reasons,
          purpose: 'the template of the cutoff sweep',
          ecutwfcRy: 'the highest cutoff of the sweep',
          ecutrhoRy: `${s.dual} × ecutwfc`,
          kSpacingPerAngstrom: 'the finest spacing of the study, fixed through the sweep',
        },
        dependsOn: ['structure', 'pseudopotentials'],
      },
      {
        id: 'cutoff-series',
        title: `Cutoff series ${s.cutoffsRy.join(', ')} Ry`,
        worker: 'dft',
        tool: 'generate_series',
        args: { template: '$step.cutoff-input.pw_input', kind: 'ecutwfc', values: s.cutoffsRy },
        reasons: {
          template: 'the sweep template',
          kind: 'a cutoff sweep',
          values: s.cutoffsFromSuggestionRy
            ? `from the pseudopotential's suggested ${Number(s.cutoffsFromSuggestionRy.toFixed(1))} Ry upward in 10-Ry steps`
            : 'the cutoffs of the study',
        },
        dependsOn: ['cutoff-input'],
      },
      {
        id: 'cutoff-runs',
        title: 'Run the cutoff series',
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: '$each.cutoff-series.pw_input' },
        reasons: { input: 'each input of the cutoff series' },
        dependsOn: ['cutoff-series'],
      },
      {
        id: 'cutoff-choice',
        title: `Choose the cheapest cutoff within ${within}`,
        worker: 'dft',
        tool: 'select_converged_settings',
        args: {
          parameter: 'ecutwfc',
          energies: '$all.cutoff-runs.total_energy',
          toleranceMevPerAtom: s.toleranceMevPerAtom,
          ...budget.args,
        },
        reasons: {
          parameter: 'the cutoff sweep',
          energies: 'every energy of the cutoff sweep',
          toleranceMevPerAtom: `${within} against the finest run`,
          ...budget.reasons,
        },
        dependsOn: ['cutoff-runs'],
      },
    );
    cut = '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy';
    rho = '$step.cutoff-choice.converged_settings.chosen.ecutrhoRy';
    reasons.ecutwfcRy = 'the converged cutoff';
    reasons.ecutrhoRy = 'the charge-density cutoff that goes with it';
  }
  if (k === undefined) {
    const base = scfArgs(i, 'convergence-test');
    steps.push(
      {
        id: 'k-input',
        title: 'k-sweep template at the cutoff',
        worker: 'dft',
        tool: 'make_pw_input',
        args: { ...base.args, ecutwfcRy: cut, ecutrhoRy: rho, kSpacingPerAngstrom: sweepK },
        reasons: {
          ...base.reasons,
          purpose: 'the template of the k sweep',
          ecutwfcRy: reasons.ecutwfcRy!,
          ecutrhoRy: reasons.ecutrhoRy!,
          kSpacingPerAngstrom: 'the series varies it',
        },
        dependsOn: s.ecutwfcRy === undefined ? ['cutoff-choice'] : ['structure', 'pseudopotentials'],
      },
      {
        id: 'k-series',
        title: `k-spacing series ${s.kSpacingsPerAngstrom.join(', ')} 1/Å`,
        worker: 'dft',
        tool: 'generate_series',
        args: { template: '$step.k-input.pw_input', kind: 'kspacing', values: s.kSpacingsPerAngstrom },
        reasons: { template: 'the k-sweep template', kind: 'a k-point sweep', values: 'from coarse to fine' },
        dependsOn: ['k-input'],
      },
      {
        id: 'k-runs',
        title: 'Run the k series',
        worker: 'hpc',
        tool: 'run_pw',
        args: { input: '$each.k-series.pw_input' },
        reasons: { input: 'each input of the k series' },
        dependsOn: ['k-series'],
      },
      {
        id: 'k-choice',
        title: `Choose the coarsest k-spacing within ${within}`,
        worker: 'dft',
        tool: 'select_converged_settings',
        args: { parameter: 'kspacing', energies: '$all.k-runs.total_energy', toleranceMevPerAtom: s.toleranceMevPerAtom, ...budget.args },
        reasons: {
          parameter: 'the k-point sweep',
          energies: 'every energy of the k sweep',
          toleranceMevPerAtom: `${within} against the finest run`,
          ...budget.reasons,
        },
        dependsOn: ['k-runs'],
      },
    );
    k = '$step.k-choice.converged_settings.chosen.kSpacingPerAngstrom';
    reasons.kSpacingPerAngstrom = 'the converged k-spacing';
  }
  return { steps, cut, rho, k, reasons };
}

/** The production SCF at the study's settings, and its run. */
export function scfSteps(i: ElectronicInputs, s: ReturnType<typeof settingsSteps>): TemplateStep[] {
  const base = scfArgs(i, 'production');
  const after = s.steps.length ? [s.steps.at(-1)!.id] : ['structure', 'pseudopotentials'];
  return [
    {
      id: 'scf-input',
      title: 'Production SCF input',
      worker: 'dft',
      tool: 'make_pw_input',
      args: { ...base.args, ecutwfcRy: s.cut, ecutrhoRy: s.rho, kSpacingPerAngstrom: s.k },
      reasons: { ...base.reasons, purpose: 'its charge density is the one the bands and DOS are computed from', ...s.reasons },
      dependsOn: after,
    },
    {
      id: 'scf',
      title: 'Run the SCF (its charge density is kept)',
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$step.scf-input.pw_input' },
      reasons: { input: 'the production SCF' },
      dependsOn: ['scf-input'],
    },
  ];
}

/** The quantities the settings steps let a report claim. */
export const settingsQuantities = (i: ElectronicInputs): string[] => [
  ...(i.settings.ecutwfcRy === undefined ? ['converged_cutoff'] : []),
  ...(i.settings.kSpacingPerAngstrom === undefined ? ['converged_kspacing'] : []),
];
