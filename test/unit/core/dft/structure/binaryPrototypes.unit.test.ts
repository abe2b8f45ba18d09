/** Zincblende (B3) and cesium-chloride (B2) crystals built by name: their symmetry (moyo) and the a of their volume. */
import assert from 'node:assert/strict';
import { latticeConstantFromVolume } from '../../../../../src/core/dft/lattice';
import { latticeAtVolume } from '../../../../../src/core/dft/latticeFromCell';
import { bulk, type BulkKind, type CellChoice } from '../../../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../../../src/core/dft/structure/cell';
import { analyseSymmetry } from '../../../../../src/core/dft/structure/symmetry';

const close = (x: number, y: number, tol: number, what: string) => assert.ok(Math.abs(x - y) <= tol, `${what}: ${x} vs ${y}`);

const CASES: {
  kind: BulkKind;
  symbols: string[];
  a: number;
  group: number;
  symbol: string;
  atoms: Record<CellChoice, number>;
  perConventional: Record<CellChoice, number>;
}[] = [
  {
    kind: 'zincblende',
    symbols: ['Ga', 'As'],
    a: 5.653,
    group: 216,
    symbol: 'F-43m',
    atoms: { primitive: 2, conventional: 8 },
    perConventional: { primitive: 4, conventional: 1 },
  },
  {
    kind: 'cesiumchloride',
    symbols: ['Cs', 'Cl'],
    a: 4.123,
    group: 221,
    symbol: 'Pm-3m',
    atoms: { primitive: 2, conventional: 2 },
    perConventional: { primitive: 1, conventional: 1 },
  },
];

describe('binary prototypes built by name', () => {
  for (const c of CASES) {
    for (const cell of ['primitive', 'conventional'] as const) {
      it(`builds ${c.symbols.join('')} ${c.kind} (${cell} cell) in ${c.symbol} (${c.group}) with ${c.atoms[cell]} atoms, half of each species`, () => {
        const s = bulk({ kind: c.kind, symbols: c.symbols, aAngstrom: c.a, cell });
        assert.equal(s.symbols.length, c.atoms[cell]);
        assert.equal(s.symbols.filter((x) => x === c.symbols[0]).length, c.atoms[cell] / 2);
        const sym = analyseSymmetry(s);
        assert.equal(sym.spaceGroup.number, c.group);
        assert.equal(sym.spaceGroup.symbol.replace(/\s/g, ''), c.symbol);
        close(sym.lattice.aAngstrom, c.a, 1e-9, 'a of the standardised conventional cell');
      });

      it(`gives back a of ${c.kind} from the ${cell} cell's volume, by symmetry and by name alike`, () => {
        const s = bulk({ kind: c.kind, symbols: c.symbols, aAngstrom: c.a, cell });
        const v = cellVolume(s.cell);
        const bySymmetry = latticeAtVolume(s, v);
        assert.equal(bySymmetry.cubic, true);
        assert.equal(bySymmetry.cellsPerConventional, c.perConventional[cell]);
        close(bySymmetry.aAngstrom, c.a, 1e-9, 'a by symmetry');
        close(latticeConstantFromVolume(v, { bravais: c.kind, cell }).aAngstrom, c.a, 1e-9, 'a by name');
      });
    }

    it(`round-trips ${c.kind}'s standardised primitive cell to the same a and space group`, () => {
      const conventional = bulk({ kind: c.kind, symbols: c.symbols, aAngstrom: c.a, cell: 'conventional' });
      const primitive = analyseSymmetry(conventional).primitive;
      assert.equal(primitive.symbols.length, 2);
      assert.equal(analyseSymmetry(primitive).spaceGroup.number, c.group);
      close(latticeAtVolume(primitive, cellVolume(primitive.cell)).aAngstrom, c.a, 1e-9, 'a from the primitive cell');
    });
  }

  it('asks for a cation and an anion', () => {
    assert.throws(
      () => bulk({ kind: 'zincblende', symbols: ['Ga'], aAngstrom: 5.65, cell: 'primitive' }),
      /zincblende needs 2 element symbols \(cation, anion\)/,
    );
    assert.throws(
      () => bulk({ kind: 'cesiumchloride', symbols: ['Cs'], aAngstrom: 4.12, cell: 'primitive' }),
      /cesiumchloride needs 2 element symbols/,
    );
  });
});
