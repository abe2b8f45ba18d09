// Symmetry through moyo against spglib's answers on structures of 66 distinct space groups,
// triclinic to cubic (test/fixtures/structures/symmetry/cases.json, written with spglib by
// scripts/structures/make-fixtures.py), the tolerance, and the lattice parameters of real crystals.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readStructureFile } from '../../../../../src/core/dft/io/structureFile';
import { toCartesian } from '../../../../../src/core/dft/structure/cell';
import { analyseSymmetry, operationsOfSpaceGroup } from '../../../../../src/core/dft/structure/symmetry';
import { CHEMICAL_SYMBOLS } from '../../../../../src/shared/elements';
import type { Cell, Structure, Vec3 } from '../../../../../src/core/dft/types';

const ROOT = path.resolve(__dirname, '../../../../..');

interface Answer {
  symprec: number;
  number: number;
  international: string;
  wyckoffs: string[];
  siteSymmetry: string[];
  equivalentAtoms: number[];
  conventional: { natoms: number; cellpar: number[]; volume: number };
  primitiveNatoms: number;
}
interface Case {
  name: string;
  lattice: number[][];
  positions: number[][];
  numbers: number[];
  answers: Answer[];
}

const { cases } = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/structures/symmetry/cases.json'), 'utf8')) as { cases: Case[] };

const structureOf = (c: Case): Structure => ({
  symbols: c.numbers.map((z) => CHEMICAL_SYMBOLS[z]!),
  positions: c.positions.map((f) => toCartesian(c.lattice as Cell, f as Vec3)),
  cell: c.lattice as Cell,
  pbc: [true, true, true],
});

describe('symmetry (moyo) against spglib', () => {
  it('the fixtures cover at least 30 distinct space groups in all seven crystal systems', () => {
    const numbers = new Set(cases.map((c) => c.answers[0]!.number));
    assert.ok(numbers.size >= 30, `${numbers.size} space groups`);
    const systems = [
      [1, 2],
      [3, 15],
      [16, 74],
      [75, 142],
      [143, 167],
      [168, 194],
      [195, 230],
    ];
    for (const [lo, hi] of systems)
      assert.ok(
        [...numbers].some((n) => n >= lo! && n <= hi!),
        `no space group in ${lo}-${hi}`,
      );
  });

  for (const c of cases) {
    for (const a of c.answers) {
      it(`${c.name} at symprec ${a.symprec} Å: space group ${a.international} (${a.number}), Wyckoff letters, standardised cells as spglib`, () => {
        const s = analyseSymmetry(structureOf(c), { symprecAngstrom: a.symprec });
        assert.equal(s.spaceGroup.number, a.number);
        assert.equal(s.spaceGroup.symbol, a.international);
        // Wyckoff positions related by the group's normaliser (8a and 8b of Fd-3m: an origin shift) are
        // equally right; spglib and moyo may pick different origins, so a letter may differ only where
        // the site symmetry is the same.
        s.wyckoffLetters.forEach((w, i) => {
          if (w !== a.wyckoffs[i])
            assert.equal(
              s.siteSymmetry[i]!.replace(/\s/g, ''),
              a.siteSymmetry[i]!.replace(/\s/g, ''),
              `atom ${i}: ${w} vs ${a.wyckoffs[i]}`,
            );
        });
        assert.deepEqual(s.equivalentAtoms, a.equivalentAtoms);
        assert.equal(s.conventional.symbols.length, a.conventional.natoms);
        assert.equal(s.primitive.symbols.length, a.primitiveNatoms);
        // Lengths and angles as sets: where the symbol fixes no axis order (Fddd), either order is standard.
        const l = s.lattice;
        const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
        const [ours, theirs] = [[l.aAngstrom, l.bAngstrom, l.cAngstrom], a.conventional.cellpar.slice(0, 3)].map(sorted);
        ours!.forEach((x, k) => assert.ok(Math.abs(x - theirs![k]!) < 1e-3, `lengths ${ours} vs ${theirs}`));
        const [oursA, theirsA] = [[l.alphaDegrees, l.betaDegrees, l.gammaDegrees], a.conventional.cellpar.slice(3)].map(sorted);
        oursA!.forEach((x, k) => assert.ok(Math.abs(x - theirsA![k]!) < 1e-2, `angles ${oursA} vs ${theirsA}`));
        assert.ok(Math.abs(l.volumeAngstrom3 - a.conventional.volume) < 1e-3 * a.conventional.volume);
      });
    }
  }
});

describe('symmetry of the example crystals', () => {
  it('NaCl: Fm-3m, a = 5.64 Å from the conventional cell, primitive cell of 2 atoms', () => {
    const s = analyseSymmetry(readStructureFile(path.join(ROOT, 'examples/NaCl.cif')));
    assert.deepEqual([s.spaceGroup.number, s.spaceGroup.symbol, s.spaceGroup.crystalSystem], [225, 'Fm-3m', 'Cubic']);
    assert.ok(Math.abs(s.lattice.aAngstrom - 5.64) < 1e-9);
    assert.equal(s.primitive.symbols.length, 2);
  });

  it('the conventional cell of a primitive input is found (fcc Si from a pw.x input with ibrav 0)', () => {
    const s = analyseSymmetry(readStructureFile(path.join(ROOT, 'test/fixtures/structures/pw-ibrav0-bohr-crystal.in')));
    assert.equal(s.spaceGroup.symbol, 'Fd-3m');
    assert.equal(s.conventional.symbols.length, 8);
    assert.ok(Math.abs(s.lattice.aAngstrom - 2 * 5.1315 * 0.529177210903) < 1e-9);
  });

  it('hcp Mg reports a, c/a and volume of its conventional cell', () => {
    const s = analyseSymmetry(readStructureFile(path.join(ROOT, 'examples/Mg-hcp.cif')));
    assert.equal(s.spaceGroup.symbol, 'P6_3/mmc');
    assert.ok(Math.abs(s.lattice.cOverA - 5.211 / 3.209) < 1e-9);
    assert.ok(Math.abs(s.lattice.volumeAngstrom3 - (Math.sqrt(3) / 2) * 3.209 ** 2 * 5.211) < 1e-9);
  });

  it('Fe1/Fe2 told apart by label lower the symmetry, as pw.x sees it', () => {
    const fe = readStructureFile(path.join(ROOT, 'test/fixtures/structures/pw-fe-afm-labels.in'));
    assert.equal(analyseSymmetry(fe).spaceGroup.symbol, 'Im-3m');
    assert.equal(analyseSymmetry(fe, { byLabel: true }).spaceGroup.symbol, 'Pm-3m');
  });

  it('refuses a tolerance that is not a positive distance', () => {
    const fe = readStructureFile(path.join(ROOT, 'test/fixtures/structures/pw-fe-afm-labels.in'));
    assert.throws(() => analyseSymmetry(fe, { symprecAngstrom: 0 }), /symprec = 0 Å is not a positive distance/);
  });

  it('gives the operations of a space group by number or symbol, with the setting asked for', () => {
    assert.equal(operationsOfSpaceGroup(225)!.operations.length, 192);
    assert.equal(operationsOfSpaceGroup('P 63/m m c')!.number, 194);
    assert.equal(operationsOfSpaceGroup('P 21/n')!.number, 14);
    assert.equal(operationsOfSpaceGroup('R -3 m :R')!.operations.length, 12);
    assert.equal(operationsOfSpaceGroup('R -3 m')!.operations.length, 36);
    assert.equal(operationsOfSpaceGroup('Q 9'), undefined);
  });
});
