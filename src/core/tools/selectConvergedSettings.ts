/**
 * select_converged_settings: the cheapest converged cutoff or k-spacing of a sweep (dft/convergence.ts),
 * judged by energy (meV/atom), by pressure (the shift of a it implies, % of a) or both; when not converged,
 * the next value to try with its predicted pw.x time against the extension budget (dft/convergenceExtension.ts).
 * For a crystal whose shape is relaxed, also by the shift of c/a its deviatoric stress error implies (dft/convergenceShape.ts).
 * A magnetic study judges the magnetization per atom (μB), a band-gap study the gap at each run's k-mesh (eV), a relaxation
 * the forces (the largest difference of a force component, eV/Å), alone or beside a looser energy tolerance.
 */
import {
  CRITERION_KINDS,
  describeCriterion,
  judgesEnergy,
  judgesPressure,
  selectConvergedValue,
  VANISHING_FORCE_EV_PER_ANGSTROM,
  type CriterionKind,
  type SweepCriterion,
} from '../dft/convergence';
import { kPointsAt, predictRunSeconds, type MeasuredRun } from '../dft/convergenceExtension';
import { bulkModulusFromPressures } from '../dft/convergencePressure';
import { SHAPE_MODULUS_PER_BULK, shapeModulusFromBulk } from '../dft/convergenceShape';
import type { Cell, Vec3 } from '../dft/types';
import { artifactRefListSchema, quantitySchema } from '../guard/schemaAnnotations';
import { ARTIFACT, type ConvergenceSelectionValue, type SweptParameter } from '../artifacts/shapes';
import { ARTIFACTS } from '../artifacts/contracts';
import { defineTool } from './defineTool';
import { energyInputs, type EnergyInput } from './energyInputs';

interface Args {
  parameter: SweptParameter;
  energies: string[];
  criterion?: CriterionKind;
  toleranceMevPerAtom?: number;
  toleranceLatticePercent?: number;
  bulkModulusFrom?: string[];
  bulkModulusGPa?: number;
  toleranceShapePercent?: number;
  shapeModulusGPa?: number;
  toleranceMomentMuBPerAtom?: number;
  toleranceGapEv?: number;
  toleranceForceEvPerAngstrom?: number;
  extensionBudgetSeconds?: number;
}

/** pw.x's own time for a run: its wall clock as printed, else its CPU time. */
const secondsOf = (e: EnergyInput): number | undefined => {
  const m = e.meta as { wallTimeSeconds?: number; cpuTimeSeconds?: number };
  return m.wallTimeSeconds ?? m.cpuTimeSeconds;
};

const meshProduct = (m: [number, number, number] | undefined): number | undefined => (m ? m[0] * m[1] * m[2] : undefined);

export const selectConvergedSettingsTool = defineTool({
  name: 'select_converged_settings',
  description:
    'Choose the cheapest converged value of a sweep: the cutoff (ecutwfc) or the k-spacing (swept at the chosen cutoff). Each run ' +
    'is judged against the finest run of the sweep by the criterion: energy (|ΔE| per atom, meV/atom), pressure (the shift of the ' +
    "lattice constant its pressure error implies, |ΔP|/3B in % of a; B from a probe of strained cells or given; a cutoff sweep's " +
    "pressures with the Pulay term (2/3)(Ecut/V)|dE/dEcut| a constant-cutoff EOS also feels added, so they differ from pw.x's raw stress, " +
    'pulayKbar in the table), or both. For a crystal whose shape is relaxed (non-cubic), toleranceShapePercent also judges each run by the ' +
    'shift of c/a its deviatoric stress error implies (|Δs|/C, C = B/2 unless given), since c/a follows the stress anisotropy, not the pressure. ' +
    'moment judges the magnetization per atom of spin-polarised runs (the larger change of total and absolute, μB), gap the band gap at each ' +
    "run's own k-mesh (eV; runs with fixed occupations or bands above the occupied ones), force the forces a relaxation follows (the largest " +
    'difference of one force component on one atom against the finest run, eV/Å, the measure of forc_conv_thr; runs printing forces, ' +
    'on a geometry whose atoms feel one); toleranceMomentMuBPerAtom, toleranceGapEv and toleranceForceEvPerAngstrom also ' +
    'add them beside energy, so the reported quantity is converged tightly and the total energy to a looser, stated tolerance. The ' +
    'choice is the cheapest value from which every finer value meets it. If only the finest value does, the result is provisional ' +
    'and names the next value to run, with its predicted pw.x time against the extension budget.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      parameter: { type: 'string', enum: ['ecutwfc', 'kspacing'], description: 'The swept setting.' },
      energies: artifactRefListSchema(
        'Total energies of the sweep (run_pw outputs), one per tested value.',
        { names: [ARTIFACT.totalEnergy], kinds: ['scalar'], unit: 'eV' },
        { minItems: 3 },
      ),
      criterion: {
        type: 'string',
        enum: [...CRITERION_KINDS],
        description:
          'What each run is judged by against the finest: energy (default), pressure, both (energy and pressure), moment, gap or force.',
      },
      toleranceMevPerAtom: quantitySchema('Largest tolerated energy error per atom against the finest run (energy, both)', 'meV/atom', {
        exclusiveMinimum: 0,
      }),
      toleranceMomentMuBPerAtom: quantitySchema(
        'Largest tolerated change of the magnetization per atom against the finest run (moment, or beside another criterion)',
        'μB',
        { exclusiveMinimum: 0, maximum: 1 },
      ),
      toleranceGapEv: quantitySchema(
        "Largest tolerated change of the band gap at each run's own k-mesh against the finest run (gap, or beside another criterion)",
        'eV',
        { exclusiveMinimum: 0, maximum: 1 },
      ),
      toleranceForceEvPerAngstrom: quantitySchema(
        'Largest tolerated difference of any force component on any atom against the finest run (force, or beside another criterion)',
        'eV/Å',
        { exclusiveMinimum: 0, maximum: 1 },
      ),
      toleranceLatticePercent: quantitySchema(
        'Largest tolerated shift of the lattice constant its pressure error implies, in percent of a (pressure, both)',
        '1',
        { exclusiveMinimum: 0, maximum: 5 },
      ),
      bulkModulusFrom: artifactRefListSchema(
        'Pressure criterion: total energies of the same crystal at two or more strained cells and one setting (a probe); B = −dP/dlnV from their pressures.',
        { names: [ARTIFACT.totalEnergy], kinds: ['scalar'], unit: 'eV' },
        { minItems: 2 },
      ),
      bulkModulusGPa: quantitySchema(
        "Pressure criterion: the bulk modulus, when it is known (e.g. from an earlier selection's probe)",
        'GPa',
        { exclusiveMinimum: 0 },
      ),
      toleranceShapePercent: quantitySchema(
        'Non-cubic crystals whose shape is relaxed: largest tolerated shift of c/a (the cell shape) its deviatoric stress error implies, in percent',
        '1',
        { exclusiveMinimum: 0, maximum: 5 },
      ),
      shapeModulusGPa: quantitySchema(
        `With toleranceShapePercent: the modulus against a change of shape at constant volume, when known (default ${SHAPE_MODULUS_PER_BULK} × the bulk modulus)`,
        'GPa',
        { exclusiveMinimum: 0 },
      ),
      extensionBudgetSeconds: quantitySchema(
        'When the sweep must be extended: the largest predicted pw.x time of the next run that may be started without asking',
        's',
        { exclusiveMinimum: 0 },
      ),
    },
    required: ['parameter', 'energies'],
    // the energy criterion (the default) needs its tolerance in meV/atom; pressure and both need the tolerance on a
    allOf: [
      {
        if: { type: 'object', required: ['criterion'], properties: { criterion: { enum: ['pressure', 'both'] } } },
        then: { required: ['toleranceLatticePercent'] },
      },
      {
        if: { type: 'object', required: ['criterion'], properties: { criterion: { enum: ['pressure', 'moment', 'gap', 'force'] } } },
        else: { required: ['toleranceMevPerAtom'] },
      },
      {
        if: { type: 'object', required: ['criterion'], properties: { criterion: { const: 'moment' } } },
        then: { required: ['toleranceMomentMuBPerAtom'] },
      },
      {
        if: { type: 'object', required: ['criterion'], properties: { criterion: { const: 'gap' } } },
        then: { required: ['toleranceGapEv'] },
      },
      {
        if: { type: 'object', required: ['criterion'], properties: { criterion: { const: 'force' } } },
        then: { required: ['toleranceForceEvPerAngstrom'] },
      },
    ],
    additionalProperties: false,
  },
  rules: ['settings-comparable'],
  outputs: [ARTIFACTS.convergedSettings],
  crossParameterJudge: true,
  parameterNotes: {
    toleranceMevPerAtom:
      '1 meV/atom or tighter when total energies are compared; for adsorption energies, well below the energy differences reported.',
    toleranceLatticePercent: 'for a lattice constant, well below the accuracy the study wants (0.05 % of a per sweep for a 0.2 % target).',
    toleranceMomentMuBPerAtom:
      'for a magnetic moment, 0.02 μB/atom: pw.x prints the magnetization to 0.01 μB per cell, so a change of one printed digit passes and two do not.',
    toleranceGapEv: 'for a band gap, 0.01 eV, well below the 0.05 eV a gap is usually quoted to.',
    toleranceForceEvPerAngstrom:
      'for a relaxation, half its force threshold (0.005 eV/Å for forc_conv_thr 0.01): a geometry relaxed at the chosen settings then has forces below about 1.5× the threshold at the finest (an estimate: the forces of the sweep are those of its starting geometry). Forces that vanish by symmetry judge nothing: keep an energy tolerance beside.',
    toleranceShapePercent:
      'only for a crystal whose shape a vc-relax sets (hexagonal, tetragonal, …); as tight on c/a as the study is on a. A cubic crystal has no shape to converge.',
    criterion: 'a lattice constant depends on the pressure (energy differences between volumes), not on the absolute energy.',
    energies: 'every run of one sweep, differing only in the swept setting, all converged SCF runs.',
  },
  async run(args, ctx) {
    const kind = args.criterion ?? 'energy';
    const inputs = energyInputs(ctx, args.energies, 'select_converged_settings');
    let bulkModulus: ConvergenceSelectionValue['bulkModulus'];
    if (judgesPressure(kind)) {
      if (args.bulkModulusFrom?.length) {
        const probe = energyInputs(ctx, args.bulkModulusFrom, 'select_converged_settings');
        const b = bulkModulusFromPressures(
          probe.map((p) => ({ volumeAngstrom3: p.meta.volumeAngstrom3, pressureKbar: p.meta.pressureKbar ?? NaN })),
        );
        bulkModulus = { valueGPa: b.gpa, note: b.note, from: probe.map((p) => p.ref), atCellGPa: b.atCellGPa, pressureGPa: b.pressureGPa };
      } else if (args.bulkModulusGPa !== undefined) {
        // the reference it was taken from, when the call named one (a study hands a probe's B on so), is kept with it
        const ref = ctx.references.bulkModulusGPa;
        bulkModulus = {
          valueGPa: args.bulkModulusGPa,
          note: `B = ${args.bulkModulusGPa} GPa ${ref ? `taken from ${ref}` : 'as given'}`,
          from: [],
          given: ref ? { ref } : {},
        };
      } else {
        throw new Error(
          'select_converged_settings: the pressure criterion turns a pressure error into a shift of a with the bulk modulus: give bulkModulusFrom (the energies of a probe of strained cells) or bulkModulusGPa.',
        );
      }
    }
    let shapeModulusGPa: number | undefined;
    if (args.toleranceShapePercent !== undefined) {
      shapeModulusGPa = args.shapeModulusGPa ?? (bulkModulus ? shapeModulusFromBulk(bulkModulus.valueGPa) : undefined);
      if (shapeModulusGPa === undefined) {
        throw new Error(
          'select_converged_settings: the shape criterion turns a deviatoric stress error into a shift of c/a with a shape modulus: give shapeModulusGPa, or use the pressure criterion, whose bulk modulus gives one.',
        );
      }
    }
    const criterion: SweepCriterion = {
      kind,
      ...(judgesEnergy(kind) ? { toleranceMevPerAtom: args.toleranceMevPerAtom } : {}),
      ...(judgesPressure(kind) ? { toleranceLatticePercent: args.toleranceLatticePercent, bulkModulusGPa: bulkModulus!.valueGPa } : {}),
      ...(shapeModulusGPa !== undefined ? { toleranceShapePercent: args.toleranceShapePercent, shapeModulusGPa } : {}),
      ...(args.toleranceMomentMuBPerAtom !== undefined ? { toleranceMomentMuBPerAtom: args.toleranceMomentMuBPerAtom } : {}),
      ...(args.toleranceGapEv !== undefined ? { toleranceGapEv: args.toleranceGapEv } : {}),
      ...(args.toleranceForceEvPerAngstrom !== undefined ? { toleranceForceEvPerAngstrom: args.toleranceForceEvPerAngstrom } : {}),
    };
    const cell = inputs[0]?.meta.cellAngstrom as Cell | undefined;
    const sel = selectConvergedValue(
      args.parameter,
      inputs.map((e) => ({
        energyEv: e.energyEv,
        natoms: e.meta.natoms,
        settings: e.meta.settings,
        label: e.ref,
        ...(typeof e.meta.pressureKbar === 'number' ? { pressureKbar: e.meta.pressureKbar } : {}),
        ...(e.meta.stressKbar ? { stressKbar: e.meta.stressKbar } : {}),
        ...(typeof e.meta.volumeAngstrom3 === 'number' ? { volumeAngstrom3: e.meta.volumeAngstrom3 } : {}),
        ...momentAndGapOf(e),
        ...(Array.isArray(e.meta.forcesEvPerAngstrom) ? { forcesEvPerAngstrom: e.meta.forcesEvPerAngstrom as Vec3[] } : {}),
      })),
      criterion,
      cell ? { cellAngstrom: cell } : {},
    );
    const converged = sel.outcome.status === 'converged';
    const chosenValue = converged ? (sel.outcome as { chosenValue: number }).chosenValue : sel.referenceValue;
    const swept = (e: EnergyInput) => (args.parameter === 'ecutwfc' ? e.meta.settings.ecutwfcRy : e.meta.settings.kSpacingPerAngstrom);
    const atChosen = inputs.find((e) => swept(e) === chosenValue)!;
    const byRef = new Map(inputs.map((e) => [e.ref, e]));
    const value: ConvergenceSelectionValue = {
      parameter: args.parameter,
      tested: sel.table.map((r) => {
        const e = byRef.get(r.label!);
        const seconds = e && secondsOf(e);
        return {
          value: r.value,
          energyEvPerAtom: r.energyPerAtomEv,
          deltaMevPerAtom: r.errorMevPerAtom,
          ...(r.pressureKbar !== undefined ? { pressureKbar: r.pressureKbar } : {}),
          ...(r.pulayKbar !== undefined ? { pulayKbar: r.pulayKbar } : {}),
          ...(r.pressureErrorKbar !== undefined ? { deltaPressureKbar: r.pressureErrorKbar } : {}),
          ...(r.latticeShiftPercent !== undefined ? { latticeShiftPercent: r.latticeShiftPercent } : {}),
          ...(r.deviatoricErrorKbar !== undefined
            ? { deviatoricErrorKbar: r.deviatoricErrorKbar, shapeShiftPercent: r.shapeShiftPercent! }
            : {}),
          ...(r.magnetizationMuBPerAtom !== undefined ? { magnetizationMuBPerAtom: r.magnetizationMuBPerAtom } : {}),
          ...(r.absoluteMagnetizationMuBPerAtom !== undefined
            ? { absoluteMagnetizationMuBPerAtom: r.absoluteMagnetizationMuBPerAtom }
            : {}),
          ...(r.momentErrorMuBPerAtom !== undefined ? { deltaMomentMuBPerAtom: r.momentErrorMuBPerAtom } : {}),
          ...(r.gapEv !== undefined ? { gapEv: r.gapEv } : {}),
          ...(r.gapErrorEv !== undefined ? { deltaGapEv: r.gapErrorEv } : {}),
          ...(r.maxForceEvPerAngstrom !== undefined ? { maxForceEvPerAngstrom: r.maxForceEvPerAngstrom } : {}),
          ...(r.forceErrorEvPerAngstrom !== undefined ? { deltaForceEvPerAngstrom: r.forceErrorEvPerAngstrom } : {}),
          ...(e?.meta.settings.kMesh ? { kMesh: e.meta.settings.kMesh } : {}),
          ...(seconds !== undefined ? { seconds } : {}),
        };
      }),
      chosenValue,
      chosen:
        args.parameter === 'ecutwfc'
          ? { ecutwfcRy: chosenValue, ecutrhoRy: atChosen.meta.settings.ecutrhoRy }
          : { kSpacingPerAngstrom: chosenValue },
      ...(sel.thresholdMevPerAtom !== undefined ? { toleranceMevPerAtom: sel.thresholdMevPerAtom } : {}),
      criterion: {
        kind,
        ...(criterion.toleranceMevPerAtom !== undefined ? { toleranceMevPerAtom: criterion.toleranceMevPerAtom } : {}),
        ...(criterion.toleranceLatticePercent !== undefined
          ? { toleranceLatticePercent: criterion.toleranceLatticePercent, bulkModulusGPa: criterion.bulkModulusGPa }
          : {}),
        ...(criterion.toleranceShapePercent !== undefined
          ? { toleranceShapePercent: criterion.toleranceShapePercent, shapeModulusGPa: criterion.shapeModulusGPa }
          : {}),
        ...(criterion.toleranceMomentMuBPerAtom !== undefined ? { toleranceMomentMuBPerAtom: criterion.toleranceMomentMuBPerAtom } : {}),
        ...(criterion.toleranceGapEv !== undefined ? { toleranceGapEv: criterion.toleranceGapEv } : {}),
        ...(criterion.toleranceForceEvPerAngstrom !== undefined
          ? { toleranceForceEvPerAngstrom: criterion.toleranceForceEvPerAngstrom }
          : {}),
      },
      ...(bulkModulus ? { bulkModulus } : {}),
      converged,
    };
    if (sel.outcome.status === 'needs-finer-sweep') value.extension = extensionOf(args, sel.outcome.suggestedValues[0]!, inputs, cell);
    const unit = sel.unit;
    // beside another criterion, forces that vanish in every run (symmetric sites) pass trivially: say that the other decided
    const vanishingForces =
      criterion.toleranceForceEvPerAngstrom !== undefined &&
      sel.table.every((r) => (r.maxForceEvPerAngstrom ?? 0) < VANISHING_FORCE_EV_PER_ANGSTROM)
        ? `The forces vanish in every run (below ${VANISHING_FORCE_EV_PER_ANGSTROM} eV/Å: the atoms sit where symmetry cancels them), so they judged nothing: the ${criterion.kind} criterion decided.`
        : '';
    const ext = value.extension;
    const extText = ext
      ? ` The next run (${ext.value} ${unit}${ext.kMesh ? `, ${ext.kMesh.join('×')}` : ''}) is predicted to take ${ext.predictedSeconds !== undefined ? `~${Math.round(ext.predictedSeconds)} s of pw.x (${ext.predictedFrom})` : 'an unknown time (no run of the sweep has a measured time)'}` +
        (ext.budgetSeconds !== undefined
          ? ext.withinBudget
            ? `, within the budget of ${ext.budgetSeconds} s.`
            : `, over the budget of ${ext.budgetSeconds} s: ask before running it.`
          : '.')
      : '';
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.convergedSettings,
          value,
          status: converged ? 'final' : 'provisional',
          meta: { settings: atChosen.meta.settings, unit },
        },
      ],
      summary: converged
        ? `${args.parameter} converged at ${chosenValue} ${unit} (${describeCriterion(criterion)} of ${sel.referenceValue} ${unit}; tested ${sel.table.map((r) => r.value).join(', ')})` +
          (bulkModulus?.from.length ? `; B from the probe: ${bulkModulus.note}` : '') +
          (vanishingForces ? `. ${vanishingForces}` : '')
        : (sel.outcome as { message: string }).message + (vanishingForces ? ` ${vanishingForces}` : '') + extText,
    };
  },
});

/**
 * The magnetization (per cell, μB) and the gap (eV) run_pw recorded of a run: the magnetization of a
 * spin-polarised run, the gap when pw.x printed the highest occupied and lowest unoccupied levels.
 */
function momentAndGapOf(e: EnergyInput): { magnetizationMuB?: number; absoluteMagnetizationMuB?: number; gapEv?: number } {
  const m = e.meta.magnetization as { totalBohrMagnetonPerCell?: number; absoluteBohrMagnetonPerCell?: number } | undefined;
  const homo = e.meta.highestOccupiedEv;
  const lumo = e.meta.lowestUnoccupiedEv;
  return {
    ...(typeof m?.totalBohrMagnetonPerCell === 'number' ? { magnetizationMuB: m.totalBohrMagnetonPerCell } : {}),
    ...(typeof m?.absoluteBohrMagnetonPerCell === 'number' ? { absoluteMagnetizationMuB: m.absoluteBohrMagnetonPerCell } : {}),
    ...(typeof homo === 'number' && typeof lumo === 'number' ? { gapEv: lumo - homo } : {}),
  };
}

/** The next value's mesh, predicted time (plane waves × k-points from the sweep's measured runs) and whether it is within the budget. */
function extensionOf(
  args: Args,
  next: number,
  inputs: EnergyInput[],
  cell: Cell | undefined,
): NonNullable<ConvergenceSelectionValue['extension']> {
  const measured: MeasuredRun[] = inputs.flatMap((e) => {
    const seconds = secondsOf(e);
    const k = meshProduct(e.meta.settings.kMesh);
    return seconds !== undefined && k !== undefined ? [{ ecutwfcRy: e.meta.settings.ecutwfcRy, kPoints: k, seconds }] : [];
  });
  const sample = inputs[0]!.meta.settings;
  const mesh = args.parameter === 'kspacing' && cell ? kPointsAt(cell, next).mesh : undefined;
  const kPoints = mesh ? meshProduct(mesh) : meshProduct(sample.kMesh);
  const prediction =
    kPoints !== undefined
      ? predictRunSeconds(measured, { ecutwfcRy: args.parameter === 'ecutwfc' ? next : sample.ecutwfcRy, kPoints })
      : undefined;
  const budget = args.extensionBudgetSeconds;
  return {
    value: next,
    ...(mesh ? { kMesh: mesh } : {}),
    ...(prediction
      ? {
          predictedSeconds: prediction.seconds,
          predictedFrom: `${prediction.workRatio.toPrecision(3)} × the ${Math.round(prediction.from.seconds)} s of the run at ${prediction.from.ecutwfcRy} Ry, ${prediction.from.kPoints} k-points, by plane waves × k-points`,
        }
      : {}),
    ...(budget !== undefined ? { budgetSeconds: budget } : {}),
    withinBudget: budget === undefined || (prediction !== undefined && prediction.seconds <= budget),
  };
}
