// The one reference rule: a value taken from an artifact is given by its reference, in
// `references`, as the argument's value, or both (the same reference). Every form a model
// writes is accepted or refused with the form the argument takes; a seed-only argument may
// take a provisional value whatever its type; float noise is not a different value.
import assert from 'node:assert/strict';
import { assessCall, normaliseReferences, worstLevel } from '../../../../src/core/guard/assessCall';
import type { GuardedToolSpec } from '../../../../src/core/guard/toolSpec';
import { artifactRefListSchema, artifactRefSchema, quantitySchema, seedOnlySchema } from '../../../../src/core/guard/schemaAnnotations';
import type { Verdict } from '../../../../src/core/guard/types';
import { MemoryProvenance } from './support/memoryProvenance';
import { cutoffSelection, energy, proposed, structureArtifact } from './support/domain';

const spec: GuardedToolSpec = {
  name: 'probe',
  description: 'a tool to probe the reference forms',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The structure', { kinds: ['structure'] }),
      energies: artifactRefListSchema('Energies', { names: ['total_energy'], unit: 'eV' }),
      ecutwfcRy: quantitySchema('Cutoff', 'Ry'),
      startAngstrom: seedOnlySchema(quantitySchema('Starting lattice constant', 'Å'), 'the fit finds its own minimum'),
      label: { type: 'string' },
    },
    additionalProperties: false,
  },
  rules: [],
  outputs: {},
  async run() {
    return { artifacts: [], summary: 'ran' };
  },
};

const registry = () =>
  new MemoryProvenance([
    cutoffSelection('a-1', [20, 25, 30, 35], 30),
    structureArtifact('a-2'),
    energy('a-3', -57.1),
    energy('a-4', -57.2),
    structureArtifact('a-5'),
    {
      id: 'a-6',
      kind: 'scalar',
      name: 'lattice_constant',
      value: 4.0493877,
      unit: 'Å',
      creatorTool: 'lattice_constant_from_volume',
      status: 'provisional',
    },
  ]);

async function assess(args: Record<string, unknown>, refs: Record<string, string> = {}) {
  const a = await assessCall(spec, proposed('probe', args, refs), { provenance: registry() });
  const fails = (vs: Verdict[]) => vs.filter((v) => v.level === 'fail');
  return {
    ...a,
    level: a.schemaProblems.length ? 'fail' : worstLevel(a.tier1),
    reasons: [...a.schemaProblems, ...fails(a.tier1).flatMap((v) => v.reasons)].join(' | '),
  };
}

describe('one reference rule: every form a model writes', () => {
  it('accepts an artifact argument given as its reference value, in references, or both', async () => {
    for (const [args, refs] of [
      [{ structure: 'a-2' }, {}],
      [{}, { structure: 'a-2' }],
      [{ structure: 'a-2' }, { structure: 'a-2' }],
    ] as const) {
      const a = await assess({ ...args }, { ...refs });
      assert.equal(a.level, 'pass', `${JSON.stringify({ args, refs })}: ${a.reasons}`);
      assert.equal(a.call.args.structure, 'a-2', 'the argument holds the reference itself');
      assert.equal(a.call.refs.structure, undefined, 'a repeated reference is not kept twice');
    }
  });

  it('accepts a list argument whose references entry repeats one of its items', async () => {
    const a = await assess({ energies: ['a-3', 'a-4'] }, { energies: 'a-3' });
    assert.equal(a.level, 'pass', a.reasons);
    assert.deepEqual(a.call.refs, {});
  });

  it('refuses an artifact argument whose references entry names another artifact, saying which form it takes', async () => {
    const a = await assess({ structure: 'a-2' }, { structure: 'a-5' });
    assert.equal(a.level, 'fail');
    assert.match(
      a.reasons,
      /structure takes the reference of the artifact it reads as its value: the value "a-2" and references\.structure = a-5 name different artifacts\. Give the one you mean as the value; references\.structure may repeat the same reference or be left out/,
    );
    const l = await assess({ energies: ['a-3', 'a-4'] }, { energies: 'a-5' });
    assert.match(l.reasons, /energies takes the references of the artifacts it reads as its value.*a-5 is not among them/);
  });

  it("refuses an artifact argument given the artifact's content, saying it takes the reference", async () => {
    const a = await assess({ structure: { symbols: ['Al'] } });
    assert.equal(a.level, 'fail');
    assert.match(
      a.reasons,
      /argument structure takes the reference of the artifact it reads as its value, such as "a-4" \(given \{"symbols":\["Al"\]\}\), not the artifact's content/,
    );
    assert.doesNotMatch(a.reasons, /must be string/, 'no second, generic message for the same argument');
  });

  it('reads a reference given as the value of a number argument as the recorded value behind it', async () => {
    for (const refs of [{}, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' }] as Record<string, string>[]) {
      const a = await assess({ ecutwfcRy: 'a-1.chosen.ecutwfcRy' }, refs);
      assert.equal(a.level, 'pass', a.reasons);
      assert.equal(a.call.args.ecutwfcRy, 30);
      assert.equal(a.call.refs.ecutwfcRy, 'a-1.chosen.ecutwfcRy');
    }
  });

  it('keeps a reference-like string as the literal of a string argument', async () => {
    const a = await assess({ label: 'a-3' });
    assert.equal(a.call.args.label, 'a-3');
    assert.deepEqual(a.call.refs, {});
  });

  it('refuses a number given as one reference and referenced as another with a different value', async () => {
    const a = await assess({ ecutwfcRy: 'a-1.tested.0.value' }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' });
    assert.equal(a.level, 'fail');
    assert.match(a.reasons, /ecutwfcRy = 20 but its reference a-1\.chosen\.ecutwfcRy records 30/);
  });

  it('takes a literal equal to its record up to floating-point noise as the record itself', () => {
    const call = normaliseReferences(
      proposed('probe', { ecutwfcRy: 30.000000000000004 }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' }),
      spec.schema,
      registry(),
    );
    assert.equal(call.args.ecutwfcRy, 30);
    const off = normaliseReferences(
      proposed('probe', { ecutwfcRy: 30.001 }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' }),
      spec.schema,
      registry(),
    );
    assert.equal(off.args.ecutwfcRy, 30.001, 'a real difference is left for reference-values-match to refuse');
  });
});

describe('seed-only is a property of the argument, whatever its type', () => {
  it('lets a provisional number seed an argument marked seed-only, and says why', async () => {
    const a = await assess({ startAngstrom: 4.0493877 }, { startAngstrom: 'a-6' });
    assert.equal(a.level, 'pass', a.reasons);
    const seed = a.tier1.find((v) => v.rule === 'no-provisional-support' && v.parameter === 'startAngstrom');
    assert.match(seed!.reasons[0]!, /a-6 .*provisional; startAngstrom only seeds the calculation: the fit finds its own minimum/);
  });

  it('still refuses the same provisional value where the argument is not a seed', async () => {
    const s: GuardedToolSpec = { ...spec, schema: { type: 'object', properties: { aAngstrom: quantitySchema('Lattice constant', 'Å') } } };
    const a = await assessCall(s, proposed('probe', {}, { aAngstrom: 'a-6' }), { provenance: registry() });
    assert.equal(worstLevel(a.tier1), 'fail');
    assert.match(
      a.tier1.find((v) => v.level === 'fail')!.reasons[0]!,
      /aAngstrom references a-6 \(lattice_constant\), which is provisional/,
    );
  });
});
