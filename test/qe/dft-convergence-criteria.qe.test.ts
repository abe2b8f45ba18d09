// The pressure criterion against the energy criterion with the real pw.x 6.7, at toy settings
// (fcc Al, Al.pz-vbc.UPF, LDA, mv 0.05 Ry, 11³ k-points; 24 SCFs of about a second each): for
// the same accuracy of the lattice constant, the pressure picks a cheaper cutoff than 1 meV/atom
// of total energy does, and the equations of state at both choices land within the tolerance of
// one at a far higher cutoff.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selectConvergedValue, type ConvergenceRun } from '../../src/core/dft/convergence';
import { bulkModulusFromPressures } from '../../src/core/dft/convergencePressure';
import { fitEos } from '../../src/core/dft/eos';
import { latticeConstantFromVolume } from '../../src/core/dft/lattice';
import { bulk } from '../../src/core/dft/structure/bulk';
import { PwRunner, type Material, type PwPoint } from './dft-support';

const AL: Material = {
  element: 'Al',
  massAmu: 26.98,
  pseudopotential: 'Al.pz-vbc.UPF',
  functional: 'PZ',
  system: { occupations: 'smearing', smearing: 'mv', degauss: 0.05 },
};
const A_START = 4.05;
const K = 0.25;
const CUTOFFS = [15, 20, 25, 30, 40, 50];
const REFERENCE_CUTOFF = 60;
const TOLERANCE_PERCENT = 0.05;

describe('convergence criteria with pw.x: pressure against energy for a lattice constant', function () {
  this.timeout(600_000);
  let dir: string;
  let pw: PwRunner;
  const crystal = (a: number) => bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: a, cell: 'primitive' });
  const asRun = (p: PwPoint): ConvergenceRun => ({
    energyEv: p.energyEv,
    natoms: p.natoms,
    settings: p.settings,
    pressureKbar: p.pressureKbar,
    volumeAngstrom3: p.volumeA3,
  });
  /** The workflow's EOS at one cutoff: ±5 % of a in 5 points, the middle cell's mesh at every volume. */
  const eosA = (ecut: number, aCentre: number) => {
    const centre = crystal(aCentre);
    const points = [0.95, 0.975, 1, 1.025, 1.05].map((s) => pw.run(crystal(aCentre * s), ecut, K, centre.cell));
    const fit = fitEos(
      points.map((p) => ({ volumeA3: p.volumeA3, energyEv: p.energyEv })),
      'birch-murnaghan',
    );
    return latticeConstantFromVolume(fit.v0A3, { bravais: 'fcc', cell: 'primitive' }).aAngstrom;
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-criteria-'));
    pw = new PwRunner(dir, AL);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the pressure picks a coarser cutoff than the energy, and both lattice constants are within 0.05 % of a far higher cutoff's", () => {
    const sweep = CUTOFFS.map((ec) => pw.run(crystal(A_START), ec, K));
    // the probe: the same crystal at 0.99 and 1.01 × a at the lowest cutoff, its middle point the sweep's
    const probe = [0.99, 1.01].map((s) => pw.run(crystal(A_START * s), CUTOFFS[0]!, K));
    const b = bulkModulusFromPressures([...probe, sweep[0]!].map((p) => ({ volumeAngstrom3: p.volumeA3, pressureKbar: p.pressureKbar })));
    assert.ok(b.gpa > 40 && b.gpa < 120, `B from the probe ${b.gpa} GPa (LDA Al ≈ 80)`);

    const energyChoice = selectConvergedValue('ecutwfc', sweep.map(asRun), { kind: 'energy', toleranceMevPerAtom: 1 });
    const byPressure = selectConvergedValue('ecutwfc', sweep.map(asRun), {
      kind: 'pressure',
      toleranceLatticePercent: TOLERANCE_PERCENT,
      bulkModulusGPa: b.gpa,
    });
    assert.equal(
      byPressure.outcome.status,
      'converged',
      byPressure.outcome.status === 'needs-finer-sweep' ? byPressure.outcome.message : '',
    );
    assert.equal(
      energyChoice.outcome.status,
      'converged',
      energyChoice.outcome.status === 'needs-finer-sweep' ? energyChoice.outcome.message : '',
    );
    const pressureCut = (byPressure.outcome as { chosenValue: number }).chosenValue;
    const energyCut = (energyChoice.outcome as { chosenValue: number }).chosenValue;
    assert.ok(pressureCut < energyCut, `pressure ${pressureCut} Ry, energy ${energyCut} Ry`);

    // the same accuracy: the EOS at either choice against the EOS far beyond both
    const aRef = eosA(REFERENCE_CUTOFF, 3.96);
    const aPressure = eosA(pressureCut, 3.96);
    const aEnergy = eosA(energyCut, 3.96);
    const off = (a: number) => (100 * Math.abs(a - aRef)) / aRef;
    assert.ok(
      off(aPressure) < TOLERANCE_PERCENT,
      `a at ${pressureCut} Ry ${aPressure.toFixed(5)} Å vs ${aRef.toFixed(5)} Å at ${REFERENCE_CUTOFF} Ry: ${off(aPressure).toFixed(4)} %`,
    );
    assert.ok(off(aEnergy) < TOLERANCE_PERCENT, `a at ${energyCut} Ry ${aEnergy.toFixed(5)} Å: ${off(aEnergy).toFixed(4)} %`);
    // the cheaper choice costs fewer plane waves per run for the rest of the study (EOS, k sweep)
    assert.ok((pressureCut / energyCut) ** 1.5 < 0.8);
    console.log(
      `      pressure: ${pressureCut} Ry, a ${aPressure.toFixed(5)} Å (${off(aPressure).toFixed(4)} %); energy: ${energyCut} Ry, a ${aEnergy.toFixed(5)} Å (${off(aEnergy).toFixed(4)} %); ` +
        `reference ${REFERENCE_CUTOFF} Ry ${aRef.toFixed(5)} Å; B probe ${b.gpa.toFixed(1)} GPa; ${pw.runs} pw.x runs, ${pw.seconds.toFixed(0)} s`,
    );
  });
});
