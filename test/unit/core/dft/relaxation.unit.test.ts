import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import { freeStressComponents, maxForceComponent, stressDeviationKbar, summariseRelaxation } from '../../../../src/core/dft/relaxation';
import type { Vec3 } from '../../../../src/core/dft/types';

const RUNS = path.resolve(__dirname, '../../../fixtures/qe/runs');
const out = (name: string) => parsePwOutput(fs.readFileSync(path.join(RUNS, `${name}.out`), 'utf8'));

describe('relaxation summary: final energy, forces, stress, volume, trajectory, and convergence read from the output', () => {
  it('a converged relax: every geometry with its energy and largest force, forces under the threshold the output states', () => {
    const s = summariseRelaxation(out('si-relax'));
    assert.equal(s.calculation, 'relax');
    assert.equal(s.converged, true, s.problems.join('; '));
    assert.equal(s.steps.length, 7);
    assert.ok(s.steps.every((p) => p.energyEv !== undefined && p.maxForceEvPerAngstrom !== undefined));
    // energies go down step by step, forces fall from 0.058 Ry/bohr (gradient error of step 1) to under the threshold
    assert.ok(s.steps[0]!.energyEv! > s.steps.at(-1)!.energyEv!);
    assert.ok(s.steps[0]!.maxForceEvPerAngstrom! > 1, `first max force ${s.steps[0]!.maxForceEvPerAngstrom}`);
    // forc_conv_thr 1e-3 Ry/bohr as printed, in eV/Å
    assert.ok(Math.abs(s.thresholds.forceEvPerAngstrom! - 0.0257110337) < 1e-8);
    assert.ok(s.maxForceEvPerAngstrom! < s.thresholds.forceEvPerAngstrom!);
    assert.equal(s.checks.length, 1);
    assert.match(s.checks[0]!.statement, /largest force component .* ≤ forc_conv_thr 0\.02571 eV\/Å/);
    assert.ok(Math.abs(s.finalEnergyEv! - -15.73670908 * 13.605693122994) < 1e-6);
    assert.equal(s.stressKbar, undefined, 'a fixed-cell relax prints no stress here');
  });

  it('a converged vc-relax: the final SCF at the relaxed cell is the last point, stress and pressure checked against press_conv_thr', () => {
    const s = summariseRelaxation(out('si-vc-relax'));
    assert.equal(s.calculation, 'vc-relax');
    assert.equal(s.converged, true, s.problems.join('; '));
    assert.equal(s.steps.at(-1)!.finalScf, true);
    assert.equal(s.steps.filter((p) => p.finalScf).length, 1);
    assert.equal(s.pressureKbar, -0.09);
    assert.equal(s.thresholds.pressureKbar, 1);
    const stress = s.checks.find((c) => c.quantity === 'stress')!;
    assert.ok(stress.within && stress.value < 1 && stress.value >= Math.abs(s.pressureKbar!));
    // new unit-cell volume 41.59082 Å³ printed by pw.x
    assert.ok(Math.abs(s.volumeAngstrom3 - 41.59082) < 1e-3, `volume ${s.volumeAngstrom3}`);
    assert.ok(s.steps[0]!.volumeAngstrom3 !== s.volumeAngstrom3);
  });

  it('a vc-relax whose final SCF finds the pressure far from the target is not converged, though BFGS said it was', () => {
    const s = summariseRelaxation(out('si-vc-final'));
    assert.equal(s.converged, false);
    assert.equal(s.failure?.kind, 'final-scf-above-thresholds');
    const stress = s.checks.find((c) => c.quantity === 'stress')!;
    assert.equal(stress.within, false);
    assert.ok(stress.value > 6, `largest deviation ${stress.value} kbar`);
    assert.match(s.problems.join(' '), /press_conv_thr 0\.2 kbar/);
  });

  it('steps exhausted, BFGS failed or an unconverged SCF: not converged, with the failure kind and the numbers', () => {
    const nstep = summariseRelaxation(out('si-relax-nstep'));
    assert.equal(nstep.converged, false);
    assert.equal(nstep.failure?.kind, 'steps-exhausted');
    assert.ok(nstep.checks.some((c) => c.quantity === 'force' && !c.within));
    const bfgs = summariseRelaxation(out('si-bfgs-history'));
    assert.equal(bfgs.failure?.kind, 'bfgs-failed');
    assert.equal(bfgs.converged, false);
    const scf = summariseRelaxation(out('si-relax-scf-unconverged'));
    assert.equal(scf.failure?.kind, 'relax-scf-not-converged');
    assert.match(scf.problems.join(' '), /no forces/);
  });

  it('judges only the stress components cell_dofree frees, and forces on fixed atoms not at all', () => {
    const stress: [Vec3, Vec3, Vec3] = [
      [5, 0.2, 0],
      [0.2, 5, 0],
      [0, 0, -1],
    ];
    assert.equal(stressDeviationKbar(stress, 0, 'all').value, 5);
    assert.equal(stressDeviationKbar(stress, 0, 'z').value, 1);
    assert.equal(stressDeviationKbar(stress, 0, '2Dxy').value, 5);
    assert.equal(stressDeviationKbar(stress, 3, 'volume').value, 0);
    // shape: the deviatoric part about the mean (3 kbar)
    assert.equal(stressDeviationKbar(stress, 0, 'shape').value, 4);
    assert.deepEqual(freeStressComponents('epitaxial_ab'), [[2, 2]]);
    assert.equal(
      maxForceComponent(
        [
          [0.5, 0, 0],
          [0, 0.01, 0],
        ],
        [true, false],
      ),
      0.01,
    );
  });
});
