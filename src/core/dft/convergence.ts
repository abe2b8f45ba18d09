/**
 * Choosing converged settings from sweeps, as DREAMS does it:
 *
 * 1. the plane-wave cutoff is swept at one k spacing of the study (for a difference
 *    quantity such as the pressure the k error cancels between cutoffs);
 * 2. the k spacing is swept at the cutoff chosen in step 1.
 *
 * Each run is judged against the most converged run of the same sweep (highest cutoff,
 * smallest k spacing) by the criterion the study chose:
 *
 * - energy: |E/N − E_ref/N_ref| in meV/atom;
 * - pressure: the shift of the lattice constant the run's pressure error implies,
 *   |P − P_ref|/(3·B) in % of a (B from a probe of strained cells, convergencePressure.ts),
 *   where a cutoff sweep's P includes the Pulay term a constant-cutoff EOS sees;
 * - both: each within its own tolerance;
 * - moment: the larger of |Δm| and |Δ|m|| per atom in μB (total and absolute magnetization per cell,
 *   as pw.x prints them in a spin-polarised SCF, over the atoms of the cell); the total alone would
 *   miss an antiferromagnet, whose total is zero at every setting;
 * - gap: |Δgap| in eV, the gap at the SCF's own k-mesh (lowest unoccupied − highest occupied level,
 *   which pw.x prints with fixed occupations or with bands above the occupied ones);
 * - force: the largest difference of one force component on one atom against the finest run, eV/Å
 *   (max over atoms i and directions α of |F_iα − F_ref,iα|, the forces pw.x prints with tprnfor). A
 *   relaxation stops when every component is below forc_conv_thr, so the error that matters is the
 *   error of a component, in the threshold's own measure; the change of the largest force alone would
 *   miss an atom whose force turned or another atom's force grew. Forces that vanish in every run
 *   (atoms on sites where symmetry cancels them) show nothing, and the force criterion alone refuses them;
 * - and, alongside any kind, the moment, the gap or the forces with their own tolerances (toleranceMomentMuBPerAtom,
 *   toleranceGapEv, toleranceForceEvPerAngstrom): a study converges the quantity it reports tightly and the
 *   total energy to a looser, stated tolerance;
 * - and, for a crystal whose shape is relaxed (non-cubic), the shape: the shift of the relaxed shape
 *   (c/a for a hexagonal or tetragonal cell) that the run's deviatoric stress error implies,
 *   |Δs|/C in % (C from the bulk modulus, convergenceShape.ts). The pressure fixes the volume; c/a
 *   follows the stress anisotropy, which converges on a different k-mesh.
 *
 * The chosen value is the cheapest tested value that meets the criterion and whose finer values
 * all meet it too (a value that dips under the tolerance by accident between two that do not is
 * not converged). When that is the finest value tested, the sweep has not shown convergence: the
 * choice is refused and the next value is asked for (convergenceExtension.ts), one at a time.
 */
import { nextSweepValue } from './convergenceExtension';
import { latticeShiftPercent, pressureForLatticeShift, pulayPressuresKbar } from './convergencePressure';
import { deviatoricStressErrorKbar, shapeShiftPercent, stressForShapeShift } from './convergenceShape';
import { DftScienceError } from './scienceError';
import { settingsDifferences } from './qe/settings';
import type { SettingName } from './settingsComparison';
import type { Cell, PhysicalSettings, Vec3 } from './types';

export { latticeShiftFromPressure } from './convergencePressure';

export type SweptSetting = 'ecutwfc' | 'kspacing';

export type CriterionKind = 'energy' | 'pressure' | 'both' | 'moment' | 'gap' | 'force';

export const CRITERION_KINDS: readonly CriterionKind[] = ['energy', 'pressure', 'both', 'moment', 'gap', 'force'];

/**
 * Below this largest force component (eV/Å) in every run of a sweep the forces vanish: the atoms sit where
 * symmetry cancels them (pw.x symmetrises the forces to exact zeros), so they cannot judge the sweep.
 */
export const VANISHING_FORCE_EV_PER_ANGSTROM = 1e-4;

/** Whether a criterion judges the total energy per atom (energy, both). */
export const judgesEnergy = (kind: CriterionKind | undefined): boolean => kind === undefined || kind === 'energy' || kind === 'both';
/** Whether a criterion judges the pressure (pressure, both). */
export const judgesPressure = (kind: CriterionKind | undefined): boolean => kind === 'pressure' || kind === 'both';

/** What a sweep is judged by, with the tolerances in the quantities a user states. */
export interface SweepCriterion {
  kind: CriterionKind;
  /** energy and both: tolerated |ΔE| per atom against the finest run, meV/atom. */
  toleranceMevPerAtom?: number;
  /** pressure and both: tolerated shift of the lattice constant, % of a. */
  toleranceLatticePercent?: number;
  /** pressure and both: the bulk modulus that turns a pressure error into a lattice shift, GPa. */
  bulkModulusGPa?: number;
  /**
   * A crystal whose shape is relaxed: also judge each run by the shift of the shape (c/a, in %) its
   * deviatoric stress error implies. Absent for cubic crystals, whose shape is fixed by symmetry.
   */
  toleranceShapePercent?: number;
  /** With toleranceShapePercent: the modulus that turns a deviatoric stress error into a shape strain, GPa. */
  shapeModulusGPa?: number;
  /**
   * moment, or alongside any kind: tolerated change of the magnetization per atom against the finest run, μB
   * (the larger of the total's and the absolute's). pw.x prints both to 0.01 μB per cell.
   */
  toleranceMomentMuBPerAtom?: number;
  /** gap, or alongside any kind: tolerated change of the gap at the SCF's own k-mesh against the finest run, eV. */
  toleranceGapEv?: number;
  /**
   * force, or alongside any kind: tolerated difference of any force component on any atom against the finest run, eV/Å
   * (the measure of pw.x's forc_conv_thr).
   */
  toleranceForceEvPerAngstrom?: number;
}

export interface ConvergenceRun {
  /** Total energy of the run, eV. */
  energyEv: number;
  /** Atoms in the cell of the run. */
  natoms: number;
  /** The settings the energy was computed with; the swept value is read from here. */
  settings: PhysicalSettings;
  /** The pressure pw.x printed, kbar (the pressure criterion needs it for every run). */
  pressureKbar?: number;
  /** The stress tensor pw.x printed, kbar (the shape criterion needs it for every run). */
  stressKbar?: [Vec3, Vec3, Vec3];
  /** The cell's volume, Å³ (the pressure criterion of a cutoff sweep needs it for the Pulay term). */
  volumeAngstrom3?: number;
  /** Total magnetization per cell, μB (the moment criterion needs it and the absolute for every run). */
  magnetizationMuB?: number;
  /** Absolute magnetization per cell, μB. */
  absoluteMagnetizationMuB?: number;
  /** The gap at the run's own k-mesh (lowest unoccupied − highest occupied level), eV (the gap criterion needs it for every run). */
  gapEv?: number;
  /** The forces on the atoms, eV/Å, in the order of the structure (the force criterion needs them for every run). */
  forcesEvPerAngstrom?: Vec3[];
  /** Optional label (artifact reference, job id) carried into the table. */
  label?: string;
}

export interface ConvergenceRow {
  /** ecutwfc in Ry, or k spacing in 1/Å (with 2π). */
  value: number;
  label?: string;
  energyEv: number;
  energyPerAtomEv: number;
  errorMevPerAtom: number;
  pressureKbar?: number;
  /** Cutoff sweeps judged by pressure: the Pulay term (2/3)(Ecut/V)|dE/dEcut| a constant-cutoff EOS adds to pw.x's pressure, kbar. */
  pulayKbar?: number;
  /** (P + Pulay) − (P_ref + Pulay_ref), kbar. */
  pressureErrorKbar?: number;
  /** |P − P_ref|/(3·B), % of a (with a bulk modulus). */
  latticeShiftPercent?: number;
  /** Shape criterion: the largest principal value of s − s_ref (s the deviatoric stress), kbar. */
  deviatoricErrorKbar?: number;
  /** Shape criterion: |Δs|/C, the shift of the relaxed shape (c/a) it implies, %. */
  shapeShiftPercent?: number;
  /** Moment criterion: total and absolute magnetization per atom, μB, and the larger of their changes against the finest run. */
  magnetizationMuBPerAtom?: number;
  absoluteMagnetizationMuBPerAtom?: number;
  momentErrorMuBPerAtom?: number;
  /** Gap criterion: the gap at the run's k-mesh and its change against the finest run, eV. */
  gapEv?: number;
  gapErrorEv?: number;
  /** Force criterion: the run's largest force component, and the largest difference of one component against the finest run, eV/Å. */
  maxForceEvPerAngstrom?: number;
  forceErrorEvPerAngstrom?: number;
  /** Meets every part of the criterion. */
  underThreshold: boolean;
  isReference: boolean;
  isChosen: boolean;
}

export interface SweepSelection {
  setting: SweptSetting;
  unit: 'Ry' | '1/Å';
  criterion: SweepCriterion;
  /** The energy tolerance when the criterion has one (kept for readers of the energy-only table). */
  thresholdMevPerAtom?: number;
  /** Rows from the cheapest to the most converged value. */
  table: ConvergenceRow[];
  referenceValue: number;
  outcome: { status: 'converged'; chosenValue: number } | { status: 'needs-finer-sweep'; message: string; suggestedValues: number[] };
}

const SWEEP: Record<SweptSetting, { unit: 'Ry' | '1/Å'; finerIsHigher: boolean; varies: SettingName[]; label: string }> = {
  ecutwfc: { unit: 'Ry', finerIsHigher: true, varies: ['ecutwfcRy', 'ecutrhoRy'], label: 'ecutwfc' },
  kspacing: { unit: '1/Å', finerIsHigher: false, varies: ['kSpacingPerAngstrom', 'kMesh'], label: 'k spacing' },
};

function sweptValue(setting: SweptSetting, s: PhysicalSettings): number | undefined {
  return setting === 'ecutwfc' ? s.ecutwfcRy : s.kSpacingPerAngstrom;
}

/** A bare number is the energy criterion in meV/atom, as before criteria had names. */
export function normaliseCriterion(c: number | SweepCriterion): SweepCriterion {
  const criterion: SweepCriterion = typeof c === 'number' ? { kind: 'energy', toleranceMevPerAtom: c } : c;
  const positive = (x: number | undefined) => typeof x === 'number' && Number.isFinite(x) && x > 0;
  if (!CRITERION_KINDS.includes(criterion.kind)) {
    throw new DftScienceError(`convergence criterion "${String(criterion.kind)}" is not one of ${CRITERION_KINDS.join(', ')}.`, {
      criterion,
    });
  }
  if (judgesEnergy(criterion.kind) && !positive(criterion.toleranceMevPerAtom)) {
    throw new DftScienceError(
      `convergence threshold ${criterion.toleranceMevPerAtom} meV/atom is not a positive number. Pass the tolerated error per atom in meV/atom (1 is usual).`,
      { thresholdMevPerAtom: criterion.toleranceMevPerAtom },
    );
  }
  if (judgesPressure(criterion.kind)) {
    if (!positive(criterion.toleranceLatticePercent)) {
      throw new DftScienceError(
        `lattice-constant tolerance ${criterion.toleranceLatticePercent} % is not a positive number. Pass the tolerated shift of a in % (0.05 is usual for a lattice constant).`,
        { toleranceLatticePercent: criterion.toleranceLatticePercent },
      );
    }
    if (!positive(criterion.bulkModulusGPa)) {
      throw new DftScienceError(
        `the pressure criterion needs a bulk modulus to turn a pressure error into a shift of a; got ${criterion.bulkModulusGPa} GPa. ` +
          'Estimate it from a probe of strained cells (bulkModulusFromPressures) or give one with its source.',
        { bulkModulusGPa: criterion.bulkModulusGPa },
      );
    }
  }
  if (criterion.toleranceShapePercent !== undefined) {
    if (!positive(criterion.toleranceShapePercent)) {
      throw new DftScienceError(
        `shape tolerance ${criterion.toleranceShapePercent} % is not a positive number. Pass the tolerated shift of c/a (the cell shape) in % (0.15 is the lattice-constant study's default; 0.05 or 0.1 did not settle for hcp Mg through a 44×44×25 mesh).`,
        { toleranceShapePercent: criterion.toleranceShapePercent },
      );
    }
    if (!positive(criterion.shapeModulusGPa)) {
      throw new DftScienceError(
        `the shape criterion needs a modulus to turn a deviatoric stress error into a shift of c/a; got ${criterion.shapeModulusGPa} GPa. ` +
          'Estimate it from the bulk modulus (shapeModulusFromBulk) or give one with its source.',
        { shapeModulusGPa: criterion.shapeModulusGPa },
      );
    }
  }
  if (criterion.kind === 'moment' || criterion.toleranceMomentMuBPerAtom !== undefined) {
    if (!positive(criterion.toleranceMomentMuBPerAtom)) {
      throw new DftScienceError(
        `moment tolerance ${criterion.toleranceMomentMuBPerAtom} μB/atom is not a positive number. Pass the tolerated change of the magnetization per atom in μB (0.02 is usual: pw.x prints it to 0.01 μB per cell).`,
        { toleranceMomentMuBPerAtom: criterion.toleranceMomentMuBPerAtom },
      );
    }
  }
  if (criterion.kind === 'gap' || criterion.toleranceGapEv !== undefined) {
    if (!positive(criterion.toleranceGapEv)) {
      throw new DftScienceError(
        `gap tolerance ${criterion.toleranceGapEv} eV is not a positive number. Pass the tolerated change of the band gap in eV (0.01 is usual).`,
        { toleranceGapEv: criterion.toleranceGapEv },
      );
    }
  }
  if (criterion.kind === 'force' || criterion.toleranceForceEvPerAngstrom !== undefined) {
    if (!positive(criterion.toleranceForceEvPerAngstrom)) {
      throw new DftScienceError(
        `force tolerance ${criterion.toleranceForceEvPerAngstrom} eV/Å is not a positive number. Pass the tolerated difference of a force component against the finest run in eV/Å ` +
          "(half the relaxation's force threshold is usual: 0.005 for forc_conv_thr 0.01 eV/Å).",
        { toleranceForceEvPerAngstrom: criterion.toleranceForceEvPerAngstrom },
      );
    }
  }
  return criterion;
}

/** The criterion in words: "within 1 meV/atom", "within 0.05 % of a by pressure (B ≈ 140 GPa)". */
export function describeCriterion(c: SweepCriterion): string {
  const energy = `within ${c.toleranceMevPerAtom} meV/atom`;
  const pressure =
    c.toleranceLatticePercent !== undefined && c.bulkModulusGPa !== undefined
      ? `within ${c.toleranceLatticePercent} % of a by pressure (|ΔP| ≤ ${pressureForLatticeShift(c.toleranceLatticePercent, c.bulkModulusGPa).toPrecision(3)} kbar at B ≈ ${c.bulkModulusGPa.toPrecision(3)} GPa)`
      : '';
  const shape =
    c.toleranceShapePercent !== undefined && c.shapeModulusGPa !== undefined
      ? ` and within ${c.toleranceShapePercent} % of c/a by the deviatoric stress (|Δs| ≤ ${stressForShapeShift(c.toleranceShapePercent, c.shapeModulusGPa).toPrecision(3)} kbar at C ≈ ${c.shapeModulusGPa.toPrecision(3)} GPa)`
      : '';
  const main = [judgesEnergy(c.kind) ? energy : '', judgesPressure(c.kind) ? pressure : ''].filter(Boolean).join(' and ');
  const quantities = [
    c.toleranceMomentMuBPerAtom !== undefined ? `within ${c.toleranceMomentMuBPerAtom} μB/atom in the magnetization` : '',
    c.toleranceGapEv !== undefined ? `within ${c.toleranceGapEv} eV in the gap` : '',
    c.toleranceForceEvPerAngstrom !== undefined ? `within ${c.toleranceForceEvPerAngstrom} eV/Å in every force component` : '',
  ].filter(Boolean);
  return [main + shape, ...quantities].filter(Boolean).join(' and ');
}

/** One sweep: the cheapest value that meets the criterion with every finer one, or a request for the next value. */
export function selectConvergedValue(
  setting: SweptSetting,
  runs: ConvergenceRun[],
  criterionOrThreshold: number | SweepCriterion,
  opts: { cellAngstrom?: Cell } = {},
): SweepSelection {
  const spec = SWEEP[setting];
  const criterion = normaliseCriterion(criterionOrThreshold);
  if (!Array.isArray(runs) || runs.length < 3) {
    throw new DftScienceError(
      `a ${spec.label} sweep needs at least 3 runs (one reference and two to compare); got ${Array.isArray(runs) ? runs.length : typeof runs}. Add runs to the sweep.`,
      { count: Array.isArray(runs) ? runs.length : undefined },
    );
  }
  runs.forEach((r, i) => checkRun(setting, r, i, criterion));
  const values = runs.map((r) => sweptValue(setting, r.settings)!);
  const dup = values.find((v, i) => values.indexOf(v) !== i);
  if (dup !== undefined) {
    throw new DftScienceError(`the ${spec.label} sweep tests ${dup} ${spec.unit} twice. Keep one run per value.`, { value: dup });
  }
  for (let i = 1; i < runs.length; i++) {
    const diff = settingsDifferences(runs[0].settings, runs[i].settings, spec.varies);
    if (diff.length > 0) {
      throw new DftScienceError(
        `run ${i} of the ${spec.label} sweep (${values[i]} ${spec.unit}) differs from run 0 in more than the swept setting: ` +
          diff.map((d) => d.description).join('; ') +
          '. A sweep may change only the swept setting; rerun these points with the same settings.',
        { index: i, differences: diff },
      );
    }
  }

  // cheapest first
  const order = runs.map((_, i) => i).sort((i, j) => (spec.finerIsHigher ? values[i] - values[j] : values[j] - values[i]));
  const ref = runs[order[order.length - 1]];
  const refPerAtom = ref.energyEv / ref.natoms;
  const usesPressure = judgesPressure(criterion.kind);
  const usesEnergy = judgesEnergy(criterion.kind);
  const usesShape = criterion.toleranceShapePercent !== undefined;
  const usesMoment = criterion.toleranceMomentMuBPerAtom !== undefined;
  const usesGap = criterion.toleranceGapEv !== undefined;
  const usesForce = criterion.toleranceForceEvPerAngstrom !== undefined;
  if (usesForce) checkForces(runs, values, spec, criterion);
  // a cutoff sweep's pressures as a constant-cutoff EOS sees them; in a k sweep the term is the same for every run
  const pulay =
    usesPressure && setting === 'ecutwfc'
      ? pulayPressuresKbar(
          runs.map((r) => ({ ecutwfcRy: r.settings.ecutwfcRy, energyEv: r.energyEv, volumeAngstrom3: r.volumeAngstrom3! })),
        )
      : undefined;
  const effective = (i: number) => (runs[i].pressureKbar === undefined ? undefined : runs[i].pressureKbar! + (pulay?.[i] ?? 0));
  const refIndex = order[order.length - 1];
  const table: ConvergenceRow[] = order.map((i, k) => {
    const perAtom = runs[i].energyEv / runs[i].natoms;
    const err = Math.abs(perAtom - refPerAtom) * 1000;
    const p = runs[i].pressureKbar;
    const pRef = effective(refIndex);
    const dp = p !== undefined && pRef !== undefined ? effective(i)! - pRef : undefined;
    const shift = dp !== undefined && criterion.bulkModulusGPa ? latticeShiftPercent(dp, criterion.bulkModulusGPa) : undefined;
    const energyOk = !usesEnergy || err < criterion.toleranceMevPerAtom!;
    const pressureOk = !usesPressure || (shift !== undefined && shift < criterion.toleranceLatticePercent!);
    const ds = usesShape ? deviatoricStressErrorKbar(runs[i].stressKbar!, runs[refIndex].stressKbar!) : undefined;
    const shapeShift = ds !== undefined ? shapeShiftPercent(ds, criterion.shapeModulusGPa!) : undefined;
    const shapeOk = !usesShape || shapeShift! < criterion.toleranceShapePercent!;
    const moment = momentOf(runs[i]);
    const refMoment = momentOf(runs[refIndex]);
    const dm =
      moment && refMoment
        ? Math.max(Math.abs(moment.total - refMoment.total), Math.abs((moment.absolute ?? 0) - (refMoment.absolute ?? 0)))
        : undefined;
    const momentOk = !usesMoment || (dm !== undefined && dm < criterion.toleranceMomentMuBPerAtom! - 1e-9);
    const gap = runs[i].gapEv;
    const dg = gap !== undefined && runs[refIndex].gapEv !== undefined ? Math.abs(gap - runs[refIndex].gapEv!) : undefined;
    const gapOk = !usesGap || (dg !== undefined && dg < criterion.toleranceGapEv! - 1e-9);
    const forces = runs[i].forcesEvPerAngstrom;
    const refForces = runs[refIndex].forcesEvPerAngstrom;
    const df = forces && refForces && forces.length === refForces.length ? largestComponentDifference(forces, refForces) : undefined;
    const forceOk = !usesForce || (df !== undefined && df < criterion.toleranceForceEvPerAngstrom! - 1e-9);
    return {
      value: values[i],
      ...(runs[i].label !== undefined ? { label: runs[i].label } : {}),
      energyEv: runs[i].energyEv,
      energyPerAtomEv: perAtom,
      errorMevPerAtom: err,
      ...(p !== undefined ? { pressureKbar: p } : {}),
      ...(pulay ? { pulayKbar: pulay[i] } : {}),
      ...(dp !== undefined ? { pressureErrorKbar: dp } : {}),
      ...(shift !== undefined ? { latticeShiftPercent: shift } : {}),
      ...(ds !== undefined ? { deviatoricErrorKbar: ds, shapeShiftPercent: shapeShift! } : {}),
      ...(moment
        ? {
            magnetizationMuBPerAtom: moment.total,
            ...(moment.absolute !== undefined ? { absoluteMagnetizationMuBPerAtom: moment.absolute } : {}),
            ...(dm !== undefined ? { momentErrorMuBPerAtom: dm } : {}),
          }
        : {}),
      ...(gap !== undefined ? { gapEv: gap, ...(dg !== undefined ? { gapErrorEv: dg } : {}) } : {}),
      ...(forces?.length
        ? { maxForceEvPerAngstrom: largestComponent(forces), ...(df !== undefined ? { forceErrorEvPerAngstrom: df } : {}) }
        : {}),
      underThreshold: energyOk && pressureOk && shapeOk && momentOk && gapOk && forceOk,
      isReference: k === order.length - 1,
      isChosen: false,
    };
  });

  // the cheapest row from which every finer row meets the criterion
  let first = table.length - 1;
  while (first > 0 && table[first - 1].underThreshold) first--;
  const base = {
    setting,
    unit: spec.unit,
    criterion,
    ...(criterion.toleranceMevPerAtom !== undefined && usesEnergy ? { thresholdMevPerAtom: criterion.toleranceMevPerAtom } : {}),
    table,
    referenceValue: table[table.length - 1].value,
  };
  if (first === table.length - 1) {
    const next = nextSweepValue(setting, values, setting === 'kspacing' ? opts.cellAngstrom : undefined);
    const worst = table[table.length - 2];
    const off = [
      usesEnergy ? `${worst.errorMevPerAtom.toFixed(3)} meV/atom` : '',
      usesPressure && worst.latticeShiftPercent !== undefined
        ? `${worst.latticeShiftPercent.toFixed(3)} % of a (ΔP = ${worst.pressureErrorKbar!.toFixed(2)} kbar)`
        : '',
      usesShape && worst.shapeShiftPercent !== undefined
        ? `${worst.shapeShiftPercent.toFixed(3)} % of c/a (Δs = ${worst.deviatoricErrorKbar!.toFixed(2)} kbar)`
        : '',
      usesMoment && worst.momentErrorMuBPerAtom !== undefined
        ? `${worst.momentErrorMuBPerAtom.toFixed(3)} μB/atom in the magnetization`
        : '',
      usesGap && worst.gapErrorEv !== undefined ? `${worst.gapErrorEv.toFixed(3)} eV in the gap` : '',
      usesForce && worst.forceErrorEvPerAngstrom !== undefined
        ? `${worst.forceErrorEvPerAngstrom.toFixed(4)} eV/Å in a force component`
        : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return {
      ...base,
      outcome: {
        status: 'needs-finer-sweep',
        message:
          `no tested ${spec.label} below the finest (${base.referenceValue} ${spec.unit}) is ${describeCriterion(criterion)} of it ` +
          `(${worst.value} ${spec.unit} is off by ${off}), so convergence is not shown. ` +
          `Extend the sweep to ${next} ${spec.unit} and select again.`,
        suggestedValues: [next],
      },
    };
  }
  table[first].isChosen = true;
  return { ...base, outcome: { status: 'converged', chosenValue: table[first].value } };
}

export interface ConvergedSettings {
  criterion: SweepCriterion;
  cutoff: SweepSelection;
  kspacing?: SweepSelection;
  /** Present only when both sweeps converged. */
  chosen?: { ecutwfcRy: number; ecutrhoRy: number; kSpacingPerAngstrom: number };
}

/**
 * Both steps. Checks the protocol: the cutoff sweep ran at one of the k spacings the k sweep
 * tested (within its range, so the cutoff test speaks for the meshes in use), and the k sweep ran at
 * the chosen cutoff. The k sweep may be omitted when the cutoff sweep still needs extending.
 */
export function selectConvergedSettings(input: {
  cutoffRuns: ConvergenceRun[];
  kspacingRuns?: ConvergenceRun[];
  criterion?: SweepCriterion;
  /** The energy criterion in meV/atom, when no criterion is given. */
  thresholdMevPerAtom?: number;
}): ConvergedSettings {
  const criterion = normaliseCriterion(input.criterion ?? input.thresholdMevPerAtom ?? NaN);
  const cutoff = selectConvergedValue('ecutwfc', input.cutoffRuns, criterion);
  const result: ConvergedSettings = { criterion, cutoff };
  if (cutoff.outcome.status !== 'converged' || !input.kspacingRuns) return result;
  const chosenCutoff = cutoff.outcome.chosenValue;

  const kspacing = selectConvergedValue('kspacing', input.kspacingRuns, criterion);
  result.kspacing = kspacing;
  const cutoffSweepSpacing = input.cutoffRuns[0].settings.kSpacingPerAngstrom;
  const spacings = kspacing.table.map((r) => r.value);
  const [finest, coarsest] = [Math.min(...spacings), Math.max(...spacings)];
  if (cutoffSweepSpacing === undefined || cutoffSweepSpacing < finest * (1 - 1e-9) || cutoffSweepSpacing > coarsest * (1 + 1e-9)) {
    throw new DftScienceError(
      `the cutoff sweep ran at k spacing ${cutoffSweepSpacing ?? '(none recorded)'} 1/Å, outside the spacings the k sweep tested ` +
        `(${coarsest}–${finest} 1/Å). Sweep the cutoff at a k spacing the k sweep tests, then sweep k at the chosen cutoff.`,
      { cutoffSweepSpacing, finestSpacing: finest, coarsestSpacing: coarsest },
    );
  }
  const wrongCutoff = input.kspacingRuns.findIndex((r) => r.settings.ecutwfcRy !== chosenCutoff);
  if (wrongCutoff >= 0) {
    throw new DftScienceError(
      `k-sweep run ${wrongCutoff} used ecutwfc ${input.kspacingRuns[wrongCutoff].settings.ecutwfcRy} Ry, not the chosen cutoff ${chosenCutoff} Ry. ` +
        'Run the k sweep at the cutoff chosen from the cutoff sweep.',
      { index: wrongCutoff, chosenCutoff },
    );
  }
  if (kspacing.outcome.status === 'converged') {
    const row = input.cutoffRuns.find((r) => r.settings.ecutwfcRy === chosenCutoff)!;
    result.chosen = { ecutwfcRy: chosenCutoff, ecutrhoRy: row.settings.ecutrhoRy, kSpacingPerAngstrom: kspacing.outcome.chosenValue };
  }
  return result;
}

function checkRun(setting: SweptSetting, r: ConvergenceRun, i: number, criterion: SweepCriterion): void {
  const v = r?.settings ? sweptValue(setting, r.settings) : undefined;
  if (v === undefined || !Number.isFinite(v) || v <= 0) {
    throw new DftScienceError(
      `run ${i} has no usable ${SWEEP[setting].label} (${v}). ` +
        (setting === 'kspacing'
          ? 'Record the k spacing in 1/Å (settings.kSpacingPerAngstrom) that the mesh was made from.'
          : 'Record ecutwfc in Ry (settings.ecutwfcRy).'),
      { index: i, run: r },
    );
  }
  if (!Number.isFinite(r.energyEv)) {
    throw new DftScienceError(
      `run ${i} (${v} ${SWEEP[setting].unit}) has energy ${r.energyEv}: not a finite number in eV. Pass the converged total energy in eV.`,
      { index: i },
    );
  }
  if (!Number.isInteger(r.natoms) || r.natoms < 1) {
    throw new DftScienceError(`run ${i} (${v} ${SWEEP[setting].unit}) has natoms ${r.natoms}: pass the number of atoms in the cell.`, {
      index: i,
    });
  }
  if (judgesPressure(criterion.kind) && setting === 'ecutwfc' && !(typeof r.volumeAngstrom3 === 'number' && r.volumeAngstrom3 > 0)) {
    throw new DftScienceError(
      `run ${i} (${v} Ry) has no cell volume, which the ${criterion.kind} criterion of a cutoff sweep needs for the Pulay term (2/3)(Ecut/V)|dE/dEcut|. ` +
        'Pass the volume of the cell in Å³ with each run.',
      { index: i },
    );
  }
  const tensor = r.stressKbar;
  if (
    criterion.toleranceShapePercent !== undefined &&
    !(
      Array.isArray(tensor) &&
      tensor.length === 3 &&
      tensor.every((row) => Array.isArray(row) && row.length === 3 && row.every(Number.isFinite))
    )
  ) {
    throw new DftScienceError(
      `run ${i} (${v} ${SWEEP[setting].unit}) has no stress tensor, which the shape criterion of a non-cubic crystal judges it by. ` +
        'Run the sweep with pw.x printing the stress (tstress), or leave out the shape tolerance.',
      { index: i },
    );
  }
  if (judgesPressure(criterion.kind) && !Number.isFinite(r.pressureKbar)) {
    throw new DftScienceError(
      `run ${i} (${v} ${SWEEP[setting].unit}) has no pressure, which the ${criterion.kind} criterion judges it by. ` +
        'Run the sweep with pw.x printing the stress (tstress), or choose the energy criterion.',
      { index: i },
    );
  }
  if (
    criterion.toleranceMomentMuBPerAtom !== undefined &&
    !(Number.isFinite(r.magnetizationMuB) && (r.absoluteMagnetizationMuB === undefined || Number.isFinite(r.absoluteMagnetizationMuB)))
  ) {
    throw new DftScienceError(
      `run ${i} (${v} ${SWEEP[setting].unit}) has no magnetization, which the moment criterion judges it by. ` +
        'Run the sweep spin-polarised (nspin = 2, a starting magnetization on the magnetic species), or leave out the moment tolerance.',
      { index: i },
    );
  }
  if (criterion.toleranceGapEv !== undefined && !Number.isFinite(r.gapEv)) {
    throw new DftScienceError(
      `run ${i} (${v} ${SWEEP[setting].unit}) has no band gap, which the gap criterion judges it by: pw.x prints the highest occupied and lowest unoccupied ` +
        'levels only with fixed occupations or with bands above the occupied ones (nbnd). Run the sweep so, or leave out the gap tolerance.',
      { index: i },
    );
  }
}

/** A run's magnetization per atom (total and absolute), μB, when it has one. */
function momentOf(r: ConvergenceRun): { total: number; absolute?: number } | undefined {
  if (r.magnetizationMuB === undefined || !Number.isFinite(r.magnetizationMuB)) return undefined;
  return {
    total: r.magnetizationMuB / r.natoms,
    ...(r.absoluteMagnetizationMuB !== undefined ? { absolute: r.absoluteMagnetizationMuB / r.natoms } : {}),
  };
}

/** The largest |component| of a set of forces, eV/Å. */
export function largestComponent(forces: Vec3[]): number {
  return Math.max(0, ...forces.flatMap((f) => f.map(Math.abs)));
}

/** The largest |F_iα − G_iα| over atoms i and directions α, eV/Å (same atoms, same order). */
export function largestComponentDifference(forces: Vec3[], reference: Vec3[]): number {
  return Math.max(0, ...forces.flatMap((f, i) => f.map((x, a) => Math.abs(x - reference[i]![a]!))));
}

/**
 * The force criterion's runs: every run has a force on every atom (pw.x prints them with tprnfor; run_pw records
 * them for SCF runs only), the same atoms in each; forces that vanish in every run judge nothing, which the force
 * criterion alone refuses.
 */
function checkForces(runs: ConvergenceRun[], values: number[], spec: { unit: string; label: string }, criterion: SweepCriterion): void {
  runs.forEach((r, i) => {
    const f = r.forcesEvPerAngstrom;
    const usable =
      Array.isArray(f) && f.length > 0 && f.every((row) => Array.isArray(row) && row.length === 3 && row.every(Number.isFinite));
    if (!usable) {
      throw new DftScienceError(
        `run ${i} (${values[i]} ${spec.unit}) has no forces recorded, which the force criterion judges it by. ` +
          "Forces are recorded for SCF runs only (calculation = 'scf', pw.x printing them: tprnfor = .true.; make_pw_input sets it), one per atom of the run's structure: " +
          'a relax or vc-relax run ends at a geometry of its own, so its forces compare nothing across the sweep. ' +
          'Sweep SCF runs at the starting geometry (their forces say how far the settings move the atoms), or leave out the force tolerance.',
        { index: i },
      );
    }
    if (f.length !== r.natoms || f.length !== runs[0]!.forcesEvPerAngstrom!.length) {
      throw new DftScienceError(
        `run ${i} (${values[i]} ${spec.unit}) has forces on ${f.length} atoms where the sweep's runs have ${runs[0]!.forcesEvPerAngstrom!.length} and the cell ${r.natoms}: ` +
          'the force criterion compares the same atoms run by run. Run every point of the sweep on the same structure.',
        { index: i },
      );
    }
  });
  const largest = Math.max(...runs.map((r) => largestComponent(r.forcesEvPerAngstrom!)));
  if (criterion.kind === 'force' && largest < VANISHING_FORCE_EV_PER_ANGSTROM) {
    throw new DftScienceError(
      `every run of the ${spec.label} sweep has forces below ${VANISHING_FORCE_EV_PER_ANGSTROM} eV/Å (largest ${largest.toExponential(1)}): the atoms sit where symmetry cancels ` +
        'the forces, so the forces cannot tell a converged setting from an unconverged one. Judge this sweep by energy (criterion energy), ' +
        'with the force tolerance beside it if you like, or sweep a geometry whose atoms feel a force.',
      { largestForceEvPerAngstrom: largest },
    );
  }
}
