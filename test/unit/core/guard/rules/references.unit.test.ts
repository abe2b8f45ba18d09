import assert from 'node:assert/strict';
import { referencesExist } from '../../../../../src/core/guard/rules/referencesExist';
import { referenceValuesMatch } from '../../../../../src/core/guard/rules/referenceValuesMatch';
import { referenceKinds } from '../../../../../src/core/guard/rules/referenceKinds';
import { noProvisionalSupport } from '../../../../../src/core/guard/rules/noProvisionalSupport';
import { artifactRefListSchema, artifactRefSchema, quantitySchema } from '../../../../../src/core/guard/schemaAnnotations';
import { MemoryProvenance } from '../support/memoryProvenance';
import { cutoffSelection, energy, proposed, structureArtifact } from '../support/domain';

const schema = {
  type: 'object',
  properties: {
    ecutwfcRy: quantitySchema('cutoff', 'Ry'),
    structure: artifactRefSchema('structure', { kinds: ['structure'] }),
    energies: artifactRefListSchema('energies', { names: ['total_energy'], unit: 'eV' }),
  },
};
const registry = () =>
  new MemoryProvenance([
    cutoffSelection('a-1', [20, 25, 30, 35], 30),
    structureArtifact('a-2'),
    energy('a-3', -57.1),
    energy('a-4', -57.2),
    { id: 'a-5', kind: 'qe-input', name: 'pw_input', value: { text: '&control/' }, creatorTool: 'make_pw_input' },
    energy('a-6', -57.3, { status: 'provisional' }),
    energy('a-7', -57.3, { status: 'stale' }),
  ]);
const levels = (vs: { level: string }[]) => vs.map((v) => v.level);

describe('tier-1 rule references-exist', () => {
  it('passes when every reference resolves, into fields too', () => {
    const call = proposed('t', { ecutwfcRy: 30, structure: 'a-2', energies: ['a-3', 'a-4'] }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' });
    assert.deepEqual(levels(referencesExist({ call, schema, provenance: registry() })), ['pass']);
  });
  it('fails on an unknown artifact and names it', () => {
    const call = proposed('t', { energies: ['a-3', 'a-99'] });
    const [v] = referencesExist({ call, schema, provenance: registry() });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /energies\[1\] references a-99.*a-99 does not exist in this run/);
  });
  it('fails on a path that is not in the value and lists the fields there are', () => {
    const call = proposed('t', { ecutwfcRy: 30 }, { ecutwfcRy: 'a-1.chosen.ecut' });
    const [v] = referencesExist({ call, schema, provenance: registry() });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /no field "ecut".*ecutwfcRy/);
  });
});

describe('tier-1 rule reference-values-match', () => {
  it('passes when the literal equals the referenced value', () => {
    const call = proposed('t', { ecutwfcRy: 30 }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' });
    assert.deepEqual(levels(referenceValuesMatch({ call, schema, provenance: registry() })), ['pass']);
  });
  it('fails a value that differs from the record behind its reference', () => {
    const call = proposed('t', { ecutwfcRy: 35 }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' });
    const [v] = referenceValuesMatch({ call, schema, provenance: registry() });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /ecutwfcRy = 35 but its reference a-1\.chosen\.ecutwfcRy records 30/);
  });
  it('accepts a difference within the tolerance the artifact declares, and no more', () => {
    const p = new MemoryProvenance([{ ...energy('a-1', -57.123456), tolerance: { abs: 1e-5 } }]);
    const s = { type: 'object', properties: { e: quantitySchema('e', 'eV') } };
    assert.equal(referenceValuesMatch({ call: proposed('t', { e: -57.12346 }, { e: 'a-1' }), schema: s, provenance: p })[0]!.level, 'pass');
    assert.equal(referenceValuesMatch({ call: proposed('t', { e: -57.1235 }, { e: 'a-1' }), schema: s, provenance: p })[0]!.level, 'fail');
  });
});

describe('tier-1 rule reference-kinds', () => {
  it('passes energies that are total_energy outputs', () => {
    const call = proposed('t', { energies: ['a-3', 'a-4'], structure: 'a-2' });
    assert.deepEqual(levels(referenceKinds({ call, schema, provenance: registry() })), ['pass']);
  });
  it('fails an input where an output is needed, naming what made it', () => {
    const call = proposed('t', { energies: ['a-3', 'a-5'] });
    const [v] = referenceKinds({ call, schema, provenance: registry() });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /a-5, a qe-input artifact named "pw_input" made by make_pw_input.*named total_energy/);
  });
});

describe('tier-1 rule no-provisional-support', () => {
  it('passes final artifacts', () => {
    const call = proposed('t', { energies: ['a-3', 'a-4'] });
    assert.deepEqual(levels(noProvisionalSupport({ call, schema, provenance: registry() })), ['pass']);
  });
  it('fails a provisional energy and a stale one, each with what to do', () => {
    const call = proposed('t', { energies: ['a-6', 'a-7'] });
    const vs = noProvisionalSupport({ call, schema, provenance: registry() });
    assert.deepEqual(levels(vs), ['fail', 'fail']);
    assert.match(vs[0]!.reasons[0]!, /a-6.*provisional.*converge/);
    assert.match(vs[1]!.reasons[0]!, /a-7.*stale.*redo/);
  });
});
