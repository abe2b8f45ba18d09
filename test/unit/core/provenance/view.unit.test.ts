import assert from 'node:assert/strict';
import { resolveRef } from '../../../../src/core/provenance/view';
import type { ArtifactRecord } from '../../../../src/core/provenance/types';

// The guard resolves references with the registry's own code: a path may only name the
// value's own fields, never something inherited (a-1.constructor is not a value).
describe('guard reference resolution', () => {
  const artifact = {
    id: 'a-1',
    kind: 'table',
    name: 'sweep',
    value: { chosen: { ecutwfcRy: 40 }, points: [{ e: -1 }] },
  } as unknown as ArtifactRecord;
  const view = { artifact: (id: string) => (id === 'a-1' ? artifact : undefined), call: () => undefined, artifacts: () => [artifact] };

  it('resolves fields and array elements', () => {
    assert.deepEqual(resolveRef(view, 'a-1.chosen.ecutwfcRy'), { ok: true, artifact, value: 40 });
    assert.equal((resolveRef(view, 'a-1.points.0.e') as { value: unknown }).value, -1);
  });

  it('refuses inherited names and malformed ids', () => {
    assert.equal(resolveRef(view, 'a-1.constructor').ok, false);
    assert.equal(resolveRef(view, 'a-1.chosen.toString').ok, false);
    assert.equal(resolveRef(view, 'a-01').ok, false);
  });
});
