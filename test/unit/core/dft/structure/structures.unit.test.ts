import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DftScienceError } from '../../../../../src/core/dft/scienceError';
import { bulk, type BulkKind } from '../../../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../../../src/core/dft/structure/cell';
import { COVALENT_RADII_ANGSTROM } from '../../../../../src/core/dft/structure/covalentRadii';
import { adsorptionSite, adsorptionSites, siteInstances, type SiteKind } from '../../../../../src/core/dft/structure/sites';
import { slab, type Facet } from '../../../../../src/core/dft/structure/surface';
import { distance } from '../../../../../src/core/dft/structure/vec';
import type { Cell, Vec3 } from '../../../../../src/core/dft/types';

interface AseAtoms {
  symbols: string[];
  cell: Cell;
  positions: Vec3[];
  pbc: boolean[];
}
const ase = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../fixtures/dft/ase-structures.json'), 'utf8')) as {
  bulk: { kind: BulkKind; cell: 'primitive' | 'conventional'; formula: string; params: { a: number; c?: number }; atoms: AseAtoms }[];
  surfaces: {
    facet: Facet;
    symbol: string;
    params: { a: number; c?: number };
    size: [number, number, number];
    vacuum: number;
    atoms: AseAtoms;
    tags: number[];
    sites: Record<string, [number, number]>;
    oxygenAt1p5: Record<string, Vec3>;
  }[];
  covalentRadii: Record<string, number>;
};

const near = (a: number[], b: number[], tol: number, what: string) =>
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= tol, `${what}[${i}]: ${x} vs ${b[i]}`));

const symbolsOf = (formula: string) => formula.match(/[A-Z][a-z]?/g)!;

describe('bulk structures', () => {
  for (const ref of ase.bulk) {
    it(`${ref.kind} ${ref.cell} matches ASE's bulk() cell, atoms and order`, () => {
      const s = bulk({ kind: ref.kind, symbols: symbolsOf(ref.formula), aAngstrom: ref.params.a, cAngstrom: ref.params.c, cell: ref.cell });
      assert.deepEqual(s.symbols, ref.atoms.symbols);
      s.cell.forEach((row, i) => near(row, ref.atoms.cell[i], 1e-9, `cell ${i}`));
      assert.equal(s.positions.length, ref.atoms.positions.length);
      s.positions.forEach((p, i) => near(p, ref.atoms.positions[i], 1e-9, `atom ${i}`));
    });
  }

  it('has the textbook volumes and nearest-neighbour distances', () => {
    const a = 4.05;
    assert.ok(Math.abs(cellVolume(bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: a, cell: 'primitive' }).cell) - a ** 3 / 4) < 1e-9);
    assert.ok(Math.abs(cellVolume(bulk({ kind: 'bcc', symbols: ['Fe'], aAngstrom: a, cell: 'primitive' }).cell) - a ** 3 / 2) < 1e-9);
    const si = bulk({ kind: 'diamond', symbols: ['Si'], aAngstrom: 5.43, cell: 'primitive' });
    // diamond bond length √3 a / 4
    assert.ok(Math.abs(distance(si.positions[0], si.positions[1]) - (Math.sqrt(3) * 5.43) / 4) < 1e-12);
    const mg = bulk({ kind: 'hcp', symbols: ['Mg'], aAngstrom: 3.21, cell: 'primitive' });
    assert.ok(Math.abs(mg.cell[2][2] / 3.21 - Math.sqrt(8 / 3)) < 1e-12, 'ideal c/a by default');
    assert.equal(mg.info?.bravais, 'hcp');
  });

  it('rejects bad input with what to pass', () => {
    assert.throws(() => bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: -4, cell: 'primitive' }), /a = -4 Å/);
    assert.throws(
      () => bulk({ kind: 'rocksalt', symbols: ['Na'], aAngstrom: 5.6, cell: 'primitive' }),
      /2 element symbols \(cation, anion\)/,
    );
    assert.throws(() => bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4, cell: 'unit' as 'primitive' }), DftScienceError);
  });
});

describe('slabs', () => {
  for (const ref of ase.surfaces) {
    it(`${ref.facet} ${ref.size.join('×')} matches ASE's ${ref.facet}() cell, atoms, order and tags`, () => {
      const s = slab({
        facet: ref.facet,
        symbol: ref.symbol,
        aAngstrom: ref.params.a,
        cAngstrom: ref.params.c,
        size: [ref.size[0], ref.size[1]],
        layers: ref.size[2],
        vacuumAngstrom: ref.vacuum,
      });
      s.cell.forEach((row, i) => near(row, ref.atoms.cell[i], 1e-9, `cell ${i}`));
      assert.equal(s.positions.length, ref.atoms.positions.length);
      s.positions.forEach((p, i) => near(p, ref.atoms.positions[i], 1e-9, `atom ${i}`));
      assert.deepEqual(s.tags, ref.tags);
      assert.deepEqual(s.pbc, ref.atoms.pbc);
    });

    it(`${ref.facet} has ASE's sites, and an O atom 1.5 Å above each lands where ASE's add_adsorbate puts it`, () => {
      const s = slab({
        facet: ref.facet,
        symbol: ref.symbol,
        aAngstrom: ref.params.a,
        cAngstrom: ref.params.c,
        size: [ref.size[0], ref.size[1]],
        layers: ref.size[2],
        vacuumAngstrom: ref.vacuum,
      });
      const sites = adsorptionSites(s);
      assert.deepEqual(sites.map((x) => x.kind).sort(), Object.keys(ref.sites).sort());
      for (const site of sites) {
        near(site.fractional, ref.sites[site.kind], 1e-12, site.kind);
        near([site.position[0], site.position[1], site.position[2] + 1.5], ref.oxygenAt1p5[site.kind], 1e-9, `${site.kind} position`);
      }
    });
  }

  it('fcc(111): interlayer spacing a/√3, in-plane neighbours a/√2, fcc hollow over layer 3, hcp hollow over layer 2', () => {
    const a = 3.92;
    const s = slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: a, size: [3, 3], layers: 4, vacuumAngstrom: 10, fixedLayers: 2 });
    const z = (tag: number) => s.positions[s.tags!.indexOf(tag)][2];
    assert.ok(Math.abs(z(1) - z(2) - a / Math.sqrt(3)) < 1e-12);
    const top = s.positions.filter((_, i) => s.tags![i] === 1);
    const nn = Math.min(...top.slice(1).map((p) => distance(p, top[0])));
    assert.ok(Math.abs(nn - a / Math.SQRT2) < 1e-12, `nearest neighbour ${nn}`);
    const under = (kind: SiteKind, tag: number) => {
      const site = adsorptionSite(s, kind).position;
      return s.positions.some((p, i) => s.tags![i] === tag && Math.hypot(p[0] - site[0], p[1] - site[1]) < 1e-9);
    };
    assert.ok(under('fcc', 3) && !under('fcc', 2), 'fcc hollow sits over a third-layer atom');
    assert.ok(under('hcp', 2) && !under('hcp', 3), 'hcp hollow sits over a second-layer atom');
    assert.ok(under('ontop', 1));
    // hollow coordination and bridge midpoint
    assert.equal(adsorptionSite(s, 'fcc').coordination, 3);
    assert.equal(adsorptionSite(s, 'bridge').coordination, 2);
    // the bottom two layers fixed; vacuum 10 Å on each side
    assert.deepEqual(
      s.fixed,
      s.tags!.map((t) => t >= 3),
    );
    assert.ok(Math.abs(s.cell[2][2] - (3 * a) / Math.sqrt(3) - 20) < 1e-12);
    assert.equal(siteInstances(s, 'fcc').length, 9);
  });

  it('(100) hollows are fourfold; (110) has long and short bridges; the bcc(110) hollow is equidistant from three top atoms', () => {
    const cu = slab({ facet: 'fcc100', symbol: 'Cu', aAngstrom: 3.61, size: [2, 2], layers: 3, vacuumAngstrom: 8 });
    assert.equal(adsorptionSite(cu, 'hollow').coordination, 4);
    const ag = slab({ facet: 'fcc110', symbol: 'Ag', aAngstrom: 4.09, size: [2, 2], layers: 4, vacuumAngstrom: 8 });
    const lb = adsorptionSite(ag, 'longbridge').position;
    const sb = adsorptionSite(ag, 'shortbridge').position;
    const o = adsorptionSite(ag, 'ontop').position;
    assert.ok(Math.abs(2 * distance(lb, o) - 4.09) < 1e-12, 'long bridge spans a');
    assert.ok(Math.abs(2 * distance(sb, o) - 4.09 / Math.SQRT2) < 1e-12, 'short bridge spans a/√2');
    const fe = slab({ facet: 'bcc110', symbol: 'Fe', aAngstrom: 2.87, size: [2, 2], layers: 3, vacuumAngstrom: 8 });
    const h = adsorptionSite(fe, 'hollow');
    const d = fe.positions
      .filter((_, i) => fe.tags![i] === 1)
      .map((p) => Math.hypot(p[0] - h.position[0], p[1] - h.position[1]))
      .sort((x, y) => x - y);
    assert.ok(Math.abs(d[0] - d[2]) < 1e-12 && d[3] > d[2] + 0.1, `three equal nearest distances: ${d.slice(0, 4)}`);
    assert.equal(h.coordination, 3);
    assert.throws(() => adsorptionSite(cu, 'fcc'), /fcc100 surface has no "fcc" site. Its sites are: ontop, bridge, hollow/);
  });

  it('rejects bad slab input with what to pass', () => {
    const ok = { facet: 'fcc111' as Facet, symbol: 'Pt', aAngstrom: 3.92, size: [2, 2] as [number, number], layers: 3, vacuumAngstrom: 8 };
    assert.throws(() => slab({ ...ok, facet: 'fcc211' as Facet }), /unknown facet "fcc211"/);
    assert.throws(() => slab({ ...ok, fixedLayers: 3 }), /fixedLayers = 3 must be an integer from 0 to 2/);
    assert.throws(() => slab({ ...ok, vacuumAngstrom: 0 }), /vacuum = 0 Å is not positive/);
    assert.throws(() => slab({ ...ok, size: [2, 0] }), /lateral size \[2,0\]/);
    assert.throws(() => adsorptionSites({ ...slab(ok), info: {} }), /does not say which facet/);
  });
});

describe('covalent radii (Cordero et al. 2008)', () => {
  it('agree with the table ASE carries from the same paper', () => {
    for (const [el, r] of Object.entries(ase.covalentRadii)) {
      if (el in COVALENT_RADII_ANGSTROM) assert.equal(COVALENT_RADII_ANGSTROM[el], r, el);
    }
    assert.ok(Object.keys(ase.covalentRadii).every((el) => el in COVALENT_RADII_ANGSTROM));
  });
});
