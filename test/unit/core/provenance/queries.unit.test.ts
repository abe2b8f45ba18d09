import assert from 'node:assert/strict';
import { openRun } from '../../../../src/core/run/directory';
import { downstream, markStale, supersede, upstream } from '../../../../src/core/provenance/queries';
import { ProvenanceError } from '../../../../src/core/provenance/types';
import { latticeConstantRun, useRuns } from './fixtures';

const newRun = useRuns();

describe('provenance queries', () => {
  it('walks upstream from a result to every call and literal behind it, and nothing else', async () => {
    const run = await newRun();
    await latticeConstantRun(run, '/pseudo');
    const walk = upstream(run.registry, 'a-5');
    assert.equal(walk.root, 'a-5');
    assert.deepEqual(
      walk.artifacts.map((a) => a.id),
      ['a-5', 'a-4', 'a-2', 'a-1'],
    );
    assert.deepEqual(
      walk.calls.map((c) => c.id),
      ['c-4', 'c-3', 'c-2', 'c-1'],
    );
    assert.deepEqual(
      walk.literals.map((l) => [l.call, l.parameter, l.value, l.reason]),
      [
        ['c-2', 'kspacing', 0.2, 'reason for kspacing'],
        ['c-1', 'element', 'Al', 'reason for element'],
        ['c-1', 'ecutwfcListRy', [20, 25, 30], 'reason for ecutwfcListRy'],
      ],
    );
    assert.ok(walk.edges.some((e) => e.relation === 'used' && e.from === 'c-2' && e.to === 'a-1' && e.ref === 'a-1.chosen.ecutwfcRy'));
    assert.deepEqual(
      upstream(run.registry, 'a-4.value').artifacts.map((a) => a.id),
      ['a-4', 'a-2', 'a-1'],
      'a reference with a path walks from its artifact',
    );
  });

  it('lists everything downstream of an input', async () => {
    const run = await newRun();
    await latticeConstantRun(run, '/pseudo');
    assert.deepEqual(
      downstream(run.registry, 'a-1').map((a) => a.id),
      ['a-2', 'a-3', 'a-4', 'a-5'],
    );
    assert.deepEqual(downstream(run.registry, 'a-6'), []);
  });

  it('marks a superseded input and all its dependents stale, with reasons, durably', async () => {
    const run = await newRun();
    await latticeConstantRun(run, '/pseudo');
    const c = await run.registry.recordCall({
      tool: 'converge_cutoff',
      args: {},
      reasons: {},
      context: 'denser sweep',
      verdicts: [],
      agent: { role: 'dft' },
    });
    await run.registry.registerArtifacts(c.id, [{ kind: 'table', name: 'cutoff_convergence', value: { chosen: { ecutwfcRy: 35 } } }]);
    await run.registry.endCall(c.id, { status: 'ok' });
    const changed = await supersede(run.registry, 'a-1', 'a-7', 'the 30 Ry choice missed the 1 meV/atom target');
    assert.deepEqual(changed, ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
    assert.deepEqual(
      run.registry.artifacts().map((a) => [a.id, a.status]),
      [
        ['a-1', 'stale'],
        ['a-2', 'stale'],
        ['a-3', 'stale'],
        ['a-4', 'stale'],
        ['a-5', 'stale'],
        ['a-6', 'final'],
        ['a-7', 'final'],
      ],
    );
    assert.equal(
      run.registry.statusHistory('a-1')[0]!.reason,
      'superseded by a-7 (cutoff_convergence): the 30 Ry choice missed the 1 meV/atom target',
    );
    assert.match(
      run.registry.statusHistory('a-5')[0]!.reason,
      /^computed from a-1 \(cutoff_convergence\), which is stale: superseded by a-7/,
    );
    assert.deepEqual(await markStale(run.registry, 'a-2', 'again'), [], 'already stale: nothing changes');
    await run.close();
    const reopened = await openRun(run.dir, { mode: 'reader' });
    assert.deepEqual(
      reopened.registry.artifacts().map((a) => a.status),
      ['stale', 'stale', 'stale', 'stale', 'stale', 'final', 'final'],
    );
  });

  it('refuses to walk from something that is not an artifact', async () => {
    const run = await newRun();
    assert.throws(
      () => upstream(run.registry, 'a-1'),
      (e: unknown) => e instanceof ProvenanceError && /a-1 does not exist in this run/.test(e.message),
    );
    assert.throws(() => downstream(run.registry, 'c-1'), /"c-1" is not a reference/);
  });
});
