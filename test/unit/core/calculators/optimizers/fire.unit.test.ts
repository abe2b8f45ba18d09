import assert from 'node:assert/strict';
import { EmtCalculator } from '../../../../../src/core/calculators/emt';
import { maxFreeForce, relaxWithFire } from '../../../../../src/core/calculators/optimizers/fire';
import type { Structure } from '../../../../../src/core/dft/types';
import { fccBulk, rattled } from '../helpers';

describe('FIRE relaxation', () => {
  const emt = new EmtCalculator();

  it('relaxes a rattled Cu crystal below fmax 0.10 eV/Å and lowers its energy', async () => {
    const start = rattled(fccBulk('Cu', 3.59, undefined, 2), 0.15, 11);
    const before = emt.compute(start);
    assert.ok(maxFreeForce(before.forcesEvPerAngstrom) > 1, 'the rattle must create large forces');
    const r = await relaxWithFire(emt, start);
    assert.equal(r.converged, true);
    assert.ok(r.fmaxEvPerAngstrom < 0.1);
    assert.ok(r.energyEv < before.energyEv - 0.1, `${r.energyEv} vs ${before.energyEv}`);
    assert.equal(r.energyTraceEv.length, r.steps + 1);
    assert.ok(r.steps > 0 && r.steps <= 200);
    assert.equal(maxFreeForce(emt.compute(r.structure).forcesEvPerAngstrom), r.fmaxEvPerAngstrom);
  });

  it('never moves fixed atoms and reports forces only on free ones; stops at the step limit unconverged', async () => {
    const s = rattled(fccBulk('Pt', 3.92, undefined, 2), 0.2, 12);
    const fixed = s.symbols.map((_, i) => i % 2 === 0);
    const start: Structure = { ...s, fixed };
    const r = await relaxWithFire(emt, start, { maxSteps: 3 });
    r.structure.positions.forEach((p, i) => {
      if (fixed[i]) assert.deepEqual(p, start.positions[i]);
    });
    assert.ok(r.structure.positions.some((p, i) => !fixed[i] && p.some((x, k) => x !== start.positions[i]![k])));
    assert.equal(r.steps, 3);
    assert.equal(r.converged, false);
    r.forcesEvPerAngstrom.forEach((f, i) => fixed[i] && assert.deepEqual(f, [0, 0, 0]));
  });
});
