/**
 * The lattice constant of an elemental crystal, Sol27LC style: structure, pseudopotential,
 * a cutoff sweep at the finest k-spacing, a k sweep at the chosen cutoff, an EOS series at
 * the chosen settings, the fit, the lattice constant through the cell's symmetry, and a
 * report whose every number cites its artifact.
 */
import { LATTICE_REPORT_COMPOSERS } from './latticeConstantReport';
import { latticeInputsFromText } from './latticeConstantText';
import { eosScaleFactors, LATTICE_CONSTANT_INPUT_SCHEMA, objective, resolveLatticeInputs, round, SCF_CONTROL_REASON, type LatticeConstantInputs } from './latticeConstantInputs';
import type { TemplateStep, WorkflowTemplate } from './types';

function electronicArgs(i: LatticeConstantInputs): Record<string, unknown> {
  return {
    calculation: 'scf',
    occupations: 'smearing',
    smearing: i.smearing.kind,
    degaussRy: i.smearing.degaussRy,
    nspin: i.spinPolarized ? 2 : 1,
    ...(i.spinPolarized ? { startingMagnetization: { [i.element]: i.startingMagnetization } } : {}),
    ...(i.scf ?? {}),
  };
}

function electronicReasons(i: LatticeConstantInputs): Record<string, string> {
  return {
    occupations: `${i.element} is treated as a metal: smeared occupations converge the Brillouin-zone sum`,
    smearing: `${i.smearing.kind} smearing, as set for the study`,
    degaussRy: `${i.smearing.degaussRy} Ry, the study's smearing width, the same in every run so energies compare`,
    nspin: i.spinPolarized ? `${i.element} is magnetic: spin-polarized` : `${i.element} is not magnetic: no spin polarization`,
    ...(i.spinPolarized ? { startingMagnetization: `a starting moment on ${i.element} so the SCF can find the magnetic state` } : {}),
    ...Object.fromEntries(Object.keys(i.scf ?? {}).map((k) => [k, SCF_CONTROL_REASON])),
  };
}

const STRUCTURE_REF = '$step.structure.bulk_structure';
const PSEUDO_REF = '$step.pseudopotentials.pseudopotentials';

function steps(raw: Record<string, unknown>): TemplateStep[] {
  const i = raw as unknown as LatticeConstantInputs;
  // The cutoff sweep's run at the chosen cutoff is the k sweep's run at the finest spacing, and the EOS
  // middle point the k sweep's run at the chosen spacing: run_pw reuses identical inputs, so neither runs twice.
  const finestK = Math.min(...i.kSpacingsPerAngstrom);
  const highestCut = Math.max(...i.cutoffsRy);
  const scales = eosScaleFactors(i.eos.points, i.eos.rangePercent);
  const chosenCut = '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy';
  const chosenRho = '$step.cutoff-choice.converged_settings.chosen.ecutrhoRy';
  const chosenK = '$step.k-choice.converged_settings.chosen.kSpacingPerAngstrom';
  const runOn = (seriesStep: string, what: string): TemplateStep => ({
    id: seriesStep.replace(/-series$/, '-runs'),
    title: `Run pw.x on every input of the ${what}`,
    worker: 'hpc',
    tool: 'run_pw',
    args: { input: `$each.${seriesStep}.pw_input`, backend: '$run.backend' },
    reasons: { input: `each input of the ${what}`, backend: 'the backend this run was started with' },
    dependsOn: [seriesStep],
  });
  return [
    {
      id: 'structure', title: `Build ${i.structure} ${i.element} at the starting lattice constant`, worker: 'dft', tool: 'build_bulk',
      args: { elements: [i.element], bravais: i.structure, latticeConstantAngstrom: i.latticeConstantAngstrom, ...(i.cOverA ? { cOverA: i.cOverA } : {}) },
      reasons: {
        elements: `the element of the study`, bravais: `${i.element} is studied in the ${i.structure} structure`,
        latticeConstantAngstrom: 'the starting value given with the objective; the EOS series is centred on it',
        ...(i.cOverA ? { cOverA: 'c/a held fixed through the series' } : {}),
      },
    },
    {
      id: 'pseudopotentials', title: `Choose the ${i.functional} pseudopotential for ${i.element}`, worker: 'dft', tool: 'select_pseudopotentials',
      args: { elements: [i.element], functional: i.functional, ...(i.pseudopotential ? { prefer: { [i.element]: i.pseudopotential } } : {}) },
      reasons: { elements: 'the element of the study', functional: `the study asks for ${i.functional}`, ...(i.pseudopotential ? { prefer: 'the file named with the objective' } : {}) },
    },
    {
      id: 'cutoff-input', title: `Sweep template at the highest cutoff (${highestCut} Ry) and the finest k-spacing (${finestK} 1/Å)`, worker: 'dft', tool: 'make_pw_input',
      args: { structure: STRUCTURE_REF, pseudopotentials: PSEUDO_REF, purpose: 'convergence-test', ...electronicArgs(i), ecutwfcRy: highestCut, ecutrhoRy: round(i.dual * highestCut, 6), kSpacingPerAngstrom: finestK },
      reasons: {
        structure: 'the crystal of the study', pseudopotentials: 'the chosen pseudopotential', purpose: 'the template of the cutoff sweep',
        calculation: 'single-point energies', ...electronicReasons(i),
        ecutwfcRy: 'the highest cutoff of the sweep; the series varies it', ecutrhoRy: i.dual === 4 || i.dual === 8 ? `${i.dual} × ecutwfc for this pseudopotential type` : `${i.dual} × ecutwfc, so that every cutoff of the sweep meets the file's suggested density cutoff`,
        kSpacingPerAngstrom: 'the finest spacing of the study, so the cutoff test is not limited by k-sampling',
      },
      dependsOn: ['structure', 'pseudopotentials'],
    },
    {
      id: 'cutoff-series', title: `Cutoff series ${i.cutoffsRy.join(', ')} Ry`, worker: 'dft', tool: 'generate_series',
      args: { template: '$step.cutoff-input.pw_input', kind: 'ecutwfc', values: i.cutoffsRy },
      reasons: { template: 'the sweep template', kind: 'a cutoff sweep', values: 'from the pseudopotential\'s suggestion upward' },
      dependsOn: ['cutoff-input'],
    },
    runOn('cutoff-series', 'cutoff series'),
    {
      id: 'cutoff-choice', title: `Choose the cheapest cutoff within ${i.toleranceMevPerAtom} meV/atom`, worker: 'dft', tool: 'select_converged_settings',
      args: { parameter: 'ecutwfc', energies: '$all.cutoff-runs.total_energy', toleranceMevPerAtom: i.toleranceMevPerAtom },
      reasons: { parameter: 'the cutoff sweep', energies: 'every energy of the cutoff sweep', toleranceMevPerAtom: 'the study\'s tolerance; 1 meV/atom or tighter for lattice constants' },
      dependsOn: ['cutoff-runs'],
    },
    {
      id: 'k-input', title: 'k-sweep template at the chosen cutoff', worker: 'dft', tool: 'make_pw_input',
      args: { structure: STRUCTURE_REF, pseudopotentials: PSEUDO_REF, purpose: 'convergence-test', ...electronicArgs(i), ecutwfcRy: chosenCut, ecutrhoRy: chosenRho, kSpacingPerAngstrom: finestK },
      reasons: {
        structure: 'the crystal of the study', pseudopotentials: 'the chosen pseudopotential', purpose: 'the template of the k sweep',
        calculation: 'single-point energies', ...electronicReasons(i),
        ecutwfcRy: 'the cutoff the cutoff sweep chose', ecutrhoRy: 'the charge-density cutoff that goes with it',
        kSpacingPerAngstrom: 'the finest spacing; the series varies it',
      },
      dependsOn: ['cutoff-choice'],
    },
    {
      id: 'k-series', title: `k-spacing series ${i.kSpacingsPerAngstrom.join(', ')} 1/Å`, worker: 'dft', tool: 'generate_series',
      args: { template: '$step.k-input.pw_input', kind: 'kspacing', values: i.kSpacingsPerAngstrom },
      reasons: { template: 'the k-sweep template at the chosen cutoff', kind: 'a k-point sweep', values: 'from coarse to fine' },
      dependsOn: ['k-input'],
    },
    runOn('k-series', 'k-spacing series'),
    {
      id: 'k-choice', title: `Choose the coarsest k-spacing within ${i.toleranceMevPerAtom} meV/atom`, worker: 'dft', tool: 'select_converged_settings',
      args: { parameter: 'kspacing', energies: '$all.k-runs.total_energy', toleranceMevPerAtom: i.toleranceMevPerAtom },
      reasons: { parameter: 'the k-point sweep', energies: 'every energy of the k sweep', toleranceMevPerAtom: 'the study\'s tolerance' },
      dependsOn: ['k-runs'],
    },
    {
      id: 'eos-input', title: 'Production input at the chosen cutoff and k-spacing', worker: 'dft', tool: 'make_pw_input',
      args: { structure: STRUCTURE_REF, pseudopotentials: PSEUDO_REF, purpose: 'production', ...electronicArgs(i), ecutwfcRy: chosenCut, ecutrhoRy: chosenRho, kSpacingPerAngstrom: chosenK },
      reasons: {
        structure: 'the crystal at the starting lattice constant; the series scales it', pseudopotentials: 'the chosen pseudopotential', purpose: 'its energies give the result',
        calculation: 'single-point energies', ...electronicReasons(i),
        ecutwfcRy: 'the converged cutoff', ecutrhoRy: 'the charge-density cutoff that goes with it', kSpacingPerAngstrom: 'the converged k-spacing',
      },
      dependsOn: ['k-choice'],
    },
    {
      id: 'eos-series', title: `EOS series: a × ${scales.join(', ')}`, worker: 'dft', tool: 'generate_series',
      args: { template: '$step.eos-input.pw_input', kind: 'eos', values: scales },
      reasons: { template: 'the production input', kind: 'an equation-of-state series', values: `${i.eos.points} lattice constants spanning ±${i.eos.rangePercent} % around the starting value` },
      dependsOn: ['eos-input'],
    },
    runOn('eos-series', 'EOS series'),
    {
      id: 'eos-fit', title: `Fit ${i.eos.form} E(V)`, worker: 'dft', tool: 'fit_eos',
      args: { energies: '$all.eos-runs.total_energy', form: i.eos.form },
      reasons: { energies: 'every energy of the EOS series', form: `${i.eos.form}, the study's equation of state` },
      dependsOn: ['eos-runs'],
    },
    {
      id: 'lattice', title: 'Lattice constant from V0 through the cell symmetry', worker: 'dft', tool: 'lattice_constant_from_volume',
      args: { eosFit: '$step.eos-fit.eos_fit', structure: STRUCTURE_REF, bravais: i.structure, ...(i.cOverA ? { cOverA: i.cOverA } : {}) },
      reasons: { eosFit: 'the EOS fit', structure: 'the cell the series scaled', bravais: `the crystal is ${i.structure}`, ...(i.cOverA ? { cOverA: 'the c/a held fixed' } : {}) },
      dependsOn: ['eos-fit'],
    },
    {
      id: 'report', title: 'Report the lattice constant, bulk modulus and the converged settings', worker: 'dft', tool: 'write_report',
      args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
      reasons: { title: 'names the study', text: 'the result with the settings behind it', claims: 'one claim per reported number, each citing its artifact' },
      reportQuantities: ['lattice_constant', 'bulk_modulus', 'equilibrium_volume', 'converged_cutoff', 'converged_kspacing'],
      dependsOn: ['lattice'],
    },
  ];
}


export const LATTICE_CONSTANT: WorkflowTemplate = {
  id: 'lattice-constant',
  title: 'Lattice constant (Sol27LC style)',
  description:
    'The equilibrium lattice constant of an elemental crystal: cutoff sweep at the finest k-spacing, k sweep at the chosen ' +
    'cutoff, a ±5 % equation-of-state series at the chosen settings, a Birch–Murnaghan fit and the lattice constant from V0 ' +
    'through the cell symmetry; Fe, Co and Ni run spin-polarized. Inputs: element, structure, starting lattice constant (Å), ' +
    'functional, optionally the pseudopotential file and the sweeps.',
  inputSchema: LATTICE_CONSTANT_INPUT_SCHEMA,
  inputsFromText: latticeInputsFromText,
  resolveInputs: (inputs, env) => resolveLatticeInputs(inputs, env) as unknown as Record<string, unknown>,
  steps,
  objective,
  composers: LATTICE_REPORT_COMPOSERS,
};
