import assert from 'node:assert/strict';
import { latticeCellSpecOf, latticeConstantFromVolume, volumeFromLatticeConstant } from '../../../../src/core/dft/lattice';
import { bulk } from '../../../../src/core/dft/structure/bulk';
import { cellVolume } from '../../../../src/core/dft/structure/cell';
import { DftScienceError } from '../../../../src/core/dft/scienceError';

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-10, `${what}: ${a} vs ${b}`);

describe('lattice constant from the equilibrium volume', () => {
  it('uses the cubic cell volumes a^3, a^3/4 and a^3/2', () => {
    const a = 4.05;
    close(latticeConstantFromVolume(a ** 3, { bravais: 'fcc', cell: 'conventional' }).aAngstrom, a, 'fcc conventional');
    close(latticeConstantFromVolume(a ** 3 / 4, { bravais: 'fcc', cell: 'primitive' }).aAngstrom, a, 'fcc primitive');
    close(latticeConstantFromVolume(a ** 3 / 2, { bravais: 'bcc', cell: 'primitive' }).aAngstrom, a, 'bcc primitive');
    close(latticeConstantFromVolume(a ** 3 / 4, { bravais: 'diamond', cell: 'primitive' }).aAngstrom, a, 'diamond primitive');
    close(latticeConstantFromVolume(a ** 3, { bravais: 'sc', cell: 'primitive' }).aAngstrom, a, 'sc');
  });

  it('Si diamond: 40.04 Å^3 per 2-atom primitive cell is a = 5.431 Å', () => {
    // a = 5.431 Å (experiment, room temperature): V_prim = a^3/4 = 40.05 Å^3
    const r = latticeConstantFromVolume(5.431 ** 3 / 4, { bravais: 'diamond', cell: 'primitive' });
    close(r.aAngstrom, 5.431, 'Si');
    assert.match(r.relation, /\(4 V0\)\^\(1\/3\)/);
  });

  it('uses V = (√3/2) a^2 c at fixed c/a for hcp', () => {
    const a = 3.21;
    const c = 5.21;
    const v = (Math.sqrt(3) / 2) * a * a * c;
    const r = latticeConstantFromVolume(v, { bravais: 'hcp', cOverA: c / a });
    close(r.aAngstrom, a, 'hcp a');
    close(r.cAngstrom!, c, 'hcp c');
  });

  it('inverts to a volume', () => {
    for (const spec of [
      { bravais: 'fcc', cell: 'primitive' },
      { bravais: 'bcc', cell: 'conventional' },
      { bravais: 'hcp', cOverA: 1.6 },
    ] as const) {
      close(latticeConstantFromVolume(volumeFromLatticeConstant(3.7, spec), spec).aAngstrom, 3.7, JSON.stringify(spec));
    }
  });

  it('never takes a bare cube root of an unnamed cell', () => {
    assert.throws(
      () => latticeConstantFromVolume(16.5, { bravais: 'other' }),
      (e: unknown) => e instanceof DftScienceError && /kind "other"/.test(e.message) && /conventional/.test(e.message),
    );
    assert.throws(() => latticeConstantFromVolume(16.5, { bravais: 'fcc' }), /say which fcc cell .* \(4 V0\)/);
    assert.throws(() => latticeConstantFromVolume(16.5, { bravais: 'hcp' }), /c\/a ratio/);
    assert.throws(() => latticeConstantFromVolume(-1, { bravais: 'fcc', cell: 'primitive' }), /-1 Å\^3 is not a positive/);
  });

  it("reads the cell description bulk() records, so a structure's own volume gives back its a", () => {
    for (const [kind, cell] of [
      ['fcc', 'primitive'],
      ['bcc', 'primitive'],
      ['diamond', 'primitive'],
      ['fcc', 'conventional'],
      ['hcp', 'primitive'],
      ['sc', 'conventional'],
    ] as const) {
      const s = bulk({ kind, symbols: ['X'], aAngstrom: 3.3, cAngstrom: kind === 'hcp' ? 5.2 : undefined, cell });
      close(latticeConstantFromVolume(cellVolume(s.cell), latticeCellSpecOf(s)).aAngstrom, 3.3, `${kind} ${cell}`);
    }
    assert.throws(
      () =>
        latticeCellSpecOf({
          symbols: ['X'],
          positions: [[0, 0, 0]],
          cell: [
            [1, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
          ],
          pbc: [true, true, true],
        }),
      /does not record its lattice/,
    );
  });
});
