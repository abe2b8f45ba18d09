import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { formatExtxyz, parseExtxyz, readExtxyz } from '../../../../../src/core/dft/io/extxyz';
import { StructureFileError } from '../../../../../src/core/dft/io/errors';
import type { Structure, Vec3 } from '../../../../../src/core/dft/types';

const fixtures = path.resolve(__dirname, '../../../../fixtures/adsmind');
const read = (rel: string) => fs.readFileSync(path.join(fixtures, rel), 'utf8');

function assertSameStructure(a: Structure, b: Structure, tol = 1e-8): void {
  assert.deepEqual(b.symbols, a.symbols);
  assert.deepEqual(b.pbc, a.pbc);
  a.positions.forEach((p, i) =>
    p.forEach((x, k) => assert.ok(Math.abs(x - b.positions[i]![k]!) <= tol, `atom ${i} coordinate ${k}: ${x} vs ${b.positions[i]![k]}`)),
  );
  assert.deepEqual(b.cell, a.cell);
  assert.deepEqual(b.tags, a.tags);
  assert.deepEqual(b.fixed, a.fixed);
}

describe('extxyz', () => {
  it('reads an AA20 slab: cell, pbc, tags and the move_mask constraint', () => {
    const s = readExtxyz(read('aa20/09_Pt_111.xyz'));
    assert.equal(s.symbols.length, 54);
    assert.ok(s.symbols.every((x) => x === 'Pt'));
    assert.deepEqual(s.pbc, [true, true, true]);
    assert.equal(s.cell[0][0], 8.46376895904541);
    assert.equal(s.cell[1][1], 7.329838752746582);
    assert.equal(s.cell[2][2], 34.553192138671875);
    assert.deepEqual(s.positions[3], [1.42243767, 2.44918752, 23.05953407]);
    // FAIR-Chem tags: 9 surface atoms (tag 1) may move, the 45 others are fixed
    assert.equal(s.tags!.filter((t) => t === 1).length, 9);
    assert.equal(s.fixed!.filter(Boolean).length, 45);
    s.tags!.forEach((t, i) => assert.equal(s.fixed![i], t === 0));
  });

  it('reads an OCD-GMAE62 slab with a 2D pbc and no constraint column', () => {
    const s = readExtxyz(read('ocd62/041_Cr18Pt18_H.xyz'));
    assert.equal(s.symbols.length, 36);
    assert.deepEqual(s.pbc, [true, true, false]);
    assert.equal(s.fixed, undefined);
    assert.deepEqual(s.cell[1], [1.2000000467046398e-15, 7.718464374542236, -2.671377420425415]);
    assert.equal(s.symbols.filter((x) => x === 'Cr').length, 18);
  });

  it('round-trips every copied AdsMind file exactly', () => {
    for (const dir of ['aa20', 'ocd62']) {
      for (const f of fs.readdirSync(path.join(fixtures, dir)).filter((x) => x.endsWith('.xyz'))) {
        const a = readExtxyz(read(`${dir}/${f}`));
        const b = readExtxyz(formatExtxyz(a));
        assertSameStructure(a, b);
      }
    }
  });

  it('round-trips random structures with tags, constraints, forces and info keys', () => {
    const coord = fc.double({ min: -50, max: 50, noNaN: true });
    const vec = fc.tuple(coord, coord, coord) as fc.Arbitrary<Vec3>;
    const structure = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.record({
        symbols: fc.array(fc.constantFrom('H', 'C', 'O', 'Pt', 'Cu', 'Au'), { minLength: n, maxLength: n }),
        positions: fc.array(vec, { minLength: n, maxLength: n }),
        cell: fc.tuple(vec, vec, vec),
        pbc: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
        tags: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }),
        fixed: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
        forces: fc.array(vec, { minLength: n, maxLength: n }),
        energy: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        label: fc.stringMatching(/^[A-Za-z0-9 _=."-]{1,20}$/),
      }),
    );
    fc.assert(
      fc.property(structure, (r) => {
        const s: Structure = { symbols: r.symbols, positions: r.positions, cell: r.cell, pbc: r.pbc, tags: r.tags, fixed: r.fixed };
        const text = formatExtxyz({
          structure: s,
          arrays: { forces: { type: 'R', rows: r.forces } },
          info: { energy: r.energy, label: `run ${r.label}` },
        });
        const [frame] = parseExtxyz(text);
        const cellIsZero = r.cell.every((row) => row.every((x) => x === 0));
        assertSameStructure(
          {
            ...s,
            cell: cellIsZero
              ? [
                  [0, 0, 0],
                  [0, 0, 0],
                  [0, 0, 0],
                ]
              : s.cell,
          },
          frame!.structure,
        );
        assert.equal(frame!.info['energy'], r.energy);
        assert.equal(frame!.info['label'], `run ${r.label}`);
        frame!.arrays['forces']!.rows.forEach((row, i) =>
          row.forEach((x, k) => assert.ok(Math.abs((x as number) - r.forces[i]![k]!) <= 1e-8)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('reads several frames and a plain XYZ without key=value pairs', () => {
    const s: Structure = {
      symbols: ['O', 'H'],
      positions: [
        [0, 0, 0],
        [0, 0, 0.97],
      ],
      cell: [
        [10, 0, 0],
        [0, 10, 0],
        [0, 0, 10],
      ],
      pbc: [true, true, true],
    };
    const frames = parseExtxyz(
      formatExtxyz([
        s,
        {
          ...s,
          positions: [
            [0, 0, 0],
            [0, 0, 1.1],
          ],
        },
      ]),
    );
    assert.equal(frames.length, 2);
    assert.equal(frames[1]!.structure.positions[1]![2], 1.1);
    const plain = parseExtxyz('2\nwater fragment\nO 0 0 0\nH 0 0 0.97\n');
    assert.deepEqual(plain[0]!.structure.pbc, [false, false, false]);
    assert.equal(plain[0]!.info['comment'], 'water fragment');
  });

  it('keeps a per-direction move_mask as written and counts an atom fixed only when no direction moves', () => {
    const text =
      '2\nLattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3:move_mask:L:3 pbc="T T T"\nCu 0 0 0 F F F\nCu 1 1 1 T T F\n';
    const [frame] = parseExtxyz(text);
    assert.deepEqual(frame!.structure.fixed, [true, false]);
    const again = parseExtxyz(formatExtxyz({ structure: frame!.structure, arrays: frame!.arrays }))[0]!;
    assert.deepEqual(again.arrays['move_mask']!.rows, [
      [false, false, false],
      [true, true, false],
    ]);
  });

  it('says which line is wrong and what to do', () => {
    assert.throws(
      () => parseExtxyz('3\nProperties=species:S:1:pos:R:3\nH 0 0 0\nH 0 0 1\n'),
      (e: unknown) =>
        e instanceof StructureFileError &&
        e.line === 5 &&
        /promises 3 atoms/.test(e.message) &&
        /fix the atom count on line 1/.test(e.message),
    );
    assert.throws(
      () => parseExtxyz('1\nProperties=species:S:1:pos:R:3\nH 0 zero 0\n'),
      (e: unknown) => e instanceof StructureFileError && e.line === 3 && /real number, not "zero"/.test(e.message),
    );
    assert.throws(
      () => parseExtxyz('1\nLattice="1 0 0 0 1 0" Properties=species:S:1:pos:R:3\nH 0 0 0\n'),
      (e: unknown) => e instanceof StructureFileError && e.line === 2 && /Lattice must hold 9 numbers/.test(e.message),
    );
    assert.throws(
      () => parseExtxyz('1\nLattice="1 0 0 0 1 0 0 0 1 Properties=species:S:1:pos:R:3\nH 0 0 0\n'),
      (e: unknown) => e instanceof StructureFileError && e.line === 2 && /never closed/.test(e.message),
    );
    assert.throws(() => parseExtxyz('\n\n'), /no frame/);
  });
});
