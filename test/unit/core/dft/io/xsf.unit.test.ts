import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readExtxyz } from '../../../../../src/core/dft/io/extxyz';
import { StructureFileError } from '../../../../../src/core/dft/io/errors';
import { formatXsf, parseXsf, readXsf } from '../../../../../src/core/dft/io/xsf';
import type { Vec3 } from '../../../../../src/core/dft/types';

const fixtures = path.resolve(__dirname, '../../../../fixtures/adsmind');

describe('XSF', () => {
  it('writes an AA20 slab as CRYSTAL and reads back the same atoms and cell', () => {
    const slab = readExtxyz(fs.readFileSync(path.join(fixtures, 'aa20/10_Pt_100.xyz'), 'utf8'));
    const text = formatXsf(slab);
    assert.match(text, /^CRYSTAL\nPRIMVEC\n/);
    assert.match(text, /PRIMCOORD\n36 1\n/);
    const back = readXsf(text);
    assert.deepEqual(back.symbols, slab.symbols);
    back.positions.forEach((p, i) => p.forEach((x, k) => assert.ok(Math.abs(x - slab.positions[i]![k]!) < 1e-9)));
    back.cell.forEach((row, i) => row.forEach((x, k) => assert.ok(Math.abs(x - slab.cell[i]![k]!) < 1e-9)));
    assert.deepEqual(back.pbc, [true, true, true]);
  });

  it('writes a molecule without a cell as ATOMS, with forces', () => {
    const forces: Vec3[] = [
      [0.1, -0.2, 0.3],
      [0, 0, -1.5],
    ];
    const text = formatXsf(
      {
        symbols: ['C', 'O'],
        positions: [
          [0, 0, 0],
          [0, 0, 1.128],
        ],
        cell: [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
        pbc: [false, false, false],
      },
      forces,
    );
    assert.match(text, /^ATOMS\n\s+6 /);
    const [frame] = parseXsf(text);
    assert.deepEqual(frame!.structure.symbols, ['C', 'O']);
    assert.deepEqual(frame!.forcesEvPerAngstrom, forces);
    assert.equal(frame!.structure.positions[1]![2], 1.128);
  });

  it('reads comments, symbols instead of numbers, SLAB dimensionality and ANIMSTEPS frames', () => {
    const text = [
      '# two steps of a relaxation',
      'ANIMSTEPS 2',
      'SLAB',
      'PRIMVEC',
      '  2.8 0 0',
      '  1.4 2.42487 0',
      '  0 0 20',
      'PRIMCOORD 1',
      '2 1',
      'Pt 0 0 10',
      'o 0 0 12.0',
      'PRIMCOORD 2',
      '2 1',
      '78 0 0 10   0 0 0',
      '8 0 0 11.9  0 0 -0.05',
    ].join('\n');
    const frames = parseXsf(text);
    assert.equal(frames.length, 2);
    assert.deepEqual(frames[0]!.structure.symbols, ['Pt', 'O']);
    assert.deepEqual(frames[1]!.structure.pbc, [true, true, false]);
    assert.equal(frames[1]!.structure.positions[1]![2], 11.9);
    assert.deepEqual(frames[1]!.forcesEvPerAngstrom![1], [0, 0, -0.05]);
  });

  it('names the line and the problem in a bad file', () => {
    assert.throws(
      () => parseXsf('CRYSTAL\nPRIMVEC\n1 0 0\n0 1 0\n0 0 1\nPRIMCOORD\n2 1\n78 0 0 0\n'),
      (e: unknown) => e instanceof StructureFileError && /promises 2 atoms but only 1/.test(e.message),
    );
    assert.throws(
      () => parseXsf('ATOMS\n999 0 0 0\n'),
      (e: unknown) => e instanceof StructureFileError && e.line === 2 && /not an element/.test(e.message),
    );
    assert.throws(
      () => parseXsf('CRYSTAL\nPRIMVEC\n1 0 0\n0 one 0\n0 0 1\n'),
      (e: unknown) => e instanceof StructureFileError && e.line === 4,
    );
    assert.throws(
      () =>
        formatXsf({
          symbols: ['Xx'],
          positions: [[0, 0, 0]],
          cell: [
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
          ],
          pbc: [false, false, false],
        }),
      /"Xx" is not a chemical symbol/,
    );
  });
});
