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

  it('gives operations written row by row: the 6_3 screw of P6_3/mmc is (x-y, x, z+1/2), as the ITA lists it', () => {
    const ops = operationsOfSpaceGroup(194)!.operations;
    assert.ok(
      ops.some(
        (o) =>
          JSON.stringify(o.rotation) ===
            JSON.stringify([
              [1, -1, 0],
              [1, 0, 0],
              [0, 0, 1],
            ]) && o.translation[2] === 0.5,
      ),
      'the 6_3 screw axis',
    );
  });

  it('every one of the 230 space groups: two atoms at general positions, expanded with its operations, are found in that group with one atom per operation', () => {
    const rad = Math.PI / 180;
    const cellOf = (a: number, b: number, c: number, alpha: number, beta: number, gamma: number): Cell => {
      const [ca, cb, cg, sg] = [Math.cos(alpha * rad), Math.cos(beta * rad), Math.cos(gamma * rad), Math.sin(gamma * rad)];
      const cx = c * cb;
      const cy = (c * (ca - cb * cg)) / sg;
      return [
        [a, 0, 0],
        [b * cg, b * sg, 0],
        [cx, cy, Math.sqrt(c * c - cx * cx - cy * cy)],
      ];
    };
    // A lattice of each crystal system, in the setting the operations are given in (unique axis b, hexagonal axes for R).
    const latticeOf = (n: number): Cell =>
      n <= 2
        ? cellOf(4.1, 5.3, 6.7, 78, 83, 71)
        : n <= 15
          ? cellOf(4.1, 5.3, 6.7, 90, 104, 90)
          : n <= 74
            ? cellOf(4.1, 5.3, 6.7, 90, 90, 90)
            : n <= 142
              ? cellOf(4.1, 4.1, 6.7, 90, 90, 90)
              : n <= 194
                ? cellOf(4.1, 4.1, 6.7, 90, 90, 120)
                : cellOf(4.1, 4.1, 4.1, 90, 90, 90);
    const wrong: string[] = [];
    for (let n = 1; n <= 230; n++) {
      const { operations } = operationsOfSpaceGroup(n)!;
      const cell = latticeOf(n);
      const symbols: string[] = [];
      const positions: Vec3[] = [];
      for (const [symbol, f] of [
        ['O', [0.1123, 0.2317, 0.3571]],
        ['Si', [0.4129, 0.0813, 0.1777]],
      ] as const) {
        for (const o of operations) {
          const g = [0, 1, 2].map((i) => {
            const x = o.rotation[i]![0] * f[0] + o.rotation[i]![1] * f[1] + o.rotation[i]![2] * f[2] + o.translation[i]!;
            return x - Math.floor(x);
          }) as Vec3;
          symbols.push(symbol);
          positions.push(toCartesian(cell, g));
        }
      }
      const found = analyseSymmetry({ symbols, positions, cell, pbc: [true, true, true] });
      if (found.spaceGroup.number !== n || found.equivalentAtoms.filter((k, i) => k === i).length !== 2)
        wrong.push(`${n} found as ${found.spaceGroup.number}`);
    }
    assert.deepEqual(wrong, [], 'space groups whose operations do not rebuild them');
  });
});
