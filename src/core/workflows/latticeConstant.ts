/**
 * The lattice constant of any bulk crystal, Sol27LC style: structure (an element named with its
 * lattice, a binary compound with its prototype, or any crystal from the user's file), pseudopotentials,
 * a cutoff sweep at one k-spacing of the k sweep, a k sweep at the chosen cutoff, an EOS series
 * at the chosen settings, the fit, the lattice constant through the cell's symmetry, and a
 * report whose every number cites its artifact. The sweeps are judged by what the lattice
 * constant depends on, the pressure (the shift of a its error implies, with B from a probe of
 * the crystal at 0.99, 1 and 1.01 × a), by the energy per atom, or by both. A non-cubic crystal's
 * shape is relaxed first (vc-relax) and the EOS scales the relaxed cell (latticeConstantCrystal.ts).
 */
import { LATTICE_REPORT_COMPOSERS } from './latticeConstantReport';
import { latticeInputsFromText } from './latticeConstantText';
import {
  electronicArgs,
  electronicReasons,
  eosStructureRef,
  latticeArgs,
  pseudopotentialStep,
  PSEUDO_REF,
  relaxSteps,
  STRUCTURE_REF,
  structureStep,
} from './latticeConstantCrystalSteps';
import {
  DEFAULT_SHAPE_TOLERANCE_PERCENT,
  eosScaleFactors,
  LATTICE_CONSTANT_INPUT_SCHEMA,
  round,
  type LatticeConstantInputs,
} from './latticeConstantInputs';
import { loadLatticeStructureFile, resolveStudyInputs, studyObjective, studyObjectiveBeforeResolving } from './latticeConstantStudy';
import { defineWorkflow } from './defineWorkflow';
import { eosSteps } from './eosSteps';
import type { TemplateStep } from './types';

/** The probe the pressure criterion reads B from: the crystal at 0.99, 1 and 1.01 × a at the lowest cutoff (its middle point is the cutoff sweep's). */
export const PROBE_SCALES = [0.99, 1, 1.01];

function probeSteps(i: LatticeConstantInputs, lowestCut: number, sweepK: number): TemplateStep[] {
  return [
    {
      id: 'bulk-modulus-input',
      title: `Probe template at the lowest cutoff (${lowestCut} Ry) and k-spacing ${sweepK} 1/Å`,
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: STRUCTURE_REF,
        pseudopotentials: PSEUDO_REF,
        purpose: 'convergence-test',
        ...electronicArgs(i),
        ecutwfcRy: lowestCut,
        ecutrhoRy: round(i.dual * lowestCut, 6),
        kSpacingPerAngstrom: sweepK,
      },
      reasons: {
        structure: 'the crystal of the study',
        pseudopotentials: 'the chosen pseudopotential',
        purpose: 'a probe for the bulk modulus, which turns a pressure tolerance into one on a',
        calculation: 'single points with the stress',
        ...electronicReasons(i),
        ecutwfcRy: 'the cheapest cutoff of the sweep: B is needed to within tens of percent, not converged',
        ecutrhoRy: 'the charge-density cutoff that goes with it',
        kSpacingPerAngstrom: "the cutoff sweep's spacing, so the middle point is that sweep's run",
      },
      dependsOn: ['structure', 'pseudopotentials'],
    },
    {
      id: 'bulk-modulus-series',
      title: `Probe: a × ${PROBE_SCALES.join(', ')}`,
      worker: 'dft',
      tool: 'generate_series',
      args: { template: '$step.bulk-modulus-input.pw_input', kind: 'eos', values: PROBE_SCALES },
      reasons: {
        template: 'the probe template',
        kind: 'the crystal strained',
        values: '±1 % in a (±3 % in volume): pressures far apart enough to read −dP/dlnV, close enough to be linear',
      },
      dependsOn: ['bulk-modulus-input'],
    },
    {
      id: 'bulk-modulus-runs',
      title: 'Run pw.x on the probe',
      worker: 'hpc',
      tool: 'run_pw',
      args: { input: '$each.bulk-modulus-series.pw_input' },
      reasons: { input: 'each input of the probe' },
      dependsOn: ['bulk-modulus-series'],
    },
  ];
}

/** The study's plan for resolved inputs (also the bulk part of the site-preference study, sitePreference/bulkSteps.ts). */
export function latticeConstantSteps(i: LatticeConstantInputs): TemplateStep[] {
  // The cutoff sweep's run at the chosen cutoff is the k sweep's run at the cutoff sweep's spacing, the EOS
  // middle point the k sweep's run at the chosen spacing, and the probe's middle point the cutoff sweep's
  // lowest cutoff: run_pw reuses identical inputs, so none runs twice.
  const sweepK = i.cutoffSweepKSpacingPerAngstrom;
  const highestCut = Math.max(...i.cutoffsRy);
  const lowestCut = Math.min(...i.cutoffsRy);
  const byPressure = i.criterion !== 'energy';
  // A crystal whose shape the vc-relax sets: c/a follows the stress anisotropy, which the sweeps must converge too.
  const byShape = byPressure && i.cellMethod === 'vc-relax';
  const shapeTolerance = i.toleranceShapePercent ?? DEFAULT_SHAPE_TOLERANCE_PERCENT;
  const criterionArgs = (probe: 'probe' | 'cutoff-choice'): Record<string, unknown> => ({
    criterion: i.criterion,
    ...(i.criterion !== 'pressure' ? { toleranceMevPerAtom: i.toleranceMevPerAtom } : {}),
    ...(byPressure ? { toleranceLatticePercent: i.toleranceLatticePercent } : {}),
    ...(byPressure
      ? probe === 'probe'
        ? { bulkModulusFrom: '$all.bulk-modulus-runs.total_energy' }
        : { bulkModulusGPa: '$step.cutoff-choice.converged_settings.criterion.bulkModulusGPa' }
      : {}),
    ...(byShape ? { toleranceShapePercent: shapeTolerance } : {}),
    extensionBudgetSeconds: i.extensionBudgetSeconds,
  });
  const criterionReasons = (probe: 'probe' | 'cutoff-choice'): Record<string, string> => ({
    criterion:
      i.criterion === 'energy'
        ? 'the study states an energy tolerance: each run against the finest by its energy per atom'
        : `a lattice constant depends on the pressure, not on the absolute energy: each run against the finest by the shift of the lattice constant that its pressure error implies${i.criterion === 'both' ? ', and by its energy per atom' : ''}`,
    ...(i.criterion !== 'pressure' ? { toleranceMevPerAtom: "the study's energy tolerance" } : {}),
    ...(byPressure ? { toleranceLatticePercent: `the study's tolerance on a per sweep (${i.toleranceLatticePercent} %)` } : {}),
    ...(byPressure
      ? probe === 'probe'
        ? { bulkModulusFrom: 'the probe: the crystal at 0.99, 1 and 1.01 × a at the lowest cutoff, whose pressures give B = −dP/dlnV' }
        : { bulkModulusGPa: 'the bulk modulus the cutoff choice read from the probe' }
      : {}),
    ...(byShape
      ? {
          toleranceShapePercent: `${i.crystal?.formula ?? i.element} is ${i.crystal?.crystalSystem.toLowerCase() ?? 'not cubic'}: the vc-relax sets c/a from the stress anisotropy, which converges on its own k-mesh, so each run is also judged by the shift of c/a its deviatoric stress error implies (${shapeTolerance} %)`,
        }
      : {}),
    extensionBudgetSeconds: `an extension run predicted to take more than ${i.extensionBudgetSeconds} s of pw.x is not started without asking`,
  });
  const within =
    (i.criterion === 'energy'
      ? `${i.toleranceMevPerAtom} meV/atom`
      : i.criterion === 'pressure'
        ? `${i.toleranceLatticePercent} % of a`
        : `${i.toleranceMevPerAtom} meV/atom and ${i.toleranceLatticePercent} % of a`) + (byShape ? ` and ${shapeTolerance} % of c/a` : '');
  const scales = eosScaleFactors(i.eos.points, i.eos.rangePercent);
  const chosenCut = '$step.cutoff-choice.converged_settings.chosen.ecutwfcRy';
  const chosenRho = '$step.cutoff-choice.converged_settings.chosen.ecutrhoRy';
  const chosenK = '$step.k-choice.converged_settings.chosen.kSpacingPerAngstrom';
  const runOn = (seriesStep: string, what: string): TemplateStep => ({
    id: seriesStep.replace(/-series$/, '-runs'),
    title: `Run pw.x on every input of the ${what}`,
    worker: 'hpc',
    tool: 'run_pw',
    // no backend: run_pw runs where the run was started (the user's choice, nothing for a judge to weigh)
    args: { input: `$each.${seriesStep}.pw_input` },
    reasons: { input: `each input of the ${what}` },
    dependsOn: [seriesStep],
  });
  return [
    structureStep(i),
    pseudopotentialStep(i, i.origins?.pseudopotential),
    {
      id: 'cutoff-input',
      title: `Sweep template at the highest cutoff (${highestCut} Ry) and k-spacing ${sweepK} 1/Å`,
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: STRUCTURE_REF,
        pseudopotentials: PSEUDO_REF,
        purpose: 'convergence-test',
        ...electronicArgs(i),
        ecutwfcRy: highestCut,
        ecutrhoRy: round(i.dual * highestCut, 6),
        kSpacingPerAngstrom: sweepK,
      },
      reasons: {
        structure: 'the crystal of the study',
        pseudopotentials: 'the chosen pseudopotential',
        purpose: 'the template of the cutoff sweep',
        calculation: 'single-point energies',
        ...electronicReasons(i),
        ecutwfcRy: 'the highest cutoff of the sweep; the series varies it',
        ecutrhoRy:
          i.dual === 4 || i.dual === 8
            ? `${i.dual} × ecutwfc for this pseudopotential type`
            : `${i.dual} × ecutwfc, so that every cutoff of the sweep meets the file's suggested density cutoff`,
        kSpacingPerAngstrom: `a spacing the k sweep tests (${sweepK} 1/Å of ${i.kSpacingsPerAngstrom.join(', ')}): the k error is nearly the same at every cutoff and cancels in the comparison`,
      },
      dependsOn: ['structure', 'pseudopotentials'],
    },
    {
      id: 'cutoff-series',
      title: `Cutoff series ${i.cutoffsRy.join(', ')} Ry`,
      worker: 'dft',
      tool: 'generate_series',
      args: { template: '$step.cutoff-input.pw_input', kind: 'ecutwfc', values: i.cutoffsRy },
      reasons: { template: 'the sweep template', kind: 'a cutoff sweep', values: i.origins?.cutoffsRy ?? 'the cutoffs of the study' },
      dependsOn: ['cutoff-input'],
    },
    runOn('cutoff-series', 'cutoff series'),
    ...(byPressure ? probeSteps(i, lowestCut, sweepK) : []),
    {
      id: 'cutoff-choice',
      title: `Choose the cheapest cutoff within ${within}`,
      worker: 'dft',
      tool: 'select_converged_settings',
      args: { parameter: 'ecutwfc', energies: '$all.cutoff-runs.total_energy', ...criterionArgs('probe') },
      reasons: { parameter: 'the cutoff sweep', energies: 'every energy of the cutoff sweep', ...criterionReasons('probe') },
      dependsOn: ['cutoff-runs', ...(byPressure ? ['bulk-modulus-runs'] : [])],
    },
    {
      id: 'k-input',
      title: 'k-sweep template at the chosen cutoff',
      worker: 'dft',
      tool: 'make_pw_input',
      args: {
        structure: STRUCTURE_REF,
        pseudopotentials: PSEUDO_REF,
        purpose: 'convergence-test',
        ...electronicArgs(i),
        ecutwfcRy: chosenCut,
        ecutrhoRy: chosenRho,
        kSpacingPerAngstrom: sweepK,
      },
      reasons: {
        structure: 'the crystal of the study',
        pseudopotentials: 'the chosen pseudopotential',
        purpose: 'the template of the k sweep',
        calculation: 'single-point energies',
        ...electronicReasons(i),
        ecutwfcRy: 'the cutoff the cutoff sweep chose',
        ecutrhoRy: 'the charge-density cutoff that goes with it',
        kSpacingPerAngstrom: "the cutoff sweep's spacing; the series varies it",
      },
      dependsOn: ['cutoff-choice'],
    },
    {
      id: 'k-series',
      title: `k-spacing series ${i.kSpacingsPerAngstrom.join(', ')} 1/Å`,
      worker: 'dft',
      tool: 'generate_series',
      args: { template: '$step.k-input.pw_input', kind: 'kspacing', values: i.kSpacingsPerAngstrom },
      reasons: {
        template: 'the k-sweep template at the chosen cutoff',
        kind: 'a k-point sweep',
        values: `${i.kSpacingsPerAngstrom.length} spacings from coarse to fine; the finest, ${Math.min(...i.kSpacingsPerAngstrom)} 1/Å, is the reference each coarser one is judged against`,
      },
      dependsOn: ['k-input'],
    },
    runOn('k-series', 'k-spacing series'),
    {
      id: 'k-choice',
      title: `Choose the coarsest k-spacing within ${within}`,
      worker: 'dft',
      tool: 'select_converged_settings',
      args: { parameter: 'kspacing', energies: '$all.k-runs.total_energy', ...criterionArgs('cutoff-choice') },
      reasons: { parameter: 'the k-point sweep', energies: 'every energy of the k sweep', ...criterionReasons('cutoff-choice') },
      dependsOn: ['k-runs'],
    },
    ...relaxSteps(i, { cut: chosenCut, rho: chosenRho, k: chosenK }),
    ...eosSteps({
      input: {
        title: 'Production input at the chosen cutoff and k-spacing',
        tool: 'make_pw_input',
        args: {
          structure: eosStructureRef(i),
          pseudopotentials: PSEUDO_REF,
          purpose: 'production',
          ...electronicArgs(i),
          ecutwfcRy: chosenCut,
          ecutrhoRy: chosenRho,
          kSpacingPerAngstrom: chosenK,
        },
        reasons: {
          structure:
            i.cellMethod === 'vc-relax'
              ? 'the relaxed cell; the series scales it isotropically around its volume'
              : 'the crystal at the starting lattice constant; the series scales it',
          pseudopotentials: 'the chosen pseudopotential',
          purpose: 'its energies give the result',
          calculation: 'single-point energies',
          ...electronicReasons(i),
          ecutwfcRy: 'the converged cutoff',
          ecutrhoRy: 'the charge-density cutoff that goes with it',
          kSpacingPerAngstrom: 'the converged k-spacing',
        },
        dependsOn: [i.cellMethod === 'vc-relax' ? 'relaxed' : 'k-choice'],
      },
      scales,
      form: i.eos.form,
      titles: { series: 'EOS series', runs: 'Run pw.x on every input of the EOS series', fit: `Fit ${i.eos.form} E(V)` },
      reasons: {
        template: 'the production input',
        values: `${i.eos.points} lattice constants spanning ±${i.eos.rangePercent} % around the starting value`,
        form: `${i.eos.form}, the study's equation of state`,
      },
    }),
    {
      id: 'lattice',
      title:
        i.crystal && !i.crystal.cubic
          ? 'Lattice parameters (a, c/a, volume) from V0 through the cell symmetry'
          : 'Lattice constant from V0 through the cell symmetry',
      worker: 'dft',
      tool: 'lattice_constant_from_volume',
      ...latticeArgs(i),
      dependsOn: ['eos-fit'],
    },
    {
      id: 'report',
      title: 'Report the lattice constant, bulk modulus and the converged settings',
      worker: 'dft',
      tool: 'write_report',
      args: { title: { $compose: 'title' }, text: { $compose: 'text' }, claims: { $compose: 'claims' } },
      reasons: {
        title: 'names the study',
        text: 'the result with the settings behind it',
        claims: 'one claim per reported number, each citing its artifact',
      },
      reportQuantities: [
        'lattice_constant',
        ...(i.crystal && !i.crystal.cubic ? ['lattice_parameters'] : []),
        'bulk_modulus',
        'equilibrium_volume',
        'converged_cutoff',
        'converged_kspacing',
      ],
      dependsOn: ['lattice'],
    },
  ];
}

export const LATTICE_CONSTANT = defineWorkflow({
  id: 'lattice-constant',
  title: 'Lattice constant (Sol27LC style)',
  description:
    'The equilibrium lattice constant of any bulk crystal: an element named with its lattice, a binary compound named with its prototype ' +
    '(elements: [Ga, As], structure: zincblende; rocksalt, cesiumchloride; a of the conventional cubic cell), or a compound or non-cubic cell read from a structure file ' +
    '(structure: { file: NaCl.cif }): cutoff sweep at one k-spacing, k sweep at the chosen cutoff, ' +
    'each judged by the shift of the lattice constant that its pressure error implies (default 0.05 % of a, B from a probe at ±1 % of a), by the energy ' +
    'per atom, or both; sweeps extended one value at a time within a time budget; a ±5 % equation-of-state series at the chosen ' +
    "settings (a non-cubic crystal's shape relaxed first by a vc-relax, the EOS around its volume), a Birch–Murnaghan fit and the lattice " +
    'parameters from V0 through the symmetry of the cell (a; a, c/a and the volume for non-cubic crystals); crystals with Cr, Mn, Fe, Co, Ni run spin-polarized. ' +
    'Inputs: element (or two elements), structure and starting lattice constant (Å), or structure: { file }; functional, optionally the pseudopotential file(s), the sweeps and the criterion.',
  inputSchema: LATTICE_CONSTANT_INPUT_SCHEMA,
  inputsFromText: latticeInputsFromText,
  loadInputFiles: loadLatticeStructureFile,
  resolveInputs: resolveStudyInputs,
  steps: latticeConstantSteps,
  objective: studyObjective,
  objectiveBeforeResolving: studyObjectiveBeforeResolving,
  composers: LATTICE_REPORT_COMPOSERS,
});
