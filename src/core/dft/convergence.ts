/**
 * Choosing converged settings from sweeps, as DREAMS does it:
 *
 * 1. the plane-wave cutoff is swept at the finest k spacing of the study;
 * 2. the k spacing is swept at the cutoff chosen in step 1.
 *
 * In each sweep the error of a run is |E/N − E_ref/N_ref| in meV/atom, where the reference
 * is the most converged run of that same sweep (highest cutoff, smallest k spacing). The
 * chosen value is the cheapest tested value whose error is below the threshold and whose
 * finer values are all below it too (a value that dips under the threshold by accident
 * between two that do not is not converged). When that is the finest value tested, the
 * sweep has not shown convergence: the choice is refused and a finer sweep is asked for,
 * with values that continue the sweep's own last step.
 */
import { DftScienceError } from './scienceError';
import { settingsDifferences } from './qe/settings';
import type { SettingName } from './settingsComparison';
import type { PhysicalSettings } from './types';

export type SweptSetting = 'ecutwfc' | 'kspacing';

/**
 * What a sweep's choice costs in the lattice constant, read from the pressures of the same
 * runs: the chosen value's pressure differs from the finest value's by ΔP at the same cell,
 * so the equilibrium volume moves by about ΔP/B0 and the lattice constant by ΔP/(3·B0).
 * An a-posteriori check, not a criterion: B0 is known only after the EOS fit.
 */
export function latticeShiftFromPressure(
  tested: { value: number; pressureKbar?: number }[],
  chosenValue: number,
  finestValue: number,
  b0GPa: number,
): { chosenKbar: number; finestKbar: number; deltaKbar: number; shiftPercent: number } | undefined {
  const chosen = tested.find((t) => t.value === chosenValue)?.pressureKbar;
  const finest = tested.find((t) => t.value === finestValue)?.pressureKbar;
  if (chosen === undefined || finest === undefined || !(b0GPa > 0)) return undefined;
  const deltaKbar = chosen - finest;
  // 1 GPa = 10 kbar
  return { chosenKbar: chosen, finestKbar: finest, deltaKbar, shiftPercent: (100 * Math.abs(deltaKbar)) / (3 * b0GPa * 10) };
}

export interface ConvergenceRun {
  /** Total energy of the run, eV. */
  energyEv: number;
  /** Atoms in the cell of the run. */
  natoms: number;
  /** The settings the energy was computed with; the swept value is read from here. */
  settings: PhysicalSettings;
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
  underThreshold: boolean;
  isReference: boolean;
  isChosen: boolean;
}

export interface SweepSelection {
  setting: SweptSetting;
  unit: 'Ry' | '1/Å';
  thresholdMevPerAtom: number;
  /** Rows from the cheapest to the most converged value. */
  table: ConvergenceRow[];
  referenceValue: number;
  outcome:
    | { status: 'converged'; chosenValue: number }
    | { status: 'needs-finer-sweep'; message: string; suggestedValues: number[] };
}

const SWEEP: Record<SweptSetting, { unit: 'Ry' | '1/Å'; finerIsHigher: boolean; varies: SettingName[]; label: string }> = {
  ecutwfc: { unit: 'Ry', finerIsHigher: true, varies: ['ecutwfcRy', 'ecutrhoRy'], label: 'ecutwfc' },
  kspacing: { unit: '1/Å', finerIsHigher: false, varies: ['kSpacingPerAngstrom', 'kMesh'], label: 'k spacing' },
};

function sweptValue(setting: SweptSetting, s: PhysicalSettings): number | undefined {
  return setting === 'ecutwfc' ? s.ecutwfcRy : s.kSpacingPerAngstrom;
}

/** One sweep: the cheapest value that stays under the threshold, or a request for a finer sweep. */
export function selectConvergedValue(setting: SweptSetting, runs: ConvergenceRun[], thresholdMevPerAtom: number): SweepSelection {
  const spec = SWEEP[setting];
  if (!Number.isFinite(thresholdMevPerAtom) || thresholdMevPerAtom <= 0) {
    throw new DftScienceError(
      `convergence threshold ${thresholdMevPerAtom} meV/atom is not a positive number. Pass the tolerated error per atom in meV/atom (1 is usual).`,
      { thresholdMevPerAtom },
    );
  }
  if (!Array.isArray(runs) || runs.length < 3) {
    throw new DftScienceError(
      `a ${spec.label} sweep needs at least 3 runs (one reference and two to compare); got ${Array.isArray(runs) ? runs.length : typeof runs}. Add runs to the sweep.`,
      { count: Array.isArray(runs) ? runs.length : undefined },
    );
  }
  runs.forEach((r, i) => checkRun(setting, r, i));
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
  const table: ConvergenceRow[] = order.map((i, k) => {
    const perAtom = runs[i].energyEv / runs[i].natoms;
    const err = Math.abs(perAtom - refPerAtom) * 1000;
    return {
      value: values[i],
      ...(runs[i].label !== undefined ? { label: runs[i].label } : {}),
      energyEv: runs[i].energyEv,
      energyPerAtomEv: perAtom,
      errorMevPerAtom: err,
      underThreshold: err < thresholdMevPerAtom,
      isReference: k === order.length - 1,
      isChosen: false,
    };
  });

  // the cheapest row from which every finer row is under the threshold
  let first = table.length - 1;
  while (first > 0 && table[first - 1].underThreshold) first--;
  const base = { setting, unit: spec.unit, thresholdMevPerAtom, table, referenceValue: table[table.length - 1].value };
  if (first === table.length - 1) {
    const suggestedValues = continueSweep(table.map((r) => r.value), spec.finerIsHigher);
    const worst = table[table.length - 2];
    return {
      ...base,
      outcome: {
        status: 'needs-finer-sweep',
        message:
          `no tested ${spec.label} below the finest (${base.referenceValue} ${spec.unit}) is within ${thresholdMevPerAtom} meV/atom of it ` +
          `(${worst.value} ${spec.unit} is off by ${worst.errorMevPerAtom.toFixed(3)} meV/atom), so convergence is not shown. ` +
          `Extend the sweep to ${suggestedValues.join(', ')} ${spec.unit} and select again.`,
        suggestedValues,
      },
    };
  }
  table[first].isChosen = true;
  return { ...base, outcome: { status: 'converged', chosenValue: table[first].value } };
}

export interface ConvergedSettings {
  thresholdMevPerAtom: number;
  cutoff: SweepSelection;
  kspacing?: SweepSelection;
  /** Present only when both sweeps converged. */
  chosen?: { ecutwfcRy: number; ecutrhoRy: number; kSpacingPerAngstrom: number };
}

/**
 * Both steps. Checks the protocol: the cutoff sweep ran at (or below) the finest k spacing
 * of the k sweep, and the k sweep ran at the chosen cutoff. The k sweep may be omitted
 * when the cutoff sweep still needs extending.
 */
export function selectConvergedSettings(input: {
  cutoffRuns: ConvergenceRun[];
  kspacingRuns?: ConvergenceRun[];
  thresholdMevPerAtom: number;
}): ConvergedSettings {
  const cutoff = selectConvergedValue('ecutwfc', input.cutoffRuns, input.thresholdMevPerAtom);
  const result: ConvergedSettings = { thresholdMevPerAtom: input.thresholdMevPerAtom, cutoff };
  if (cutoff.outcome.status !== 'converged' || !input.kspacingRuns) return result;
  const chosenCutoff = cutoff.outcome.chosenValue;

  const kspacing = selectConvergedValue('kspacing', input.kspacingRuns, input.thresholdMevPerAtom);
  result.kspacing = kspacing;
  const cutoffSweepSpacing = input.cutoffRuns[0].settings.kSpacingPerAngstrom;
  const finestSpacing = kspacing.referenceValue;
  if (cutoffSweepSpacing === undefined || cutoffSweepSpacing > finestSpacing * (1 + 1e-9)) {
    throw new DftScienceError(
      `the cutoff sweep ran at k spacing ${cutoffSweepSpacing ?? '(none recorded)'} 1/Å, coarser than the finest spacing of the k sweep ` +
        `(${finestSpacing} 1/Å). Sweep the cutoff at the finest k spacing of the study, then sweep k at the chosen cutoff.`,
      { cutoffSweepSpacing, finestSpacing },
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

function checkRun(setting: SweptSetting, r: ConvergenceRun, i: number): void {
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
    throw new DftScienceError(`run ${i} (${v} ${SWEEP[setting].unit}) has energy ${r.energyEv}: not a finite number in eV. Pass the converged total energy in eV.`, { index: i });
  }
  if (!Number.isInteger(r.natoms) || r.natoms < 1) {
    throw new DftScienceError(`run ${i} (${v} ${SWEEP[setting].unit}) has natoms ${r.natoms}: pass the number of atoms in the cell.`, { index: i });
  }
}

/** Two more values beyond the finest, continuing the sweep's last step (k spacings stay positive). */
function continueSweep(values: number[], finerIsHigher: boolean): number[] {
  const n = values.length;
  const step = Math.abs(values[n - 1] - values[n - 2]);
  const round = (x: number) => Number(x.toPrecision(6));
  if (finerIsHigher) return [round(values[n - 1] + step), round(values[n - 1] + 2 * step)];
  const last = values[n - 1];
  const next = last - step > 0 ? last - step : last * 0.8;
  const after = next - step > 0 ? next - step : next * 0.8;
  return [round(next), round(after)];
}
