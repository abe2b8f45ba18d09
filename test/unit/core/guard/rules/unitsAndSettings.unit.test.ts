import assert from 'node:assert/strict';
import { unitsMatch, unitFromName } from '../../../../../src/core/guard/rules/unitsMatch';
import { settingsComparable } from '../../../../../src/core/guard/rules/settingsComparable';
import { artifactRefListSchema, artifactRefSchema, quantitySchema } from '../../../../../src/core/guard/schemaAnnotations';
import { MemoryProvenance } from '../support/memoryProvenance';
import { energy, proposed } from '../support/domain';

describe('tier-1 rule units-match', () => {
  const schema = {
    type: 'object',
    properties: {
      latticeConstantAngstrom: quantitySchema('a', 'Å'),
      volume: artifactRefSchema('v', { unit: 'Å^3' }),
    },
  };
  const p = new MemoryProvenance([
    { id: 'a-1', kind: 'scalar', name: 'lattice_constant', value: 4.04, unit: 'Å' },
    { id: 'a-2', kind: 'scalar', name: 'lattice_constant', value: 7.63, unit: 'bohr' },
    { id: 'a-3', kind: 'scalar', name: 'total_energy', value: -57.1, unit: 'eV' },
    { id: 'a-4', kind: 'table', name: 'eos_fit', value: { v0Angstrom3: 16.5, e0Ev: -57 } },
  ]);
  it('reads units from field names', () => {
    assert.equal(unitFromName('ecutwfcRy'), 'Ry');
    assert.equal(unitFromName('v0Angstrom3'), 'Å^3');
    assert.equal(unitFromName('kSpacingPerAngstrom'), '1/Å');
    assert.equal(unitFromName('toleranceMevPerAtom'), 'meV/atom');
    assert.equal(unitFromName('bravais'), undefined);
  });
  it('passes a value in the unit the argument takes', () => {
    const vs = unitsMatch({
      call: proposed('t', { latticeConstantAngstrom: 4.04 }, { latticeConstantAngstrom: 'a-1' }),
      schema,
      provenance: p,
    });
    assert.deepEqual(
      vs.map((v) => v.level),
      ['pass'],
    );
  });
  it('fails bohr passed where Å is taken, and says to convert', () => {
    const [v] = unitsMatch({
      call: proposed('t', { latticeConstantAngstrom: 7.63 }, { latticeConstantAngstrom: 'a-2' }),
      schema,
      provenance: p,
    });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /takes Å but its reference a-2 is in bohr.*converted/);
  });
  it('fails an energy passed where a length is taken', () => {
    const [v] = unitsMatch({
      call: proposed('t', { latticeConstantAngstrom: -57.1 }, { latticeConstantAngstrom: 'a-3' }),
      schema,
      provenance: p,
    });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /measure different things/);
  });
  it('checks the dimension of a referenced field for an artifact argument', () => {
    assert.equal(unitsMatch({ call: proposed('t', { volume: 'a-4.v0Angstrom3' }), schema, provenance: p })[0]!.level, 'pass');
    const [v] = unitsMatch({ call: proposed('t', { volume: 'a-4.e0Ev' }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /needs a quantity in Å\^3.*is in eV/);
  });
});

describe('tier-1 rule settings-comparable', () => {
  const schema = {
    type: 'object',
    properties: { parameter: { type: 'string' }, energies: artifactRefListSchema('e', { names: ['total_energy'] }) },
  };
  it('passes energies with the same physical settings, even if SCF control differs', () => {
    const p = new MemoryProvenance([energy('a-1', -1), energy('a-2', -2)]);
    assert.equal(settingsComparable({ call: proposed('t', { energies: ['a-1', 'a-2'] }), schema, provenance: p })[0]!.level, 'pass');
  });
  it('fails energies at different cutoffs and names the field and both values', () => {
    const p = new MemoryProvenance([energy('a-1', -1), energy('a-2', -2, { settings: { ecutwfcRy: 30, ecutrhoRy: 120 } })]);
    const [v] = settingsComparable({ call: proposed('t', { energies: ['a-1', 'a-2'] }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /ecutwfcRy differs: a-1 has 20, a-2 has 30/);
  });
  it('allows the swept parameter to differ in a convergence series, and only it', () => {
    const p = new MemoryProvenance([
      energy('a-1', -1),
      energy('a-2', -2, { settings: { ecutwfcRy: 30, ecutrhoRy: 120 } }),
      energy('a-3', -3, { settings: { ecutwfcRy: 40, ecutrhoRy: 160, smearing: 'gaussian' } }),
    ]);
    assert.equal(
      settingsComparable({ call: proposed('t', { parameter: 'ecutwfc', energies: ['a-1', 'a-2'] }), schema, provenance: p })[0]!.level,
      'pass',
    );
    const [v] = settingsComparable({ call: proposed('t', { parameter: 'ecutwfc', energies: ['a-1', 'a-3'] }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /smearing differs/);
    assert.doesNotMatch(v!.reasons[0]!, /ecutwfcRy differs/);
  });
  it('fails a different pseudopotential file for the same element', () => {
    const p = new MemoryProvenance([
      energy('a-1', -1),
      energy('a-2', -2, { settings: { pseudopotentials: { Al: { file: 'Al.pbe-nl-rrkjus_psl.1.0.0.UPF' } } } }),
    ]);
    assert.match(
      settingsComparable({ call: proposed('t', { energies: ['a-1', 'a-2'] }), schema, provenance: p })[0]!.reasons[0]!,
      /pseudopotentials\.Al differs/,
    );
  });
  it('compares meshes only on the same cell: a molecule at Γ beside a slab is comparable', () => {
    const slabCell = [
      [5, 0, 0],
      [0, 5, 0],
      [0, 0, 20],
    ];
    const p = new MemoryProvenance([
      energy('a-1', -1, { settings: { kSpacingPerAngstrom: undefined, kMesh: [4, 4, 1] }, cell: slabCell }),
      energy('a-2', -2, {
        settings: { kSpacingPerAngstrom: undefined, kMesh: [1, 1, 1] },
        cell: [
          [10, 0, 0],
          [0, 10, 0],
          [0, 0, 10],
        ],
      }),
      energy('a-3', -3, { settings: { kSpacingPerAngstrom: undefined, kMesh: [3, 3, 1] }, cell: slabCell }),
    ]);
    assert.equal(settingsComparable({ call: proposed('t', { energies: ['a-1', 'a-2'] }), schema, provenance: p })[0]!.level, 'pass');
    assert.match(
      settingsComparable({ call: proposed('t', { energies: ['a-1', 'a-3'] }), schema, provenance: p })[0]!.reasons[0]!,
      /kMesh differs/,
    );
  });
});
