import assert from 'node:assert/strict';
import {
  buildScene,
  cellEdges,
  defaultRepeat,
  formulaOf,
  fractional,
  reducedFormula,
  type Cell3,
  type V3,
} from '../../../../webview-ui/structure3d/scene';
import { elementOf } from '../../../../src/shared/elements';
import { readStructureFile } from '../../../../src/core/dft/io/structureFile';

const nacl = () => readStructureFile('examples/NaCl.cif');

describe('structure scene (what the 3-D view draws)', () => {
  it('draws the conventional rocksalt cell as crystallographers do: corner and face atoms completed on the far faces', () => {
    const s = nacl();
    const scene = buildScene(s);
    // 8 atoms in the cell; Na on corners (8 shown), faces (6), Cl on edges (12) and the centre (1): 27 in all.
    assert.equal(scene.atoms.length, 27);
    assert.equal(scene.atoms.filter((a) => a.symbol === 'Na').length, 14);
    assert.equal(scene.atoms.filter((a) => a.symbol === 'Cl').length, 13);
    assert.equal(scene.cellEdges.length, 12);
  });

  it('repeats the cell 2×2×2 and bonds each Na to six Cl in the bulk', () => {
    const s = nacl();
    const scene = buildScene(s, { repeat: [2, 2, 2], boundaryImages: false });
    assert.equal(scene.atoms.length, 64);
    const centre = scene.atoms.findIndex((a) => a.symbol === 'Na' && a.position.every((x) => Math.abs(x - 5.64) < 1e-6));
    assert.ok(centre >= 0, 'an Na at the centre of the 2×2×2 block');
    const neighbours = scene.bonds
      .filter(([i, j]) => i === centre || j === centre)
      .map(([i, j]) => scene.atoms[i === centre ? j : i]!.symbol);
    assert.deepEqual(neighbours, ['Cl', 'Cl', 'Cl', 'Cl', 'Cl', 'Cl']);
  });

  it('colours and sizes atoms from the one element table and marks fixed atoms', () => {
    const scene = buildScene(
      {
        symbols: ['Fe', 'O'],
        positions: [
          [0, 0, 0],
          [1, 1, 1],
        ],
        cell: [
          [10, 0, 0],
          [0, 10, 0],
          [0, 0, 10],
        ],
        fixed: [true, false],
      },
      { boundaryImages: false },
    );
    assert.equal(scene.atoms[0]!.colour, elementOf('Fe')!.colour);
    assert.equal(scene.atoms[1]!.radius, elementOf('O')!.covalentRadiusAngstrom! * 0.5);
    assert.deepEqual(
      scene.atoms.map((a) => a.fixed),
      [true, false],
    );
  });

  it('does not repeat a slab along a non-periodic direction', () => {
    const cell: Cell3 = [
      [3, 0, 0],
      [0, 3, 0],
      [0, 0, 20],
    ];
    const scene = buildScene(
      { symbols: ['Pt'], positions: [[0.5, 0.5, 5]], cell, pbc: [true, true, false] },
      { repeat: [2, 2, 2], boundaryImages: false },
    );
    assert.equal(scene.atoms.length, 4);
    assert.deepEqual(defaultRepeat({ symbols: ['Pt'], positions: [[0, 0, 0]], cell, pbc: [true, true, false] }), [2, 2, 1]);
  });

  it('finds fractional coordinates in an oblique cell', () => {
    const cell: Cell3 = [
      [3.2, 0, 0],
      [-1.6, 2.771281, 0],
      [0, 0, 5.2],
    ];
    const f: V3 = [1 / 3, 2 / 3, 0.25];
    const p: V3 = [0, 1, 2].map((k) => f[0] * cell[0][k]! + f[1] * cell[1][k]! + f[2] * cell[2][k]!) as V3;
    fractional(cell, p).forEach((x, k) => assert.ok(Math.abs(x - f[k]!) < 1e-12));
    assert.equal(cellEdges(cell).length, 12);
  });

  it('names a compound by its reduced formula and formula units, an element by its symbol', () => {
    assert.deepEqual(reducedFormula(['Na', 'Na', 'Na', 'Na', 'Cl', 'Cl', 'Cl', 'Cl']), { formula: 'NaCl', z: 4 });
    assert.equal(formulaOf(['Na', 'Na', 'Cl', 'Cl']), 'NaCl (Z = 2)');
    assert.equal(formulaOf(['Mg', 'Mg']), 'Mg');
    assert.equal(formulaOf(['Ga', 'As']), 'GaAs');
  });
});
