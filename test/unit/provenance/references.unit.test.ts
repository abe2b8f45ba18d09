import assert from 'node:assert/strict';
import { parseRef, resolveRef, valueDifference } from '../../../src/core/provenance/references';
import type { ArtifactRecord } from '../../../src/core/provenance/types';

const artifact = (id: string, value: unknown, extra: Partial<ArtifactRecord> = {}): ArtifactRecord => ({
  id, kind: 'table', name: 'eos_points', value, contentHash: 'h', creator: 'c-1', inputs: [], concerns: [], status: 'final', createdAt: 't', ...extra,
});

describe('references', () => {
  const eos = artifact('a-7', { points: [{ volumeA3: 16.1, energyEv: -57.1 }, { volumeA3: 16.5, energyEv: -57.2 }], unit: 'eV' });
  const lookup = (id: string) => (id === 'a-7' ? eos : undefined);

  it('parses "a-<n>" and paths, and nothing else', () => {
    assert.deepEqual(parseRef('a-12.chosen.ecutwfcRy'), { artifactId: 'a-12', path: ['chosen', 'ecutwfcRy'] });
    assert.deepEqual(parseRef('a-3'), { artifactId: 'a-3', path: [] });
    for (const bad of ['a-0', 'a-', 'b-1', 'a-1.', 'a-1..x', 'a-1.x y', 12]) assert.equal(parseRef(bad), undefined, String(bad));
  });

  it('resolves paths into objects and array elements by index', () => {
    const r = resolveRef(lookup, 'a-7.points.1.energyEv');
    assert.deepEqual(r.ok && r.value, -57.2);
  });

  it('explains an unresolvable reference: unknown artifact, missing field, index out of range', () => {
    const cases: [string, RegExp][] = [
      ['a-8', /a-8 does not exist in this run/],
      ['a-7.pointz', /a-7 has no field "pointz" \(it has: points, unit\)/],
      ['a-7.points.2', /a-7\.points is a list of 2; "2" is not an index into it \(use 0 to 1\)/],
      ['a-7.unit.x', /a-7\.unit has no field "x" \(it is not an object\)/],
      ['seven', /is not a reference/],
    ];
    for (const [ref, message] of cases) {
      const r = resolveRef(lookup, ref);
      assert.equal(r.ok, false, ref);
      assert.match(!r.ok ? r.problem : '', message);
    }
  });

  it('compares numbers exactly unless a tolerance is declared', () => {
    assert.equal(valueDifference(45, 45), undefined);
    assert.match(valueDifference(45.0000001, 45) ?? '', /45\.0000001 ≠ 45/);
    assert.equal(valueDifference(45.0000001, 45, { abs: 1e-6 }), undefined);
    assert.equal(valueDifference(101, 100, { rel: 0.02 }), undefined);
    assert.match(valueDifference(103, 100, { rel: 0.02 }) ?? '', /103 ≠ 100/);
    assert.match(valueDifference({ k: [1, 2, 3] }, { k: [1, 2.5, 3] }) ?? '', /^\.k\[1\]: 2 ≠ 2\.5/);
    assert.match(valueDifference({ a: 1 }, { a: 1, b: 2 }) ?? '', /\.b: present in only one/);
    assert.match(valueDifference('PBE', 'PBEsol') ?? '', /"PBE" ≠ "PBEsol"/);
  });
});
