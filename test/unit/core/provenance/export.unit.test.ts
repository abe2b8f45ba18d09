import assert from 'node:assert/strict';
import { toProvJson } from '../../../../src/core/provenance/export';
import type { RunStartPayload } from '../../../../src/core/canvas/types';
import { latticeConstantRun, useRuns } from './fixtures';

const newRun = useRuns();

describe('PROV-JSON export', () => {
  it('maps artifacts and literals to entities, calls to activities, roles to agents, with every relation resolvable', async () => {
    const run = await newRun();
    await latticeConstantRun(run, '/pseudo');
    await run.registry.markStatus(['a-6'], 'stale', 'wrong element');
    const start = run.log.events()[0]!.payload as RunStartPayload;
    const doc = toProvJson(run.registry, run.runId, start);

    assert.equal(doc.prefix.run, `urn:dreams:run:${run.runId}:`);
    const artifactEntities = Object.keys(doc.entity).filter((k) => /^run:a-\d+$/.test(k));
    assert.deepEqual(artifactEntities, ['run:a-1', 'run:a-2', 'run:a-3', 'run:a-4', 'run:a-5', 'run:a-6']);
    assert.deepEqual(Object.keys(doc.activity), ['run:c-1', 'run:c-2', 'run:c-3', 'run:c-4', 'run:c-5']);
    assert.deepEqual(doc.entity['run:a-5'], {
      'prov:type': { $: 'dreams:Artifact', type: 'xsd:QName' },
      'prov:label': 'lattice_constant',
      'dreams:kind': 'scalar',
      'prov:value': 4.04,
      'dreams:unit': 'Å',
      'dreams:contentHash': run.registry.artifact('a-5')!.contentHash,
      'dreams:status': 'final',
    });
    assert.equal(doc.entity['run:a-6']!['dreams:status'], 'stale');
    assert.equal(doc.entity['run:a-2']!['prov:atLocation'], run.registry.artifact('a-2')!.location);
    assert.deepEqual(doc.entity['run:c-2.arg.kspacing'], {
      'prov:type': { $: 'dreams:LiteralArgument', type: 'xsd:QName' },
      'prov:label': 'kspacing',
      'prov:value': 0.2,
      'dreams:reason': 'reason for kspacing',
    });
    assert.deepEqual(doc.entity['run:c-1.arg.ecutwfcListRy']!['prov:value'], { $: '[20,25,30]', type: 'dreams:json' });
    assert.ok(
      Object.values(doc.used).some(
        (u) => u['prov:activity'] === 'run:c-2' && u['prov:entity'] === 'run:a-1' && u['dreams:reference'] === 'a-1.chosen.ecutwfcRy',
      ),
    );
    assert.ok(Object.values(doc.wasDerivedFrom).some((d) => d['prov:generatedEntity'] === 'run:a-5' && d['prov:usedEntity'] === 'run:a-4'));
    assert.deepEqual(doc.agent['run:agent.dft.claude-test'], {
      'prov:type': { $: 'prov:SoftwareAgent', type: 'xsd:QName' },
      'dreams:role': 'dft',
      'dreams:model': 'claude-test',
    });
    assert.equal(JSON.parse((doc.agent['run:dreams']!['dreams:software'] as { $: string }).$)['pw.x'], '6.7');

    // Every relation names something the document defines.
    const defined = new Set([...Object.keys(doc.entity), ...Object.keys(doc.activity), ...Object.keys(doc.agent)]);
    const counts: Record<string, number> = {};
    for (const kind of ['wasGeneratedBy', 'used', 'wasDerivedFrom', 'wasAssociatedWith'] as const) {
      counts[kind] = Object.keys(doc[kind]).length;
      for (const [id, rel] of Object.entries(doc[kind])) {
        assert.match(id, /^_:/);
        for (const field of ['prov:entity', 'prov:activity', 'prov:agent', 'prov:generatedEntity', 'prov:usedEntity']) {
          if (rel[field] !== undefined) assert.ok(defined.has(rel[field] as string), `${kind} ${id} ${field} → ${String(rel[field])}`);
        }
      }
    }
    assert.deepEqual(counts, { wasGeneratedBy: 6, used: 7, wasDerivedFrom: 4, wasAssociatedWith: 5 });
    assert.doesNotThrow(() => JSON.parse(JSON.stringify(doc)));
  });
});
