import assert from 'node:assert/strict';
import { parseRef, resolveRef, valueDifference } from '../../../../src/core/provenance/references';
import type { ArtifactRecord } from '../../../../src/core/provenance/types';

const artifact = (id: string, value: unknown, extra: Partial<ArtifactRecord> = {}): ArtifactRecord => ({
  id,
  kind: 'table',
  name: 'eos_points',
  value,
  contentHash: 'h',
  creator: 'c-1',
  inputs: [],
  concerns: [],
  status: 'final',
  createdAt: 't',
  ...extra,
});

describe('references', () => {
  const eos = artifact('a-7', {
    points: [
      { volumeA3: 16.1, energyEv: -57.1 },
      { volumeA3: 16.5, energyEv: -57.2 },
    ],
    unit: 'eV',
  });
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

  it('compares numbers up to floating-point noise (relative 1e-9, absolute floor 1e-12) unless a wider tolerance is declared', () => {
    assert.equal(valueDifference(45, 45), undefined);
    // The same number written twice: passes.
    assert.equal(valueDifference(-4.192128890000001, -4.19212889), undefined);
    // A difference of 2e-9 on a value of 4.19 is noise (4.8e-10 of it): passes.
    assert.equal(valueDifference(-4.192128891, -4.192128889), undefined);
    // The boundary, both sides: 0.9 and 1.1 of the allowed 1e-9 relative.
    assert.equal(valueDifference(100 * (1 + 0.9e-9), 100), undefined);
    assert.match(valueDifference(100 * (1 + 1.1e-9), 100) ?? '', /≠ 100/);
    // A real difference (a value rounded to 6 decimals) fails.
    assert.match(valueDifference(-4.192129, -4.19212889) ?? '', /-4\.192129 ≠ -4\.19212889/);
    // The absolute floor near zero: 1e-13 from 0 passes, 1e-11 does not.
    assert.equal(valueDifference(1e-13, 0), undefined);
    assert.match(valueDifference(1e-11, 0) ?? '', /1e-11 ≠ 0/);
    assert.match(valueDifference(45.0000001, 45) ?? '', /45\.0000001 ≠ 45/);
    assert.equal(valueDifference(45.0000001, 45, { abs: 1e-6 }), undefined);
    assert.equal(valueDifference(101, 100, { rel: 0.02 }), undefined);
    assert.match(valueDifference(103, 100, { rel: 0.02 }) ?? '', /103 ≠ 100/);
    assert.match(valueDifference({ k: [1, 2, 3] }, { k: [1, 2.5, 3] }) ?? '', /^\.k\[1\]: 2 ≠ 2\.5/);
    assert.match(valueDifference({ a: 1 }, { a: 1, b: 2 }) ?? '', /\.b: present in only one/);
    assert.match(valueDifference('PBE', 'PBEsol') ?? '', /"PBE" ≠ "PBEsol"/);
  });
});
