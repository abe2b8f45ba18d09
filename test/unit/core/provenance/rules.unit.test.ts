// Each insert rule on its own, against a hand-built graph.
import assert from 'node:assert/strict';
import {
  argumentProblems,
  checkNoCycle,
  checkReferencedValues,
  checkReferencesExist,
  checkSingleCreator,
  type ProvenanceLookup,
} from '../../../../src/core/provenance/rules';
import { ProvenanceError, type ArtifactRecord, type ToolCallRecord } from '../../../../src/core/provenance/types';

function graph(artifacts: Partial<ArtifactRecord>[], calls: Partial<ToolCallRecord>[]): ProvenanceLookup {
  const a = new Map(
    artifacts.map((x) => [
      x.id!,
      {
        kind: 'scalar',
        name: x.id,
        contentHash: 'h',
        creator: 'c-1',
        inputs: [],
        concerns: [],
        status: 'final',
        createdAt: 't',
        ...x,
      } as ArtifactRecord,
    ]),
  );
  const c = new Map(
    calls.map((x) => [
      x.id!,
      {
        tool: 't',
        args: {},
        reasons: {},
        context: '',
        verdicts: [],
        agent: { role: 'dft' },
        startedAt: 't',
        status: 'running',
        outputs: [],
        ...x,
      } as ToolCallRecord,
    ]),
  );
  return {
    artifact: (id) => a.get(id),
    call: (id) => c.get(id),
    dependentsOf: (id) => [...a.values()].filter((x) => x.inputs.some((r) => r.split('.')[0] === id)).map((x) => x.id),
  };
}

const rule = (name: string) => (e: unknown) => e instanceof ProvenanceError && e.code === name;

describe('provenance insert rules', () => {
  it('single creator: an existing artifact id is never created again', () => {
    const g = graph([{ id: 'a-1', creator: 'c-1' }], [{ id: 'c-1' }, { id: 'c-2' }]);
    assert.throws(() => checkSingleCreator(g, 'a-1', 'c-2'), rule('single-creator'));
    assert.throws(() => checkSingleCreator(g, 'a-1', 'c-2'), /a-1 already exists, created by c-1; an artifact has exactly one creator/);
    checkSingleCreator(g, 'a-2', 'c-2');
  });

  it('single creator: the creator must be a recorded call that is still running', () => {
    const g = graph([], [{ id: 'c-1', status: 'ok', endedAt: '2026-01-01T00:00:00Z', tool: 'pw_scf' }]);
    assert.throws(() => checkSingleCreator(g, 'a-1', 'c-9'), rule('unknown-call'));
    assert.throws(
      () => checkSingleCreator(g, 'a-1', 'c-1'),
      /call c-1 \(pw_scf\) already ended \(ok at 2026-01-01T00:00:00Z\); its outputs are fixed/,
    );
  });

  it('references exist: unknown artifacts and missing paths are refused', () => {
    const g = graph([{ id: 'a-1', value: { chosen: { ecutwfcRy: 45 } } }], []);
    checkReferencesExist(g, ['a-1', 'a-1.chosen.ecutwfcRy'], 'output 1');
    assert.throws(() => checkReferencesExist(g, ['a-2'], 'output 1'), rule('unknown-reference'));
    assert.throws(
      () => checkReferencesExist(g, ['a-1.chosen.ecutrhoRy'], 'output 1 ("x")'),
      /output 1 \("x"\) names input "a-1\.chosen\.ecutrhoRy": a-1\.chosen has no field "ecutrhoRy" \(it has: ecutwfcRy\)/,
    );
  });

  it('acyclic: an artifact cannot take itself, or anything that depends on it, as an input', () => {
    // a-1 ← a-2 ← a-3 (a-1 already names a-3, a dangling edge a bad import could leave)
    const g = graph(
      [
        { id: 'a-1', inputs: ['a-3.x'] },
        { id: 'a-2', inputs: ['a-1'] },
        { id: 'a-3', inputs: [] },
      ],
      [],
    );
    assert.throws(() => checkNoCycle(g, 'a-4', ['a-4']), /a-4 cannot take itself as an input/);
    assert.throws(
      () => checkNoCycle(g, 'a-3', ['a-2']),
      (e: unknown) =>
        rule('cycle')(e) && /a-3 cannot take a-2 as an input: a-2 already depends on a-3 \(a-2 ← a-1 ← a-3\)/.test((e as Error).message),
    );
    checkNoCycle(g, 'a-4', ['a-2', 'a-3']);
  });

  it("values match: a referenced argument must equal the recorded value, within the artifact's tolerance if it declares one", () => {
    const g = graph(
      [
        { id: 'a-1', value: { chosen: { ecutwfcRy: 45 } }, unit: 'Ry (cutoff)' },
        { id: 'a-2', value: 4.0396, unit: 'Å', tolerance: { abs: 1e-4 } },
      ],
      [],
    );
    checkReferencedValues(g, { ecutwfc: { value: 45, ref: 'a-1.chosen.ecutwfcRy' }, degauss: { value: 0.02 } }, 'call c-1');
    checkReferencedValues(g, { alat: { value: 4.0397, ref: 'a-2' } }, 'call c-1');
    assert.throws(
      () => checkReferencedValues(g, { ecutwfc: { value: 40, ref: 'a-1.chosen.ecutwfcRy' } }, 'call c-1'),
      (e: unknown) =>
        rule('value-mismatch')(e) &&
        /call c-1: argument "ecutwfc" = 40 but a-1\.chosen\.ecutwfcRy records 45 Ry \(cutoff\) \(must match up to floating-point noise, 1e-9 of its value\)\. Pass the recorded value/.test(
          (e as Error).message,
        ),
    );
    assert.throws(() => checkReferencedValues(g, { alat: { value: 4.04, ref: 'a-2' } }, 'call c-1'), /within tolerance \{"abs":0\.0001\}/);
    assert.deepEqual(
      argumentProblems(g, { x: { value: 1, ref: 'a-9' }, y: { value: 1, ref: 'a-2' } }).map((p) => [p.parameter, p.rule]),
      [
        ['x', 'unknown-reference'],
        ['y', 'value-mismatch'],
      ],
    );
  });
});

describe('provenance insert rules: file-backed artifacts', () => {
  it('a bare reference to a file may carry its value, its location or its content hash, and nothing else', () => {
    const g = graph(
      [{ id: 'a-2', kind: 'qe-input', value: { calculation: 'scf' }, location: 'files/abc/al.scf.in', contentHash: 'abc' }],
      [],
    );
    for (const value of [{ calculation: 'scf' }, 'files/abc/al.scf.in', 'abc'])
      checkReferencedValues(g, { input: { value, ref: 'a-2' } }, 'call c-3');
    assert.throws(
      () => checkReferencedValues(g, { input: { value: 'files/other/al.scf.in', ref: 'a-2' } }, 'call c-3'),
      rule('value-mismatch'),
    );
    assert.throws(() => checkReferencedValues(g, { calc: { value: 'abc', ref: 'a-2.calculation' } }, 'call c-3'), rule('value-mismatch'));
  });
});
