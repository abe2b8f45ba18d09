// Sweeps judged by the quantity a study reports: the magnetization per atom of a spin-polarised
// sweep, the gap at each SCF's own k-mesh, alone or beside a looser energy tolerance (measured with pw.x 6.7).
import assert from 'node:assert/strict';
import {
  describeCriterion,
  normaliseCriterion,
  selectConvergedValue,
  type ConvergenceRun,
  type SweepCriterion,
} from '../../../../src/core/dft/convergence';
import type { PhysicalSettings } from '../../../../src/core/dft/types';

const RY = 13.605693123;

const feSettings: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 60,
  ecutrhoRy: 480,
  pseudopotentials: { Fe: { file: 'Fe.pbe-n-rrkjus_psl.1.0.0.UPF' } },
  kSpacingPerAngstrom: 0.2,
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 2,
};

// bcc Fe (a = 2.87 Å, primitive cell), the bench:moments cutoff sweep at k 0.2 1/Å (16³): ecutwfc (Ry), E (eV),
// total and absolute magnetization (μB per cell) as pw.x printed them. The energy moves 7 meV/atom from 50 to 60 Ry
// and 1.2 from 60 to 70; the moment does not move by a printed digit from 30 Ry.
const FE_CUTOFF: [number, number, number, number][] = [
  [30, -833.05484, 2.24, 2.36],
  [40, -833.13517, 2.24, 2.36],
  [50, -833.16759, 2.24, 2.37],
  [60, -833.17481, 2.24, 2.37],
];

// hcp Co (a = 2.507 Å, c/a 1.623, 2 atoms), the bench:moments k sweep at 60 Ry: k spacing (1/Å), E (eV), magnetization (μB per cell).
const CO_K: [number, number, number, number][] = [
  [0.3, -2071.93093, 3.38, 3.73],
  [0.25, -2071.92284, 3.31, 3.67],
  [0.2, -2071.92811, 3.31, 3.67],
  [0.15, -2071.92647, 3.28, 3.64],
];

// diamond Si (a = 10.26 bohr), LDA Si.pz-vbc, 4×4×4 mesh, fixed occupations with nbnd = 8: ecutwfc (Ry), E (Ry per
// 2-atom cell), highest occupied and lowest unoccupied level (eV) as pw.x printed them.
const SI_CUTOFF: [number, number, number, number][] = [
  [10, -15.76320115, 6.1574, 6.8652],
  [14, -15.81455288, 6.1186, 6.7883],
  [18, -15.83038903, 6.114, 6.7503],
  [22, -15.83557007, 6.0996, 6.7318],
  [30, -15.83812818, 6.0893, 6.7236],
];

const feRuns = (): ConvergenceRun[] =>
  FE_CUTOFF.map(([ec, e, m, abs]) => ({
    energyEv: e,
    natoms: 1,
    settings: { ...feSettings, ecutwfcRy: ec, ecutrhoRy: 8 * ec },
    magnetizationMuB: m,
    absoluteMagnetizationMuB: abs,
  }));

const coRuns = (): ConvergenceRun[] =>
  CO_K.map(([k, e, m, abs]) => ({
    energyEv: e,
    natoms: 2,
    settings: { ...feSettings, pseudopotentials: { Co: { file: 'Co.pbe-n-rrkjus_psl.1.0.0.UPF' } }, kSpacingPerAngstrom: k },
    magnetizationMuB: m,
    absoluteMagnetizationMuB: abs,
  }));

const siRuns = (): ConvergenceRun[] =>
  SI_CUTOFF.map(([ec, ry, homo, lumo]) => ({
    energyEv: ry * RY,
    natoms: 2,
    settings: {
      code: 'pw.x',
      functional: 'PZ',
      ecutwfcRy: ec,
      ecutrhoRy: 4 * ec,
      pseudopotentials: { Si: { file: 'Si.pz-vbc.UPF' } },
      kSpacingPerAngstrom: 0.3,
      occupations: 'fixed',
      nspin: 1,
    },
    gapEv: lumo - homo,
  }));

const chosen = (s: ReturnType<typeof selectConvergedValue>): number | undefined =>
  s.outcome.status === 'converged' ? s.outcome.chosenValue : undefined;

describe('convergence on the magnetization and the gap', () => {
  it('the moment criterion alone chooses the cheapest cutoff whose magnetization per atom is within the tolerance of the finest (Fe: 30 Ry, where 1 meV/atom found none)', () => {
    const moment: SweepCriterion = { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 };
    const sel = selectConvergedValue('ecutwfc', feRuns(), moment);
    assert.equal(chosen(sel), 30);
    const at30 = sel.table[0]!;
    assert.equal(at30.magnetizationMuBPerAtom, 2.24);
    assert.equal(at30.absoluteMagnetizationMuBPerAtom, 2.36);
    // the absolute magnetization moved by one printed digit: the larger change is the one judged
    assert.ok(Math.abs(at30.momentErrorMuBPerAtom! - 0.01) < 1e-9, String(at30.momentErrorMuBPerAtom));
    assert.equal(sel.thresholdMevPerAtom, undefined, 'no energy tolerance is claimed');
    assert.equal(chosen(selectConvergedValue('ecutwfc', feRuns(), 1)), undefined, 'by energy at 1 meV/atom the sweep is not converged');
  });

  it('beside a looser energy tolerance, each run must meet both: Fe at 10 meV/atom and 0.02 μB/atom is 50 Ry, chosen by the energy', () => {
    const both: SweepCriterion = { kind: 'energy', toleranceMevPerAtom: 10, toleranceMomentMuBPerAtom: 0.02 };
    const sel = selectConvergedValue('ecutwfc', feRuns(), both);
    assert.equal(chosen(sel), 50);
    assert.equal(sel.thresholdMevPerAtom, 10);
    assert.deepEqual(
      sel.table.map((r) => r.underThreshold),
      [false, false, true, true],
    );
    assert.equal(describeCriterion(both), 'within 10 meV/atom and within 0.02 μB/atom in the magnetization');
  });

  it('a k sweep whose energy is within the tolerance but whose moment is not is refused at that spacing (hcp Co: 0.3 1/Å is 0.05 μB/atom off)', () => {
    const c: SweepCriterion = { kind: 'energy', toleranceMevPerAtom: 5, toleranceMomentMuBPerAtom: 0.02 };
    const sel = selectConvergedValue('kspacing', coRuns(), c);
    assert.ok(sel.table[0]!.errorMevPerAtom < 5, 'the energy alone would take 0.3');
    assert.equal(chosen(selectConvergedValue('kspacing', coRuns(), 5)), 0.3);
    assert.ok(Math.abs(sel.table[0]!.momentErrorMuBPerAtom! - 0.05) < 1e-9);
    assert.equal(chosen(sel), 0.25);
  });

  it('a change equal to the tolerance is not within it, whatever the rounding of the printed digits', () => {
    const runs = feRuns();
    // 2.26 − 2.24 is 0.0199999… in binary
    runs[0]!.magnetizationMuB = 2.26;
    const sel = selectConvergedValue('ecutwfc', runs, { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 });
    assert.equal(sel.table[0]!.underThreshold, false);
    assert.equal(chosen(sel), 40);
  });

  it('an antiferromagnet is judged by its absolute magnetization, since its total is zero at every setting', () => {
    const runs = feRuns().map((r, i) => ({ ...r, magnetizationMuB: 0, absoluteMagnetizationMuB: [2.2, 2.33, 2.36, 2.37][i]! }));
    const sel = selectConvergedValue('ecutwfc', runs, { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 });
    assert.equal(chosen(sel), 50);
  });

  it('the gap criterion chooses the cheapest cutoff whose gap is within 0.01 eV of the finest (Si: 18 Ry, where the energy is 53 meV/atom off)', () => {
    const sel = selectConvergedValue('ecutwfc', siRuns(), { kind: 'gap', toleranceGapEv: 0.01 });
    assert.equal(chosen(sel), 18);
    const at18 = sel.table.find((r) => r.value === 18)!;
    assert.ok(Math.abs(at18.gapEv! - 0.6363) < 1e-9 && Math.abs(at18.gapErrorEv! - 0.002) < 1e-9, JSON.stringify(at18));
    assert.ok(at18.errorMevPerAtom > 50);
    // with an energy tolerance beside it, the energy decides: 22 Ry is 17 meV/atom off
    assert.equal(chosen(selectConvergedValue('ecutwfc', siRuns(), { kind: 'energy', toleranceMevPerAtom: 20, toleranceGapEv: 0.01 })), 22);
  });

  it('when no run but the finest meets the moment or gap tolerance, the message says by how much the next one is off', () => {
    const runs = siRuns().slice(0, 3);
    const sel = selectConvergedValue('ecutwfc', runs, { kind: 'gap', toleranceGapEv: 0.01 });
    assert.equal(sel.outcome.status, 'needs-finer-sweep');
    assert.match((sel.outcome as { message: string }).message, /within 0\.01 eV in the gap of it \(14 Ry is off by 0\.033 eV in the gap\)/);
  });

  it('refuses a moment or gap criterion without its tolerance, and runs without the quantity, saying what to do', () => {
    assert.throws(
      () => normaliseCriterion({ kind: 'moment' }),
      /moment tolerance undefined μB\/atom is not a positive number.*0\.02 is usual/,
    );
    assert.throws(() => normaliseCriterion({ kind: 'gap', toleranceGapEv: -1 }), /gap tolerance -1 eV is not a positive number/);
    assert.throws(() => normaliseCriterion({ kind: 'energy', toleranceMevPerAtom: 1, toleranceMomentMuBPerAtom: 0 }), /moment tolerance 0/);
    const unpolarised = feRuns().map(({ magnetizationMuB: _m, absoluteMagnetizationMuB: _a, ...r }) => r);
    assert.throws(
      () => selectConvergedValue('ecutwfc', unpolarised, { kind: 'moment', toleranceMomentMuBPerAtom: 0.02 }),
      /run 0 \(30 Ry\) has no magnetization.*nspin = 2/,
    );
    const smeared = siRuns().map(({ gapEv: _g, ...r }) => r);
    assert.throws(
      () => selectConvergedValue('ecutwfc', smeared, { kind: 'energy', toleranceMevPerAtom: 1, toleranceGapEv: 0.01 }),
      /has no band gap.*fixed occupations or with bands above the occupied ones/,
    );
  });
});
