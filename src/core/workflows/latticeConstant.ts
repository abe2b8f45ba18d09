/**
 * The lattice constant of an elemental crystal, Sol27LC style: structure, pseudopotential,
 * a cutoff sweep at one k-spacing of the k sweep, a k sweep at the chosen cutoff, an EOS series
 * at the chosen settings, the fit, the lattice constant through the cell's symmetry, and a
 * report whose every number cites its artifact. The sweeps are judged by what the lattice
 * constant depends on, the pressure (the shift of a its error implies, with B from a probe of
 * the crystal at 0.99, 1 and 1.01 × a), by the energy per atom, or by both.
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

/** The probe the pressure criterion reads B from: the crystal at 0.99, 1 and 1.01 × a at the lowest cutoff (its middle point is the cutoff sweep's). */
export const PROBE_SCALES = [0.99, 1, 1.01];

function probeSteps(i: LatticeConstantInputs, lowestCut: number, sweepK: number): TemplateStep[] {
  return [
    {
      id: 'bulk-modulus-input', title: `Probe template at the lowest cutoff (${lowestCut} Ry) and k-spacing ${sweepK} 1/Å`, worker: 'dft', tool: 'make_pw_input',
      args: { structure: STRUCTURE_REF, pseudopotentials: PSEUDO_REF, purpose: 'convergence-test', ...electronicArgs(i), ecutwfcRy: lowestCut, ecutrhoRy: round(i.dual * lowestCut, 6), kSpacingPerAngstrom: sweepK },
      reasons: {
        structure: 'the crystal of the study', pseudopotentials: 'the chosen pseudopotential', purpose: 'a probe for the bulk modulus, which turns a pressure tolerance into one on a',
        calculation: 'single points with the stress', ...electronicReasons(i),
        ecutwfcRy: 'the cheapest cutoff of the sweep: B is needed to within tens of percent, not converged', ecutrhoRy: 'the charge-density cutoff that goes with it',
        kSpacingPerAngstrom: 'the cutoff sweep\'s spacing, so the middle point is that sweep\'s run',
      },
      dependsOn: ['structure', 'pseudopotentials'],
    },
    {
      id: 'bulk-modulus-series', title: `Probe: a × ${PROBE_SCALES.join(', ')}`, worker: 'dft', tool: 'generate_series',
      args: { template: '$step.bulk-modulus-input.pw_input', kind: 'eos', values: PROBE_SCALES },
      reasons: { template: 'the probe template', kind: 'the crystal strained', values: '±1 % in a (±3 % in volume): pressures far apart enough to read −dP/dlnV, close enough to be linear' },
      dependsOn: ['bulk-modulus-input'],
    },
    {
      id: 'bulk-modulus-runs', title: 'Run pw.x on the probe', worker: 'hpc', tool: 'run_pw',
      args: { input: '$each.bulk-modulus-series.pw_input', backend: '$run.backend' },
      reasons: { input: 'each input of the probe', backend: 'the backend this run was started with' },
      dependsOn: ['bulk-modulus-series'],
    },
  ];
}

function steps(raw: Record<string, unknown>): TemplateStep[] {
  const i = raw as unknown as LatticeConstantInputs;
  // The cutoff sweep's run at the chosen cutoff is the k sweep's run at the cutoff sweep's spacing, the EOS
  // middle point the k sweep's run at the chosen spacing, and the probe's middle point the cutoff sweep's
  // lowest cutoff: run_pw reuses identical inputs, so none runs twice.
  const sweepK = i.cutoffSweepKSpacingPerAngstrom;
  const highestCut = Math.max(...i.cutoffsRy);
  const lowestCut = Math.min(...i.cutoffsRy);
  const byPressure = i.criterion !== 'energy';
  const criterionArgs = (probe: 'probe' | 'cutoff-choice'): Record<string, unknown> => ({
    criterion: i.criterion,
    ...(i.criterion !== 'pressure' ? { toleranceMevPerAtom: i.toleranceMevPerAtom } : {}),
    ...(byPressure ? { toleranceLatticePercent: i.toleranceLatticePercent } : {}),
    ...(byPressure ? (probe === 'probe' ? { bulkModulusFrom: '$all.bulk-modulus-runs.total_energy' } : { bulkModulusGPa: '$step.cutoff-choice.converged_settings.criterion.bulkModulusGPa' }) : {}),
    extensionBudgetSeconds: i.extensionBudgetSeconds,
  });
  const criterionReasons = (probe: 'probe' | 'cutoff-choice'): Record<string, string> => ({
    criterion: i.criterion === 'energy'
      ? 'the study states an energy tolerance: each run against the finest by its energy per atom'
      : `a lattice constant depends on the pressure, not on the absolute energy: each run against the finest by the shift of a its pressure error implies${i.criterion === 'both' ? ', and by its energy per atom' : ''}`,
    ...(i.criterion !== 'pressure' ? { toleranceMevPerAtom: "the study's energy tolerance" } : {}),
    ...(byPressure ? { toleranceLatticePercent: `the study's tolerance on a per sweep (${i.toleranceLatticePercent} %)` } : {}),
    ...(byPressure ? (probe === 'probe'
      ? { bulkModulusFrom: 'the probe: the crystal at 0.99, 1 and 1.01 × a at the lowest cutoff, whose pressures give B = −dP/dlnV' }
      : { bulkModulusGPa: 'the bulk modulus the cutoff choice read from the probe' }) : {}),
    extensionBudgetSeconds: `an extension run predicted to take more than ${i.extensionBudgetSeconds} s of pw.x is not started without asking`,
  });
  const within = i.criterion === 'energy' ? `${i.toleranceMevPerAtom} meV/atom`
    : i.criterion === 'pressure' ? `${i.toleranceLatticePercent} % of a` : `${i.toleranceMevPerAtom} meV/atom and ${i.toleranceLatticePercent} % of a`;
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
      id: 'cutoff-input', title: `Sweep template at the highest cutoff (${highestCut} Ry) and k-spacing ${sweepK} 1/Å`, worker: 'dft', tool: 'make_pw_input',
      args: { structure: STRUCTURE_REF, pseudopotentials: PSEUDO_REF, purpose: 'convergence-test', ...electronicArgs(i), ecutwfcRy: highestCut, ecutrhoRy: round(i.dual * highestCut, 6), kSpacingPerAngstrom: sweepK },
      reasons: {
        structure: 'the crystal of the study', pseudopotentials: 'the chosen pseudopotential', purpose: 'the template of the cutoff sweep',
        calculation: 'single-point energies', ...electronicReasons(i),
        ecutwfcRy: 'the highest cutoff of the sweep; the series varies it', ecutrhoRy: i.dual === 4 || i.dual === 8 ? `${i.dual} × ecutwfc for this pseudopotential type` : `${i.dual} × ecutwfc, so that every cutoff of the sweep meets the file's suggested density cutoff`,
        kSpacingPerAngstrom: `a spacing the k sweep tests (${sweepK} 1/Å of ${i.kSpacingsPerAngstrom.join(', ')}): the k error is nearly the same at every cutoff and cancels in the comparison`,
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
    ...(byPressure ? probeSteps(i, lowestCut, sweepK) : []),
    {
      id: 'cutoff-choice', title: `Choose the cheapest cutoff within ${within}`, worker: 'dft', tool: 'select_converged_settings',
      args: { parameter: 'ecutwfc', energies: '$all.cutoff-runs.total_energy', ...criterionArgs('probe') },
      reasons: { parameter: 'the cutoff sweep', energies: 'every energy of the cutoff sweep', ...criterionReasons('probe') },
      dependsOn: ['cutoff-runs', ...(byPressure ? ['bulk-modulus-runs'] : [])],
    },
    {
      id: 'k-input', title: 'k-sweep template at the chosen cutoff', worker: 'dft', tool: 'make_pw_input',
      args: { structure: STRUCTURE_REF, pseudopotentials: PSEUDO_REF, purpose: 'convergence-test', ...electronicArgs(i), ecutwfcRy: chosenCut, ecutrhoRy: chosenRho, kSpacingPerAngstrom: sweepK },
      reasons: {
        structure: 'the crystal of the study', pseudopotentials: 'the chosen pseudopotential', purpose: 'the template of the k sweep',
        calculation: 'single-point energies', ...electronicReasons(i),
        ecutwfcRy: 'the cutoff the cutoff sweep chose', ecutrhoRy: 'the charge-density cutoff that goes with it',
        kSpacingPerAngstrom: 'the cutoff sweep\'s spacing; the series varies it',
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
      id: 'k-choice', title: `Choose the coarsest k-spacing within ${within}`, worker: 'dft', tool: 'select_converged_settings',
      args: { parameter: 'kspacing', energies: '$all.k-runs.total_energy', ...criterionArgs('cutoff-choice') },
      reasons: { parameter: 'the k-point sweep', energies: 'every energy of the k sweep', ...criterionReasons('cutoff-choice') },
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
    'The equilibrium lattice constant of an elemental crystal: cutoff sweep at one k-spacing, k sweep at the chosen cutoff, ' +
    'each judged by the shift of a its pressure error implies (default 0.05 % of a, B from a probe at ±1 % of a), by the energy ' +
    'per atom, or both; sweeps extended one value at a time within a time budget; a ±5 % equation-of-state series at the chosen ' +
    'settings, a Birch–Murnaghan fit and the lattice constant from V0 through the cell symmetry; Fe, Co and Ni run spin-polarized. ' +
    'Inputs: element, structure, starting lattice constant (Å), functional, optionally the pseudopotential file, the sweeps and the criterion.',
  inputSchema: LATTICE_CONSTANT_INPUT_SCHEMA,
  inputsFromText: latticeInputsFromText,
  resolveInputs: (inputs, env) => resolveLatticeInputs(inputs, env) as unknown as Record<string, unknown>,
  steps,
  objective,
  composers: LATTICE_REPORT_COMPOSERS,
};
