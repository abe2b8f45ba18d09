import assert from 'node:assert/strict';
import { SlabError, standardiseSlab } from '../../../../src/core/adsorption/slab';
import { findSites } from '../../../../src/core/adsorption/sites';
import { slab } from '../../../../src/core/dft/structure/surface';
import type { Cell, Structure, Vec3 } from '../../../../src/core/dft/types';
import { aa20, EMT_A, fcc111 } from './fixtures';

function rotation(axis: Vec3, angle: number): (v: Vec3) => Vec3 {
  const n = Math.hypot(...axis);
  const [x, y, z] = axis.map((a) => a / n) as Vec3;
  const c = Math.cos(angle),
    s = Math.sin(angle),
    t = 1 - c;
  const m = [
    [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
    [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
    [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
  ];
  return (v) => m.map((r) => r[0]! * v[0] + r[1]! * v[1] + r[2]! * v[2]) as Vec3;
}

const kinds = (s: Structure) => {
  const std = standardiseSlab(s);
  const found = findSites(std.slab, std.frame);
  const count: Record<string, number> = {};
  for (const x of found.sites)
    count[x.kind + (x.hollowType ? `-${x.hollowType}` : '')] = (count[x.kind + (x.hollowType ? `-${x.hollowType}` : '')] ?? 0) + 1;
  return { std, found, count };
};

describe('slab standardisation', () => {
  it('finds the normal, the top layer and fixes the bottom third of an AA20 Pt(111) slab', () => {
    const { std, found } = kinds(aa20('09_Pt_111.xyz'));
    assert.ok(Math.abs(std.frame.normal[2] - 1) < 1e-9);
    const tagged = std.slab.tags!.flatMap((t, i) => (t === 1 ? [i] : []));
    assert.deepEqual(found.topLayer, tagged);
    // six layers: the bottom two (18 atoms) are the bottom third
    assert.equal(std.slab.fixed!.filter(Boolean).length, 18);
    assert.ok(std.vacuumAngstrom > 15);
    assert.ok(std.changes.some((c) => /fixed the bottom third.*the file fixed 45/.test(c)));
  });

  it('gives the same sites for a slab rotated arbitrarily in space (the normal is a1 × a2, not z)', () => {
    const base = kinds(fcc111('Pt'));
    const rot = rotation([0.3, -0.8, 0.5], 1.1);
    const s = fcc111('Pt');
    const turned: Structure = { ...s, positions: s.positions.map(rot), cell: s.cell.map(rot) as Cell, pbc: [true, true, true] };
    const t = kinds(turned);
    assert.deepEqual(t.count, base.count);
    assert.deepEqual(t.count, { ontop: 9, bridge: 27, 'hollow-fcc': 9, 'hollow-hcp': 9 });
    assert.deepEqual(t.found.topLayer, base.found.topLayer);
  });

  it('makes a slab wrapped across the c boundary contiguous', () => {
    const s = fcc111('Cu');
    const c = s.cell[2][2];
    // push the bottom layer below z = 0 so a periodic reader wraps it to the top of the cell
    const wrapped: Structure = {
      ...s,
      pbc: [true, true, true],
      positions: s.positions.map((p, i) => (i < 9 ? [p[0], p[1], p[2] - 8.5 + c] : [p[0], p[1], p[2] - 8.5]) as Vec3),
    };
    const { std, count } = kinds(wrapped);
    assert.ok(
      std.changes.some((x) => /moved 9 atoms by whole lattice vectors c/.test(x)),
      std.changes.join(' | '),
    );
    assert.ok(std.thicknessAngstrom < 7, `thickness ${std.thicknessAngstrom} Å`);
    assert.deepEqual(count, { ontop: 9, bridge: 27, 'hollow-fcc': 9, 'hollow-hcp': 9 });
  });

  it('repeats a lateral vector shorter than 6 Å and widens a vacuum below 15 Å, saying so', () => {
    const small = slab({
      facet: 'fcc111',
      symbol: 'Pt',
      aAngstrom: EMT_A['Pt']!,
      size: [2, 1],
      layers: 3,
      vacuumAngstrom: 4,
      fixedLayers: 0,
    });
    const std = standardiseSlab(small);
    assert.deepEqual(std.repeat, [2, 3]);
    assert.equal(std.slab.symbols.length, 2 * 1 * 3 * 6);
    assert.ok(std.changes.some((c) => /repeated the cell 2×3/.test(c)));
    assert.ok(Math.abs(std.vacuumAngstrom - 15) < 1e-9);
    assert.ok(
      std.changes.some((c) => /widened the vacuum from 8\.00 Å to 15 Å/.test(c)),
      std.changes.join(' | '),
    );
    const heights = std.slab.positions.map((p) => p[2]);
    assert.ok(Math.abs(std.slab.cell[2][2] - (Math.max(...heights) - Math.min(...heights)) - 15) < 1e-9);
  });

  it('refuses a structure that is not periodic in the plane, with what to do', () => {
    const s = fcc111('Pt');
    assert.throws(
      () => standardiseSlab({ ...s, pbc: [true, false, false] }),
      (e: unknown) => e instanceof SlabError && /periodic along a1 and a2/.test(e.message) && /Set pbc/.test(e.message),
    );
  });
});
