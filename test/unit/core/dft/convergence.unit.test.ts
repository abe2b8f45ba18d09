import assert from 'node:assert/strict';
import {
  latticeShiftFromPressure,
  selectConvergedSettings,
  selectConvergedValue,
  type ConvergenceRun,
} from '../../../../src/core/dft/convergence';
import { DftScienceError } from '../../../../src/core/dft/scienceError';
import type { PhysicalSettings } from '../../../../src/core/dft/types';

const base: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 40,
  ecutrhoRy: 320,
  pseudopotentials: { Si: { file: 'Si.pbe-rrkj.UPF' } },
  kSpacingPerAngstrom: 0.15,
  occupations: 'fixed',
  nspin: 1,
};

// energies in eV for a 2-atom cell; errors per atom are half the total differences
const cutoffRun = (ecut: number, energyEv: number, over: Partial<PhysicalSettings> = {}): ConvergenceRun => ({
  energyEv,
  natoms: 2,
  settings: { ...base, ecutwfcRy: ecut, ecutrhoRy: 8 * ecut, ...over },
  label: `ecut-${ecut}`,
});
const kRun = (spacing: number, energyEv: number, ecut = 30): ConvergenceRun => ({
  energyEv,
  natoms: 2,
  settings: { ...base, ecutwfcRy: ecut, ecutrhoRy: 8 * ecut, kSpacingPerAngstrom: spacing },
});

describe('convergence selection', () => {
  it("estimates how far a sweep's choice moves the lattice constant from the pressures of its runs: |ΔP|/(3·B0)", () => {
    // fcc Cu, pslibrary PBE, 286 k-points: pw.x's pressures at 90 and 100 Ry, B0 ≈ 140 GPa
    const tested = [
      { value: 80, pressureKbar: 48.08 },
      { value: 90, pressureKbar: 49.6 },
      { value: 100, pressureKbar: 49.76 },
    ];
    const s = latticeShiftFromPressure(tested, 90, 100, 140)!;
    assert.ok(Math.abs(s.deltaKbar - -0.16) < 1e-12);
    assert.ok(Math.abs(s.shiftPercent - (100 * 0.16) / 4200) < 1e-12, `${s.shiftPercent} %`);
    // a soft metal: the same ΔP matters 50 times more
    assert.ok(Math.abs(latticeShiftFromPressure(tested, 90, 100, 2.8)!.shiftPercent / s.shiftPercent - 50) < 1e-9);
    assert.equal(
      latticeShiftFromPressure([{ value: 90 }, { value: 100, pressureKbar: 1 }], 90, 100, 140),
      undefined,
      'no pressure printed, no estimate',
    );
    assert.equal(latticeShiftFromPressure(tested, 90, 100, 0), undefined);
  });

  it('chooses the cheapest cutoff within the threshold and reports the table behind it', () => {
    // per-atom errors vs 60 Ry: 20: 25, 30: 0.75, 40: 0.2, 50: 0.05 meV/atom
    const runs = [
      cutoffRun(40, -215.0004),
      cutoffRun(20, -214.9504),
      cutoffRun(60, -215.0),
      cutoffRun(30, -215.0015),
      cutoffRun(50, -215.0001),
    ];
    const sel = selectConvergedValue('ecutwfc', runs, 1);
    assert.deepEqual(sel.outcome, { status: 'converged', chosenValue: 30 });
    assert.deepEqual(
      sel.table.map((r) => r.value),
      [20, 30, 40, 50, 60],
    );
    assert.equal(sel.referenceValue, 60);
    const byValue = Object.fromEntries(sel.table.map((r) => [r.value, r]));
    assert.ok(Math.abs(byValue[20].errorMevPerAtom - 24.8) < 1e-6, `20 Ry error ${byValue[20].errorMevPerAtom}`);
    assert.ok(Math.abs(byValue[30].errorMevPerAtom - 0.75) < 1e-6);
    assert.equal(byValue[30].isChosen, true);
    assert.equal(byValue[60].isReference, true);
    assert.equal(byValue[30].label, 'ecut-30');
    assert.equal(sel.table.filter((r) => r.isChosen).length, 1);
  });

  it('does not take a value that dips under the threshold when a finer one is above it', () => {
    // 25 Ry happens to land within 0.5 meV/atom, 30 Ry does not
    const runs = [
      cutoffRun(20, -214.96),
      cutoffRun(25, -214.9992),
      cutoffRun(30, -214.996),
      cutoffRun(35, -214.9995),
      cutoffRun(40, -215.0),
    ];
    const sel = selectConvergedValue('ecutwfc', runs, 1);
    assert.deepEqual(sel.outcome, { status: 'converged', chosenValue: 35 });
  });

  it('refuses when only the finest tested value qualifies, and asks for one more value a step past it', () => {
    const runs = [cutoffRun(40, -214.9), cutoffRun(50, -214.95), cutoffRun(60, -215.0)];
    const sel = selectConvergedValue('ecutwfc', runs, 1);
    assert.equal(sel.outcome.status, 'needs-finer-sweep');
    if (sel.outcome.status !== 'needs-finer-sweep') return;
    assert.deepEqual(sel.outcome.suggestedValues, [70]);
    assert.match(sel.outcome.message, /finest \(60 Ry\).*50 Ry is off by 25\.000 meV\/atom.*Extend the sweep to 70 Ry/);
    assert.equal(
      sel.table.some((r) => r.isChosen),
      false,
    );
  });

  it('follows the sweep actually run, not fixed numbers', () => {
    const energies = [-214.9, -214.999, -214.9995, -215.0];
    const low = selectConvergedValue(
      'ecutwfc',
      [20, 25, 30, 35].map((e, i) => cutoffRun(e, energies[i])),
      1,
    );
    const high = selectConvergedValue(
      'ecutwfc',
      [60, 80, 100, 120].map((e, i) => cutoffRun(e, energies[i])),
      1,
    );
    assert.deepEqual(low.outcome, { status: 'converged', chosenValue: 25 });
    assert.deepEqual(high.outcome, { status: 'converged', chosenValue: 80 });
    // the same table with the finest point removed: now the choice would be the finest -> refused
    const cut = selectConvergedValue('ecutwfc', [cutoffRun(20, -214.9), cutoffRun(25, -214.95), cutoffRun(30, -214.9995)], 1);
    assert.equal(cut.outcome.status, 'needs-finer-sweep');
  });

  it('measures errors per atom', () => {
    const one = (ecut: number, e: number): ConvergenceRun => ({ ...cutoffRun(ecut, e), natoms: 1 });
    // 1.5 meV total on a 2-atom cell is 0.75 meV/atom: under 1; on a 1-atom cell it is over
    const two = selectConvergedValue('ecutwfc', [cutoffRun(20, -10.0015), cutoffRun(30, -10.0001), cutoffRun(40, -10)], 1);
    const single = selectConvergedValue('ecutwfc', [one(20, -10.0015), one(30, -10.0001), one(40, -10)], 1);
    assert.deepEqual(two.outcome, { status: 'converged', chosenValue: 20 });
    assert.deepEqual(single.outcome, { status: 'converged', chosenValue: 30 });
  });

  it('treats the smallest k spacing as the most converged', () => {
    const runs = [kRun(0.4, -215.03), kRun(0.3, -215.0016), kRun(0.2, -215.0008), kRun(0.1, -215.0)];
    const sel = selectConvergedValue('kspacing', runs, 1);
    assert.deepEqual(
      sel.table.map((r) => r.value),
      [0.4, 0.3, 0.2, 0.1],
    );
    assert.deepEqual(sel.outcome, { status: 'converged', chosenValue: 0.3 });
    const refused = selectConvergedValue('kspacing', [kRun(0.4, -215.2), kRun(0.3, -215.1), kRun(0.25, -215.0)], 1);
    assert.equal(refused.outcome.status, 'needs-finer-sweep');
    // the sweep's last ratio (0.25/0.3), gentler than 0.8: one value
    if (refused.outcome.status === 'needs-finer-sweep') assert.deepEqual(refused.outcome.suggestedValues, [0.208]);
  });

  it('runs both steps: cutoff at a k spacing the k sweep tests, then k at the chosen cutoff', () => {
    const cutoffRuns = [cutoffRun(20, -214.95), cutoffRun(30, -214.9995), cutoffRun(40, -215.0)].map((r) => ({
      ...r,
      settings: { ...r.settings, kSpacingPerAngstrom: 0.1 },
    }));
    const kspacingRuns = [kRun(0.4, -215.03), kRun(0.3, -215.0016), kRun(0.2, -215.0008), kRun(0.1, -215.0)];
    const res = selectConvergedSettings({ cutoffRuns, kspacingRuns, thresholdMevPerAtom: 1 });
    assert.deepEqual(res.chosen, { ecutwfcRy: 30, ecutrhoRy: 240, kSpacingPerAngstrom: 0.3 });

    // at a spacing the k sweep tests (0.2 of 0.4-0.1): a cutoff test of differences speaks for it
    const within = cutoffRuns.map((r) => ({ ...r, settings: { ...r.settings, kSpacingPerAngstrom: 0.2 } }));
    assert.deepEqual(selectConvergedSettings({ cutoffRuns: within, kspacingRuns, thresholdMevPerAtom: 1 }).chosen, {
      ecutwfcRy: 30,
      ecutrhoRy: 240,
      kSpacingPerAngstrom: 0.3,
    });
    // outside the tested spacings: the cutoff test says nothing for the meshes in use
    const coarse = cutoffRuns.map((r) => ({ ...r, settings: { ...r.settings, kSpacingPerAngstrom: 0.5 } }));
    assert.throws(
      () => selectConvergedSettings({ cutoffRuns: coarse, kspacingRuns, thresholdMevPerAtom: 1 }),
      /k spacing 0\.5 1\/Å, outside the spacings the k sweep tested \(0\.4–0\.1/,
    );
    // the k sweep was run at a cutoff other than the chosen one
    const wrong = kspacingRuns.map((r) => ({ ...r, settings: { ...r.settings, ecutwfcRy: 40, ecutrhoRy: 320 } }));
    assert.throws(
      () => selectConvergedSettings({ cutoffRuns, kspacingRuns: wrong, thresholdMevPerAtom: 1 }),
      /used ecutwfc 40 Ry, not the chosen cutoff 30 Ry/,
    );
    // without the k sweep, the cutoff result alone
    assert.equal(selectConvergedSettings({ cutoffRuns, thresholdMevPerAtom: 1 }).chosen, undefined);
  });

  it('refuses sweeps that change more than the swept setting, naming the setting', () => {
    const runs = [cutoffRun(20, -214.95), cutoffRun(30, -214.9995, { smearing: 'mv', degaussRy: 0.02 }), cutoffRun(40, -215.0)];
    assert.throws(
      () => selectConvergedValue('ecutwfc', runs, 1),
      (e: unknown) => e instanceof DftScienceError && /run 1 .*30 Ry.*smearing/.test(e.message),
    );
    const pp = [cutoffRun(20, -1), cutoffRun(30, -1, { pseudopotentials: { Si: { file: 'Si.pz-vbc.UPF' } } }), cutoffRun(40, -1)];
    assert.throws(() => selectConvergedValue('ecutwfc', pp, 1), /pseudopotential of Si: Si.pbe-rrkj.UPF vs Si.pz-vbc.UPF/);
  });

  it('rejects bad inputs with the offending value', () => {
    assert.throws(() => selectConvergedValue('ecutwfc', [cutoffRun(20, -1), cutoffRun(30, -1)], 1), /at least 3 runs.*got 2/);
    assert.throws(
      () => selectConvergedValue('ecutwfc', [cutoffRun(20, -1), cutoffRun(30, Number.NaN), cutoffRun(40, -1)], 1),
      /run 1 \(30 Ry\) has energy NaN/,
    );
    assert.throws(() => selectConvergedValue('ecutwfc', [cutoffRun(20, -1), cutoffRun(20, -1), cutoffRun(40, -1)], 1), /tests 20 Ry twice/);
    assert.throws(
      () => selectConvergedValue('ecutwfc', [cutoffRun(20, -1), cutoffRun(30, -1), cutoffRun(40, -1)], 0),
      /threshold 0 meV\/atom/,
    );
    const noSpacing = {
      ...kRun(0.2, -1),
      settings: { ...base, kSpacingPerAngstrom: undefined, kMesh: [8, 8, 8] as [number, number, number] },
    };
    assert.throws(() => selectConvergedValue('kspacing', [kRun(0.3, -1), noSpacing, kRun(0.1, -1)], 1), /run 1 has no usable k spacing/);
  });
});
