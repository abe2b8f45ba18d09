import assert from 'node:assert/strict';
import { energiesFromProductionInputs } from '../../../../../src/core/guard/rules/energiesFromProductionInputs';
import { convergenceChoiceInRange } from '../../../../../src/core/guard/rules/convergenceChoiceInRange';
import { artifactRefListSchema, quantitySchema } from '../../../../../src/core/guard/schemaAnnotations';
import { MemoryProvenance } from '../support/memoryProvenance';
import { cutoffSelection, energy, proposed } from '../support/domain';

const schema = {
  type: 'object',
  properties: { energies: artifactRefListSchema('e', { names: ['total_energy'] }), ecutwfcRy: quantitySchema('c', 'Ry') },
};
const withPurpose = (id: string, purpose: string) => {
  const e = energy(id, -57);
  e.meta = { ...e.meta, purpose };
  return e;
};

describe('tier-1 rule energies-from-production-inputs', () => {
  const p = new MemoryProvenance([withPurpose('a-1', 'production'), withPurpose('a-2', 'convergence-test'), energy('a-3', -57)]);
  it('passes production energies (and energies that state no purpose)', () => {
    assert.equal(
      energiesFromProductionInputs({ call: proposed('t', { energies: ['a-1', 'a-3'] }), schema, provenance: p })[0]!.level,
      'pass',
    );
  });
  it('fails a sweep energy used for a result, naming it', () => {
    const [v] = energiesFromProductionInputs({ call: proposed('t', { energies: ['a-1', 'a-2'] }), schema, provenance: p });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /energies\[1\] references a-2, an energy from a convergence-test input/);
  });
});

describe('convergence tests are exempt from the choice rule they establish', () => {
  it('lets a sweep template sit at the finest value, and only a declared test', () => {
    const p = new MemoryProvenance([cutoffSelection('a-1', [20, 25, 30], 25)]);
    assert.equal(
      convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 30, purpose: 'convergence-test' }), schema, provenance: p })[0]!.level,
      'pass',
    );
    assert.equal(
      convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 30, purpose: 'production' }), schema, provenance: p })[0]!.level,
      'fail',
    );
  });
});
