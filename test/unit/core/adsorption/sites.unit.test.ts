import assert from 'node:assert/strict';
import { standardiseSlab } from '../../../../src/core/adsorption/slab';
import { findSites } from '../../../../src/core/adsorption/sites';
import type { Structure } from '../../../../src/core/dft/types';
import { aa20, fcc100, fcc111 } from './fixtures';

const surfaceOf = (s: Structure) => {
  const std = standardiseSlab(s);
  return { std, found: findSites(std.slab, std.frame) };
};

describe('site finding', () => {
  it('fcc(111): 9 ontop, 27 bridge, 9 fcc and 9 hcp hollows; hcp hollows sit over a second-layer atom', () => {
    const { std, found } = surfaceOf(fcc111('Pd'));
    const by = (k: string, h?: string) => found.sites.filter((s) => s.kind === k && s.hollowType === h);
    assert.equal(by('ontop').length, 9);
    assert.equal(by('bridge').length, 27);
    assert.equal(by('hollow', 'fcc').length, 9);
    assert.equal(by('hollow', 'hcp').length, 9);
    // the slab builder stacks ABC from the top: the second layer (tag 2) lies under hcp hollows
    const second = std.slab.positions.filter((_, i) => std.slab.tags![i] === 2);
    const underneath = (x: number, y: number) =>
      second.some((p) =>
        [-1, 0, 1].some((a) =>
          [-1, 0, 1].some(
            (b) =>
              Math.hypot(
                p[0] + a * std.slab.cell[0][0] + b * std.slab.cell[1][0] - x,
                p[1] + a * std.slab.cell[0][1] + b * std.slab.cell[1][1] - y,
              ) < 0.3,
          ),
        ),
      );
    for (const s of by('hollow', 'hcp')) assert.ok(underneath(s.centre[0], s.centre[1]), `hcp ${s.id} has no second-layer atom beneath`);
    for (const s of by('hollow', 'fcc')) assert.ok(!underneath(s.centre[0], s.centre[1]), `fcc ${s.id} has a second-layer atom beneath`);
    // bridges join nearest neighbours only
    for (const s of by('bridge')) {
      const [p, q] = s.atomPositions;
      assert.ok(Math.abs(Math.hypot(p![0] - q![0], p![1] - q![1], p![2] - q![2]) - 3.8785 / Math.SQRT2) < 1e-6);
    }
  });

  it('fcc(100): 9 ontop, 18 bridge and 9 four-fold hollows, no long-diagonal bridges', () => {
    const { found } = surfaceOf(fcc100('Ag'));
    const count = (k: string, h?: string) => found.sites.filter((s) => s.kind === k && s.hollowType === h).length;
    assert.deepEqual(
      [count('ontop'), count('bridge'), count('hollow', '4fold'), count('hollow', 'fcc') + count('hollow', 'hcp')],
      [9, 18, 9, 0],
    );
  });

  it('equivalent sites of a pure metal share a fingerprint; fcc and hcp do not', () => {
    const { found } = surfaceOf(fcc111('Au'));
    const fps = new Set(found.sites.map((s) => s.fingerprint));
    assert.equal(fps.size, 4);
  });

  it('on an alloy (AA20 Cu3Ag) fingerprints separate sites of different composition and surroundings', () => {
    const { std, found } = surfaceOf(aa20('05_Cu3Ag_111.xyz'));
    const classes = new Map<string, string[]>();
    for (const s of found.sites) classes.set(s.fingerprint, s.surfaceAtoms.map((i) => std.slab.symbols[i]!).sort());
    // every class has one composition, and there are more classes than compositions
    const compositions = new Set([...classes.values()].map((x) => x.join('')));
    assert.ok(classes.size > compositions.size, `${classes.size} classes, ${compositions.size} compositions`);
    for (const s of found.sites) assert.deepEqual(s.surfaceAtoms.map((i) => std.slab.symbols[i]!).sort(), classes.get(s.fingerprint));
    assert.ok(
      found.topLayer.every((i) => std.slab.tags![i] === 1),
      'exposed atoms are FAIR-Chem surface atoms',
    );
  });
});
