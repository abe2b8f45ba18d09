import assert from 'node:assert/strict';
import {
  compositionOf,
  EV_PER_ANGSTROM2_IN_J_PER_M2,
  energyDifference,
  imbalanceOf,
  surfaceAreaAngstrom2,
  type EnergyTerm,
} from '../../../../src/core/dft/energyDifference';
import type { Cell, PhysicalSettings } from '../../../../src/core/dft/types';

const settings: PhysicalSettings = {
  code: 'pw.x',
  functional: 'PZ',
  ecutwfcRy: 30,
  ecutrhoRy: 240,
  kSpacingPerAngstrom: 0.3,
  pseudopotentials: { Mg: { file: 'Mg.pz-n-vbc.UPF' }, O: { file: 'O.pz-rrkjus.UPF' } },
  occupations: 'smearing',
  smearing: 'mv',
  degaussRy: 0.02,
  nspin: 2,
};
const box: Cell = [
  [8, 0, 0],
  [0, 8, 0],
  [0, 0, 8],
];
const term = (
  label: string,
  coefficient: number,
  energyEv: number,
  symbols: string[],
  over: Partial<PhysicalSettings> = {},
  cellAngstrom?: Cell,
): EnergyTerm => ({
  label,
  coefficient,
  energyEv,
  composition: compositionOf(symbols),
  settings: { ...settings, ...over },
  ...(cellAngstrom ? { cellAngstrom } : {}),
});

describe('energy differences with stoichiometric coefficients', () => {
  it('formation energy of MgO per formula unit from hcp Mg and O2, with the formula written out', () => {
    const r = energyDifference(
      [
        term('a-5', 1, -1000, ['Mg', 'O']),
        term('a-9', -0.5, -1500, ['Mg', 'Mg']),
        term('a-12', -0.5, -860, ['O', 'O'], { kSpacingPerAngstrom: undefined, kMesh: [1, 1, 1] }, box),
      ],
      { per: 'formula-unit', count: 1 },
      'ΔH_f',
    );
    assert.ok(r.ok, !r.ok ? r.message : '');
    assert.equal(r.value, -1000 + 750 + 430);
    assert.equal(r.unit, 'eV');
    assert.equal(r.formula, 'ΔH_f = [E(MgO, a-5) − 0.5 × E(Mg2, a-9) − 0.5 × E(O2, a-12)] / 1 formula unit');
  });

  it('per atom divides by the atoms of the compound', () => {
    const r = energyDifference(
      [term('a-5', 1, -1000, ['Mg', 'O']), term('a-9', -0.5, -1500, ['Mg', 'Mg']), term('a-12', -0.5, -860, ['O', 'O'])],
      { per: 'atom', count: 2 },
    );
    assert.ok(r.ok);
    assert.equal(r.value, 180 / 2);
    assert.equal(r.unit, 'eV/atom');
  });

  it('surface energy per area from a slab and its bulk, in eV/Å² and J/m²', () => {
    const slabCell: Cell = [
      [2.8, 0, 0],
      [1.4, 2.4248711, 0],
      [0, 0, 20],
    ];
    const area = surfaceAreaAngstrom2(slabCell);
    assert.ok(Math.abs(area - 2.8 * 2.4248711) < 1e-9);
    const r = energyDifference(
      [term('a-20', 1, -300.5, Array(5).fill('Al')), term('a-3', -5, -60.5, ['Al'])],
      { per: 'area', areaAngstrom2: area, surfaces: 2 },
      'γ',
    );
    assert.ok(r.ok);
    assert.ok(Math.abs(r.value - 2 / (2 * area)) < 1e-12);
    assert.ok(Math.abs(r.valueJPerM2! - r.value * EV_PER_ANGSTROM2_IN_J_PER_M2) < 1e-12);
    assert.match(r.formula, /^γ = \[E\(Al5, a-20\) − 5 × E\(Al, a-3\)\] \/ \(2 × A\), A = 6\.78963908 Å²$/);
  });

  it('refuses coefficients that leave atoms over, naming the element and how many', () => {
    const r = energyDifference([term('a-5', 1, -1000, ['Mg', 'O']), term('a-9', -1, -1500, ['Mg', 'Mg'])], { per: 'cell' });
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.imbalance, { Mg: -1, O: 1 });
    assert.match(!r.ok ? r.message : '', /-1 Mg, 1 O left over/);
    assert.deepEqual(
      imbalanceOf([
        { coefficient: 1, composition: { Al: 5 } },
        { coefficient: -5 / 3, composition: { Al: 3 } },
      ]),
      {},
    );
  });

  it('refuses energies whose settings differ, in words', () => {
    const r = energyDifference(
      [
        term('a-5', 1, -1000, ['Mg', 'O']),
        term('a-9', -0.5, -1500, ['Mg', 'Mg'], { ecutwfcRy: 25, ecutrhoRy: 200 }),
        term('a-12', -0.5, -860, ['O', 'O']),
      ],
      { per: 'cell' },
    );
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', /a-5 vs a-9: .*25/);
    const spin = energyDifference(
      [term('a-5', 1, -1000, ['Mg', 'O'], { nspin: 1 }), term('a-9', -0.5, -1500, ['Mg', 'Mg']), term('a-12', -0.5, -860, ['O', 'O'])],
      { per: 'cell' },
    );
    assert.equal(spin.ok, false);
    // k spacings compared when both state one
    const k = energyDifference(
      [
        term('a-5', 1, -1000, ['Mg', 'O']),
        term('a-9', -0.5, -1500, ['Mg', 'Mg'], { kSpacingPerAngstrom: 0.2 }),
        term('a-12', -0.5, -860, ['O', 'O']),
      ],
      { per: 'cell' },
    );
    assert.equal(k.ok, false);
  });
});
