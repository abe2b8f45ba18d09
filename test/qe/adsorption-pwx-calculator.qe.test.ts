// pw.x behind the calculator interface: units at the boundary (Ry, Ry/bohr, kbar in;
// eV, eV/Å, eV/Å^3 out), forces against finite differences of its energies, the stress
// sign, and pw.x's own BFGS relaxation with fixed atoms.
import assert from 'node:assert/strict';
import { PwCalculator } from '../../src/core/calculators/pwx';
import type { Structure, Vec3 } from '../../src/core/dft/types';

const PSEUDO_DIR = process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo';
const a = 4.05;
const displaced = (a0: number, shift: Vec3): Structure => ({
  symbols: ['Al', 'Al', 'Al', 'Al'],
  positions: [shift, [0, a0 / 2, a0 / 2], [a0 / 2, 0, a0 / 2], [a0 / 2, a0 / 2, 0]],
  cell: [
    [a0, 0, 0],
    [0, a0, 0],
    [0, 0, a0],
  ],
  pbc: [true, true, true],
});

describe('pw.x calculator', function () {
  this.timeout(600_000);
  const pw = new PwCalculator({
    namelists: { system: { ecutwfc: 15, occupations: 'smearing', smearing: 'mv', degauss: 0.02 }, electrons: { conv_thr: 1e-10 } },
    species: { Al: { massAmu: 26.9815, pseudopotential: 'Al.pz-vbc.UPF' } },
    kPoints: { kind: 'automatic', mesh: [3, 3, 3] },
    pseudoDir: PSEUDO_DIR,
  });

  it('records the physical settings its energies depend on', () => {
    assert.equal(pw.physicalSettings.ecutwfcRy, 15);
    assert.equal(pw.physicalSettings.pseudopotentials['Al']!.file, 'Al.pz-vbc.UPF');
    assert.equal(pw.settings.production, true);
  });

  it('forces are minus the finite-difference gradient of its energies', async () => {
    const s = displaced(a, [0.12, 0.05, -0.03]);
    const r = await pw.calculate(s);
    const h = 0.01;
    const fd =
      -(
        (await pw.calculate(displaced(a, [0.12 + h, 0.05, -0.03]))).energyEv -
        (await pw.calculate(displaced(a, [0.12 - h, 0.05, -0.03]))).energyEv
      ) /
      (2 * h);
    assert.ok(Math.abs(r.forcesEvPerAngstrom[0]![0] - fd) < 5e-3, `force ${r.forcesEvPerAngstrom[0]![0]} vs finite difference ${fd} eV/Å`);
    assert.ok(Math.abs(fd) > 0.05);
    // Newton's third law survives the unit conversion
    const sum = r.forcesEvPerAngstrom.reduce((acc, f) => acc.map((x, k) => x + f[k]!) as Vec3, [0, 0, 0] as Vec3);
    assert.ok(Math.hypot(...sum) < 1e-3);
  });

  it('a compressed crystal has a negative (compressive) stress in eV/Å^3', async () => {
    const r = await pw.calculate(displaced(3.8, [0, 0, 0]), { stress: true });
    const s = r.stressEvPerAngstrom3!;
    for (let k = 0; k < 3; k++) assert.ok(s[k]![k]! < -1e-3, `σ_${k}${k} = ${s[k]![k]} eV/Å^3`);
  });

  it("relaxes with pw.x's BFGS below fmax, leaving fixed atoms where they were", async () => {
    const start: Structure = { ...displaced(a, [0.15, -0.1, 0.05]), fixed: [false, true, true, true] };
    const before = await pw.calculate(start);
    const runsBefore = pw.runs;
    const r = await pw.relax(start, { fmaxEvPerAngstrom: 0.1, maxSteps: 50 });
    assert.equal(pw.runs, runsBefore + 1, 'one pw.x run for the whole relaxation');
    assert.equal(r.converged, true);
    assert.ok(r.fmaxEvPerAngstrom < 0.1);
    assert.ok(r.steps >= 1);
    assert.ok(r.energyEv < before.energyEv, `${r.energyEv} vs ${before.energyEv}`);
    for (let i = 1; i < 4; i++) r.structure.positions[i]!.forEach((x, k) => assert.ok(Math.abs(x - start.positions[i]![k]!) < 1e-6));
    assert.ok(Math.hypot(...r.structure.positions[0]!) < Math.hypot(0.15, -0.1, 0.05), 'the free atom moves back toward its site');
  });
});
