import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EOS_FORMS, eosEnergyEv, fitEos, type EosForm, type EosPoint } from '../../../../src/core/dft/eos';
import { DftScienceError } from '../../../../src/core/dft/scienceError';

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
const within = (a: number, b: number, tol: number, what: string) =>
  assert.ok(rel(a, b) <= tol, `${what}: ${a} vs ${b} (rel ${rel(a, b)} > ${tol})`);

// Parameters of the order of fcc Al per atom; the data are generated from each closed form.
const truth = { e0Ev: -57.3, v0A3: 16.5, b0Gpa: 78, b0Prime: 4.6 };
const synthetic = (form: Exclude<EosForm, 'sj'>, scales: number[], t = truth): EosPoint[] =>
  scales.map((s) => ({ volumeA3: t.v0A3 * s, energyEv: eosEnergyEv(form, t.v0A3 * s, t) }));
const window = [0.94, 0.97, 1, 1.03, 1.06];

interface AlFixture {
  points: { volumeA3: number; energyEv: number }[];
  aseFits: Record<EosForm, { v0A3: number; e0Ev: number; b0Gpa: number; b0Prime?: number }>;
}
const al = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../fixtures/dft/al-eos-pwx.json'), 'utf8')) as AlFixture;

describe('equation-of-state fits', () => {
  for (const form of ['birch-murnaghan', 'murnaghan', 'vinet'] as const) {
    it(`recovers the parameters of exact ${form} data`, () => {
      const fit = fitEos(synthetic(form, window), form);
      within(fit.v0A3, truth.v0A3, 1e-7, 'V0');
      within(fit.b0Gpa, truth.b0Gpa, 1e-5, 'B0');
      within(fit.b0Prime, truth.b0Prime, 1e-4, "B0'");
      assert.ok(Math.abs(fit.e0Ev - truth.e0Ev) < 1e-8, `E0 ${fit.e0Ev}`);
      assert.ok(fit.maxAbsResidualEv < 1e-8, `residual ${fit.maxAbsResidualEv} eV on exact data`);
    });
  }

  it('the SJ polynomial reproduces a cubic in V^(-1/3) and its curvature', () => {
    // E(y) = -5 + 300 (y - y0)^2 + 200 (y - y0)^3 with y = V^(-1/3): minimum at V0 = y0^-3 = 20 Å^3,
    // and there d2E/dV2 = E_yy (dy/dV)^2 = 600 (V0^(-4/3) / 3)^2.
    const v0 = 20;
    const y0 = v0 ** (-1 / 3);
    const energy = (v: number) => -5 + 300 * (v ** (-1 / 3) - y0) ** 2 + 200 * (v ** (-1 / 3) - y0) ** 3;
    const b0EvPerA3 = v0 * 600 * (v0 ** (-4 / 3) / 3) ** 2;
    const pts = [0.95, 0.975, 1, 1.025, 1.05].map((s) => ({ volumeA3: v0 * s, energyEv: energy(v0 * s) }));
    const fit = fitEos(pts, 'sj');
    within(fit.v0A3, v0, 1e-9, 'V0');
    within(fit.b0Gpa, b0EvPerA3 * 160.2176634, 1e-7, 'B0');
    assert.ok(Math.abs(fit.e0Ev + 5) < 1e-10);
    assert.ok(fit.maxAbsResidualEv < 1e-9);
  });

  it('reports B0 in GPa: 1 eV/Å^3 is 160.2 GPa', () => {
    const t = { e0Ev: 0, v0A3: 20, b0Gpa: 160.2176634, b0Prime: 4 };
    const fit = fitEos(synthetic('birch-murnaghan', window, t), 'birch-murnaghan');
    within(fit.b0Gpa, 160.2176634, 1e-6, 'B0 in GPa');
  });

  for (const form of EOS_FORMS) {
    it(`matches ASE's ${form} fit of measured pw.x E(V) for fcc Al`, () => {
      const fit = fitEos(al.points, form);
      const ref = al.aseFits[form];
      within(fit.v0A3, ref.v0A3, 1e-6, 'V0');
      within(fit.b0Gpa, ref.b0Gpa, 1e-4, 'B0');
      assert.ok(Math.abs(fit.e0Ev - ref.e0Ev) < 1e-6, `E0 ${fit.e0Ev} vs ${ref.e0Ev}`);
      if (ref.b0Prime !== undefined) within(fit.b0Prime, ref.b0Prime, 1e-3, "B0'");
      // residuals are E_fit - E_data, one per point, and small for a smooth 7-point set
      assert.equal(fit.residualsEv.length, al.points.length);
      fit.residualsEv.forEach((r, i) => assert.ok(Math.abs(r - (fit.energyAtEv(al.points[i].volumeA3) - al.points[i].energyEv)) < 1e-12));
      assert.ok(fit.rmsResidualEv > 0 && fit.rmsResidualEv < 1e-4, `rms ${fit.rmsResidualEv} eV`);
    });
  }

  it('does not depend on the order of the points', () => {
    const shuffled = [3, 0, 6, 1, 5, 2, 4].map((i) => al.points[i]);
    for (const form of EOS_FORMS) {
      within(fitEos(shuffled, form).v0A3, fitEos(al.points, form).v0A3, 1e-9, `${form} V0 after reordering`);
    }
  });

  it('refuses a minimum outside the sampled volumes and says which side to extend', () => {
    const compressedOnly = synthetic('birch-murnaghan', [0.88, 0.9, 0.92, 0.94, 0.96]);
    for (const form of EOS_FORMS) {
      assert.throws(
        () => fitEos(compressedOnly, form),
        (e: unknown) => e instanceof DftScienceError && /larger volumes/.test(e.message) && e.input.extendTowards === 'larger',
        form,
      );
    }
    const expandedOnly = synthetic('birch-murnaghan', [1.02, 1.04, 1.06, 1.08, 1.1]);
    assert.throws(() => fitEos(expandedOnly, 'birch-murnaghan'), /smaller volumes/);
  });

  it('warns when the lowest sampled energy sits at an end of the range', () => {
    const edge = synthetic('birch-murnaghan', [0.999, 1.02, 1.04, 1.06, 1.08]);
    const fit = fitEos(edge, 'birch-murnaghan');
    assert.match(fit.warnings.join(' '), /smallest volume/);
    assert.deepEqual(fitEos(synthetic('birch-murnaghan', window), 'birch-murnaghan').warnings, []);
  });

  it('rejects too few points, non-finite values, duplicate volumes and unknown forms, naming the input', () => {
    const five = synthetic('birch-murnaghan', window);
    assert.throws(() => fitEos(five.slice(0, 4), 'birch-murnaghan'), /at least 5 .* got 4/);
    assert.throws(() => fitEos([...five.slice(0, 4), { volumeA3: 17, energyEv: Number.NaN }], 'vinet'), /point 4: energy NaN eV/);
    assert.throws(() => fitEos([...five.slice(0, 4), { volumeA3: -1, energyEv: 0 }], 'vinet'), /point 4: volume -1/);
    assert.throws(() => fitEos([...five.slice(0, 4), five[2]], 'sj'), /appears twice/);
    assert.throws(() => fitEos(five, 'birch' as EosForm), /unknown equation of state "birch"/);
  });

  it('refuses energies that have no minimum (a maximum or a monotonic curve)', () => {
    const inverted = synthetic('birch-murnaghan', window).map((p) => ({ ...p, energyEv: -p.energyEv }));
    assert.throws(() => fitEos(inverted, 'birch-murnaghan'), /no minimum/);
    const linear = window.map((s) => ({ volumeA3: 16 * s, energyEv: -3 + s }));
    assert.throws(() => fitEos(linear, 'murnaghan'), DftScienceError);
  });
});
