// surface-energy-bulk-matches' lattice check: a slab's in-plane cell vectors must be lattice vectors
// of the bulk it is measured against (by length, so any orientation, supercell or bulk cell), or
// the slab is strained against its reference.
import assert from 'node:assert/strict';
import { inPlaneMismatches } from '../../../../../src/core/guard/rules/surfaceEnergyBulkMatches';
import { bulk } from '../../../../../src/core/dft/structure/bulk';
import { slab } from '../../../../../src/core/dft/structure/surface';

describe('the surface-energy lattice check: the slab cut from the bulk it is measured against', () => {
  const fccPrimitive = bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.96, cell: 'primitive' });
  const fccConventional = bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 3.96, cell: 'conventional' });

  it('passes every facet and lateral size cut at the bulk a, against its primitive or conventional cell', () => {
    for (const facet of ['fcc111', 'fcc100', 'fcc110'] as const)
      for (const size of [
        [1, 1],
        [2, 2],
        [3, 2],
      ] as [number, number][]) {
        const s = slab({ facet, symbol: 'Al', aAngstrom: 3.96, size, layers: 3, vacuumAngstrom: 6 });
        assert.deepEqual(inPlaneMismatches(s, fccPrimitive), [], `${facet} ${size.join('×')} on the primitive cell`);
        assert.deepEqual(inPlaneMismatches(s, fccConventional), [], `${facet} ${size.join('×')} on the conventional cell`);
      }
    const bcc = bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: 2.83, cell: 'primitive' });
    for (const facet of ['bcc110', 'bcc100'] as const)
      assert.deepEqual(
        inPlaneMismatches(slab({ facet, symbol: 'Fe', aAngstrom: 2.83, size: [2, 1], layers: 3, vacuumAngstrom: 6 }), bcc),
        [],
      );
    const hcp = bulk({ kind: 'hcp', symbols: ['Mg'], aAngstrom: 3.2, cAngstrom: 5.2, cell: 'primitive' });
    assert.deepEqual(
      inPlaneMismatches(
        slab({ facet: 'hcp0001', symbol: 'Mg', aAngstrom: 3.2, cAngstrom: 5.2, size: [1, 1], layers: 4, vacuumAngstrom: 6 }),
        hcp,
      ),
      [],
    );
  });

  it('names the in-plane vector and the nearest bulk length of a slab cut at another a (0.5 % off fails, 0.05 % passes)', () => {
    const off = slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 3.96 * 1.005, size: [2, 2], layers: 3, vacuumAngstrom: 6 });
    const m = inPlaneMismatches(off, fccPrimitive)!;
    assert.equal(m.length, 2);
    assert.ok(Math.abs(m[0]!.nearest - 2 * (3.96 / Math.SQRT2)) < 1e-9, `nearest ${m[0]!.nearest}`);
    assert.ok(Math.abs(m[0]!.length / m[0]!.nearest - 1.005) < 1e-9);
    const close = slab({ facet: 'fcc111', symbol: 'Al', aAngstrom: 3.96 * 1.0005, size: [1, 1], layers: 3, vacuumAngstrom: 6 });
    assert.deepEqual(inPlaneMismatches(close, fccPrimitive), []);
  });
});
