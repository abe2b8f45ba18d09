// Sweeps judged by the forces a relaxation follows: the largest difference of one force component on one
// atom against the finest run, alone or beside an energy tolerance (forces measured with pw.x 6.7).
import assert from 'node:assert/strict';
import {
  describeCriterion,
  largestComponentDifference,
  normaliseCriterion,
  selectConvergedValue,
  type ConvergenceRun,
} from '../../../../src/core/dft/convergence';
import type { PhysicalSettings, Vec3 } from '../../../../src/core/dft/types';
import { SI_DISPLACED_CUTOFFS } from '../../../harness/convergenceSelections';

const RY = 13.605693123;
const RY_PER_BOHR = 25.71104309541616; // eV/Å

const settings: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PBE',
  ecutwfcRy: 40,
  ecutrhoRy: 160,
  pseudopotentials: { Si: { file: 'Si.pbe-rrkj.UPF' } },
  kSpacingPerAngstrom: 0.9,
  kMesh: [3, 3, 3],
  occupations: 'fixed',
  nspin: 1,
};

// Diamond Si (a = 5.43 Å, 2-atom primitive cell) with the second atom 0.15 Å off its site along x, Si.pbe-rrkj.UPF,
// 3×3×3 mesh, conv_thr 2e-8 Ry: ecutwfc (Ry), E (Ry per cell), and the x force on atom 1 (Ry/bohr; atom 2 has its
// opposite, y and z vanish) as pw.x printed them. The force moves 3.7 meV/Å from 22 to 40 Ry where the energy moves
// 2.4 meV/atom; the same cell undisplaced (SYMMETRIC) has forces of exactly zero at every cutoff.
const DISPLACED = SI_DISPLACED_CUTOFFS;
const SYMMETRIC: [number, number][] = [
  [10, -15.6513879],
  [14, -15.6878617],
  [18, -15.69529525],
  [22, -15.69640139],
  [30, -15.69666301],
  [40, -15.69673308],
];

const forcesOf = (fx: number): Vec3[] => [
  [fx * RY_PER_BOHR, 0, 0],
  [-fx * RY_PER_BOHR, 0, 0],
];
const displaced = (cutoffs?: number[]): ConvergenceRun[] =>
  DISPLACED.filter(([ec]) => !cutoffs || cutoffs.includes(ec)).map(([ec, ry, fx]) => ({
    energyEv: ry * RY,
    natoms: 2,
    settings: { ...settings, ecutwfcRy: ec, ecutrhoRy: 4 * ec },
    forcesEvPerAngstrom: forcesOf(fx),
  }));
const symmetric = (): ConvergenceRun[] =>
  SYMMETRIC.map(([ec, ry]) => ({
    energyEv: ry * RY,
    natoms: 2,
    settings: { ...settings, ecutwfcRy: ec, ecutrhoRy: 4 * ec },
    forcesEvPerAngstrom: forcesOf(0),
  }));
const chosen = (s: ReturnType<typeof selectConvergedValue>): number | undefined =>
  s.outcome.status === 'converged' ? s.outcome.chosenValue : undefined;

describe('the force criterion of a convergence sweep', () => {
  it('chooses the cheapest cutoff whose every force component is within the tolerance of the finest run (22 Ry at 0.005 eV/Å, where 1 meV/atom takes 30 Ry)', () => {
    const byForce = selectConvergedValue('ecutwfc', displaced(), { kind: 'force', toleranceForceEvPerAngstrom: 0.005 });
    assert.equal(chosen(byForce), 22);
    const row = (v: number) => byForce.table.find((r) => r.value === v)!;
    // 22 Ry: 0.00014381 Ry/bohr from 40 Ry; 18 Ry: 0.00052622, over the tolerance
    assert.ok(Math.abs(row(22).forceErrorEvPerAngstrom! - 0.00014381 * RY_PER_BOHR) < 1e-9, String(row(22).forceErrorEvPerAngstrom));
    assert.ok(row(18).forceErrorEvPerAngstrom! > 0.005 && !row(18).underThreshold);
    assert.ok(Math.abs(row(40).maxForceEvPerAngstrom! - 0.08461751 * RY_PER_BOHR) < 1e-9);
    assert.equal(row(40).forceErrorEvPerAngstrom, 0);
    // by energy at 1 meV/atom the same sweep needs 30 Ry: 22 Ry is 2.4 meV/atom off
    assert.equal(chosen(selectConvergedValue('ecutwfc', displaced(), 1)), 30);
    assert.ok(row(22).errorMevPerAtom > 2 && row(22).errorMevPerAtom < 3, String(row(22).errorMevPerAtom));
    // beside the energy, both must hold: 5 meV/atom and 0.005 eV/Å also give 22 Ry; 1 meV/atom and 0.005 eV/Å give 30
    assert.equal(
      chosen(selectConvergedValue('ecutwfc', displaced(), { kind: 'energy', toleranceMevPerAtom: 5, toleranceForceEvPerAngstrom: 0.005 })),
      22,
    );
    assert.equal(
      chosen(selectConvergedValue('ecutwfc', displaced(), { kind: 'energy', toleranceMevPerAtom: 1, toleranceForceEvPerAngstrom: 0.005 })),
      30,
    );
    // a tighter force tolerance than the 22-Ry error moves the choice up
    assert.equal(chosen(selectConvergedValue('ecutwfc', displaced(), { kind: 'force', toleranceForceEvPerAngstrom: 0.003 })), 30);
  });

  it('compares component by component, so a force that turns is caught where the largest force alone would not move', () => {
    const a: Vec3[] = [
      [0.1, 0, 0],
      [-0.1, 0, 0],
    ];
    const turned: Vec3[] = [
      [0, 0.1, 0],
      [0, -0.1, 0],
    ];
    assert.ok(Math.abs(largestComponentDifference(turned, a) - 0.1) < 1e-15);
  });

  it('refuses a force criterion without a positive tolerance, and says what to pass', () => {
    assert.throws(
      () => normaliseCriterion({ kind: 'force' }),
      /force tolerance undefined eV\/Å is not a positive number.*0\.005 for forc_conv_thr 0\.01/,
    );
    assert.throws(
      () => normaliseCriterion({ kind: 'energy', toleranceMevPerAtom: 1, toleranceForceEvPerAngstrom: 0 }),
      /force tolerance 0 eV\/Å is not a positive number/,
    );
    // the force criterion alone needs no energy tolerance
    assert.doesNotThrow(() => normaliseCriterion({ kind: 'force', toleranceForceEvPerAngstrom: 0.005 }));
  });

  it('does not take the finest value: a sweep where only the finest meets the tolerance asks for the next cutoff and says how far off the forces are', () => {
    const s = selectConvergedValue('ecutwfc', displaced([10, 14, 18]), { kind: 'force', toleranceForceEvPerAngstrom: 0.005 });
    assert.equal(s.outcome.status, 'needs-finer-sweep');
    const o = s.outcome as { message: string; suggestedValues: number[] };
    assert.match(o.message, /within 0\.005 eV\/Å in every force component of it \(14 Ry is off by 0\.0138 eV\/Å in a force component\)/);
    assert.ok(o.suggestedValues[0]! > 18);
  });

  it('refuses runs without forces (pw.x prints them with tprnfor) and runs of a different number of atoms', () => {
    const runs = displaced();
    delete runs[2]!.forcesEvPerAngstrom;
    assert.throws(
      () => selectConvergedValue('ecutwfc', runs, { kind: 'force', toleranceForceEvPerAngstrom: 0.005 }),
      /run 2 \(18 Ry\) has no forces recorded, which the force criterion judges it by.*tprnfor/,
    );
    // what it tells a sweep of relaxations (run_pw records forces of SCF runs only) is true of them
    assert.throws(
      () => selectConvergedValue('ecutwfc', runs, { kind: 'force', toleranceForceEvPerAngstrom: 0.005 }),
      (e: unknown) =>
        /Forces are recorded for SCF runs only \(calculation = 'scf'/.test((e as Error).message) &&
        /a relax or vc-relax run ends at a geometry of its own.*Sweep SCF runs at the starting geometry/.test((e as Error).message),
    );
    const other = displaced();
    other[1]!.forcesEvPerAngstrom = [[0.1, 0, 0]];
    assert.throws(
      () => selectConvergedValue('ecutwfc', other, { kind: 'force', toleranceForceEvPerAngstrom: 0.005 }),
      /has forces on 1 atoms where the sweep's runs have 2/,
    );
  });

  it('refuses forces that vanish in every run (atoms on symmetric sites) as the only criterion; beside the energy, the energy decides', () => {
    assert.throws(
      () => selectConvergedValue('ecutwfc', symmetric(), { kind: 'force', toleranceForceEvPerAngstrom: 0.005 }),
      /every run of the ecutwfc sweep has forces below 0\.0001 eV\/Å.*symmetry cancels the forces.*Judge this sweep by energy/,
    );
    const beside = selectConvergedValue('ecutwfc', symmetric(), {
      kind: 'energy',
      toleranceMevPerAtom: 1,
      toleranceForceEvPerAngstrom: 0.005,
    });
    assert.equal(chosen(beside), chosen(selectConvergedValue('ecutwfc', symmetric(), 1)));
    assert.equal(chosen(beside), 30);
  });

  it('says the force tolerance in words, beside the energy or alone', () => {
    assert.equal(
      describeCriterion({ kind: 'energy', toleranceMevPerAtom: 5, toleranceForceEvPerAngstrom: 0.005 }),
      'within 5 meV/atom and within 0.005 eV/Å in every force component',
    );
    assert.equal(describeCriterion({ kind: 'force', toleranceForceEvPerAngstrom: 0.01 }), 'within 0.01 eV/Å in every force component');
  });
});
