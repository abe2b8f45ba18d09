import assert from 'node:assert/strict';
import path from 'node:path';
import { latticeConstantFromVolume } from '../../../../src/core/dft/lattice';
import { latticeAtVolume } from '../../../../src/core/dft/latticeFromCell';
import { readStructureFile } from '../../../../src/core/dft/io/structureFile';
import { bulk } from '../../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../../src/core/dft/structure/cell';
import type { Structure } from '../../../../src/core/dft/types';

const ROOT = path.resolve(__dirname, '../../../..');
const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
const scaled = (s: Structure, f: number): Structure => ({
  ...s,
  cell: s.cell.map((v) => v.map((x) => x * f)) as Structure['cell'],
  positions: s.positions.map((p) => p.map((x) => x * f) as [number, number, number]),
});

describe('lattice parameters from a volume through the symmetry of the cell', () => {
  for (const [kind, symbols, cell] of [
    ['fcc', ['Al'], 'primitive'],
    ['fcc', ['Al'], 'conventional'],
    ['bcc', ['Fe'], 'primitive'],
    ['diamond', ['Si'], 'primitive'],
    ['rocksalt', ['Na', 'Cl'], 'primitive'],
    ['sc', ['Po'], 'primitive'],
  ] as const) {
    it(`agrees with the named relation for ${kind} ${symbols.join('')} (${cell} cell), found from the cell alone`, () => {
      const s = bulk({ kind, symbols: [...symbols], aAngstrom: 4, cell });
      const v0 = cellVolume(s.cell) * 1.07;
      const ours = latticeAtVolume(s, v0);
      const named = latticeConstantFromVolume(v0, { bravais: kind, cell });
      assert.equal(ours.cubic, true);
      close(ours.aAngstrom, named.aAngstrom, 1e-10, 'a');
      assert.match(ours.relation, /^a = \(\d V0\)\^\(1\/3\)/);
    });
  }

  it('reads the conventional rocksalt cell of a CIF as one conventional cell (a = V0^(1/3))', () => {
    const nacl = readStructureFile(path.join(ROOT, 'examples/NaCl.cif'));
    const r = latticeAtVolume(nacl, 5.5 ** 3);
    assert.equal(r.cellsPerConventional, 1);
    assert.deepEqual(r.spaceGroup, { number: 225, symbol: 'Fm-3m', crystalSystem: 'Cubic' });
    close(r.aAngstrom, 5.5, 1e-10, 'a');
  });

  it('gives a, c/a and the volume of hcp Mg at its shape, agreeing with the hcp relation', () => {
    const mg = readStructureFile(path.join(ROOT, 'examples/Mg-hcp.cif'));
    const cOverA = 5.211 / 3.209;
    const v0 = cellVolume(mg.cell) * 0.96;
    const r = latticeAtVolume(mg, v0);
    assert.equal(r.cubic, false);
    assert.equal(r.spaceGroup.number, 194);
    close(r.cOverA, cOverA, 1e-9, 'c/a');
    close(r.aAngstrom, latticeConstantFromVolume(v0, { bravais: 'hcp', cOverA }).aAngstrom, 1e-9, 'a');
    close(r.cAngstrom / r.aAngstrom, cOverA, 1e-9, 'c/a at V0');
    close(r.conventionalVolumeAngstrom3, v0, 1e-9, 'conventional volume');
  });

  it('scales wurtzite ZnO to its fitted volume keeping its shape', () => {
    const zno = readStructureFile(path.join(ROOT, 'examples/ZnO-wurtzite.cif'));
    const r0 = latticeAtVolume(zno, cellVolume(zno.cell));
    const r = latticeAtVolume(scaled(zno, 1.01), cellVolume(zno.cell) * 1.01 ** 3);
    assert.equal(r.spaceGroup.number, 186);
    close(r.aAngstrom, r0.aAngstrom * 1.01, 1e-9, 'a');
    close(r.cOverA, r0.cOverA, 1e-9, 'c/a');
  });

  it('counts a supercell as a fraction of a conventional cell', () => {
    const nacl = readStructureFile(path.join(ROOT, 'examples/NaCl.cif'));
    const double: Structure = {
      ...nacl,
      symbols: [...nacl.symbols, ...nacl.symbols],
      positions: [...nacl.positions, ...nacl.positions.map((p) => [p[0] + 5.64, p[1], p[2]] as [number, number, number])],
      cell: [
        [11.28, 0, 0],
        [0, 5.64, 0],
        [0, 0, 5.64],
      ],
    };
    const r = latticeAtVolume(double, 2 * 5.6 ** 3);
    assert.equal(r.cellsPerConventional, 0.5);
    close(r.aAngstrom, 5.6, 1e-9, 'a');
  });

  it('refuses a volume that is not positive, saying what to pass', () => {
    assert.throws(
      () => latticeAtVolume(bulk({ kind: 'fcc', symbols: ['Al'], aAngstrom: 4, cell: 'primitive' }), -1),
      /not a positive number; pass the fitted V0/,
    );
  });
});
