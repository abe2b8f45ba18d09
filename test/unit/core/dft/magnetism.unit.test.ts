import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parsePwOutput } from '../../../../src/core/dft/qe/output';
import { magneticOrder, magnetizationOf } from '../../../../src/core/dft/magnetism';

const read = (file: string) => parsePwOutput(fs.readFileSync(path.resolve(__dirname, '../../../fixtures', file), 'utf8'));

describe('magnetization of a spin-polarised run', () => {
  it("ferromagnetic bcc Fe: total and absolute moment per cell and per atom, and pw.x's site moment with its source", () => {
    const m = magnetizationOf(read('qe/runs/fe-bcc-magnetic.out'), { symbols: ['Fe'] }, { nspin: 2 });
    assert.equal(m.totalBohrMagnetonPerCell, 2.25);
    assert.equal(m.absoluteBohrMagnetonPerCell, 2.37);
    assert.equal(m.totalBohrMagnetonPerAtom, 2.25);
    assert.equal(m.siteSource, 'pw.x');
    assert.deepEqual(m.sites, [{ atom: 1, symbol: 'Fe', momentBohrMagneton: 2.3027, charge: 6.4905 }]);
    assert.equal(m.order, 'ferromagnetic');
  });

  it('antiferromagnetic bcc Fe (real pw.x run, Fe1 up and Fe2 down): opposite site moments, no net moment', () => {
    const m = magnetizationOf(read('dft/magnetism/fe-bcc-afm.out'), { symbols: ['Fe', 'Fe'], labels: ['Fe1', 'Fe2'] }, { nspin: 2 });
    assert.equal(m.order, 'antiferromagnetic');
    assert.ok(Math.abs(m.totalBohrMagnetonPerCell) < 0.05);
    assert.ok(m.absoluteBohrMagnetonPerCell > 3);
    assert.equal(m.sites[0]!.label, 'Fe1');
    assert.ok(m.sites[0]!.momentBohrMagneton > 1.5 && m.sites[1]!.momentBohrMagneton < -1.5);
  });

  it('Löwdin moments replace the sphere moments when given, and must be one per atom', () => {
    const out = read('qe/runs/fe-bcc-magnetic.out');
    const m = magnetizationOf(out, { symbols: ['Fe'] }, { nspin: 2, lowdin: [2.41] });
    assert.equal(m.siteSource, 'löwdin');
    assert.equal(m.sites[0]!.momentBohrMagneton, 2.41);
    assert.throws(() => magnetizationOf(out, { symbols: ['Fe'] }, { nspin: 2, lowdin: [1, 2] }), /2 Löwdin moments for 1 atoms/);
  });

  it('refuses a run that is not spin-polarised, saying to run it with nspin = 2', () => {
    assert.throws(() => magnetizationOf(read('qe/runs/fe-bcc-magnetic.out'), { symbols: ['Fe'] }, { nspin: 1 }), /nspin = 1: .*nspin = 2/);
    assert.throws(
      () => magnetizationOf(read('qe/runs/si-relax.out'), { symbols: ['Si', 'Si'] }, { nspin: 2 }),
      /prints no total and absolute magnetization/,
    );
  });

  it('names the order from the site moments: small, one sign, cancelling, or not', () => {
    assert.equal(magneticOrder([0.01, -0.02]), 'non-magnetic');
    assert.equal(magneticOrder([2.2, 2.2, 0.05]), 'ferromagnetic');
    assert.equal(magneticOrder([2.2, -2.2]), 'antiferromagnetic');
    assert.equal(magneticOrder([4, -2.5, -0.1]), 'ferrimagnetic');
  });
});
