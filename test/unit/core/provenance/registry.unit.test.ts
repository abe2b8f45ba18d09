import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openRun } from '../../../../src/core/run/directory';
import { ProvenanceError } from '../../../../src/core/provenance/types';
import { call, useRuns } from './fixtures';

const newRun = useRuns();
const sha256 = (x: string | Buffer) => crypto.createHash('sha256').update(x).digest('hex');
const rule = (name: string) => (e: unknown) => e instanceof ProvenanceError && e.code === name;

describe('provenance registry: calls and artifacts', () => {
  it('records a call, registers its outputs with their hash and inputs, and ends it', async () => {
    const { registry, log } = await newRun();
    const sweep = await registry.recordCall(call('converge_cutoff', { element: { value: 'Al' } }));
    assert.equal(sweep.id, 'c-1');
    assert.equal(sweep.status, 'running');
    const [table] = await registry.registerArtifacts(sweep.id, [
      {
        kind: 'table',
        name: 'cutoff_convergence',
        value: {
          chosen: { ecutwfcRy: 30 },
          rows: [
            [20, -57.1],
            [30, -57.2],
          ],
        },
      },
    ]);
    assert.equal(table!.id, 'a-1');
    assert.equal(
      table!.contentHash,
      sha256('{"chosen":{"ecutwfcRy":30},"rows":[[20,-57.1],[30,-57.2]]}'),
      'sha256 of the RFC 8785 canonical JSON',
    );
    await registry.endCall(sweep.id, { status: 'ok' });

    const scf = await registry.recordCall(
      call('pw_scf', { ecutwfc: { value: 30, ref: 'a-1.chosen.ecutwfcRy' }, degauss: { value: 0.02 } }),
    );
    const [energy] = await registry.registerArtifacts(
      scf.id,
      [{ kind: 'scalar', name: 'total_energy', value: -57.2, unit: 'eV', inputs: ['a-1'], meta: { settings: { ecutwfcRy: 30 } } }],
      [{ source: 'tier1', rule: 'smearing', level: 'warn', message: 'degauss is large for a metal' }],
    );
    assert.deepEqual(energy!.inputs, ['a-1.chosen.ecutwfcRy', 'a-1']);
    assert.equal(energy!.creator, 'c-2');
    assert.equal(energy!.concerns.length, 1);
    const ended = await registry.endCall(scf.id, { status: 'ok' });
    assert.deepEqual([ended.status, ended.outputs], ['ok', ['a-2']]);
    assert.deepEqual(registry.dependentsOf('a-1'), ['a-2']);
    assert.deepEqual(
      log
        .events()
        .filter((e) => e.kind.startsWith('provenance.'))
        .map((e) => e.kind),
      ['provenance.call', 'provenance.artifact', 'provenance.call.end', 'provenance.call', 'provenance.artifact', 'provenance.call.end'],
    );
  });

  it('stores file-backed content under files/<sha256>/<name> before recording it', async () => {
    const { registry, dir } = await newRun();
    const c = await registry.recordCall(call('write_pw_input'));
    const text = "&control\n  calculation='scf'\n/\n";
    const [input] = await registry.registerArtifacts(c.id, [
      { kind: 'qe-input', name: 'pw_input', value: { calculation: 'scf' }, file: { name: '../../al scf.in', bytes: text } },
    ]);
    assert.equal(input!.contentHash, sha256(text));
    assert.equal(input!.location, `files/${sha256(text)}/al_scf.in`);
    assert.equal(fs.readFileSync(path.join(dir, input!.location!), 'utf8'), text);
    assert.deepEqual(registry.resolve('a-1.calculation'), { ok: true, artifact: registry.artifact('a-1'), value: 'scf' });
  });

  it('refuses artifacts from an unknown or ended call', async () => {
    const { registry } = await newRun();
    await assert.rejects(registry.registerArtifacts('c-7', [{ kind: 'scalar', name: 'e', value: 1, unit: 'eV' }]), rule('unknown-call'));
    const c = await registry.recordCall(call('pw_scf'));
    await registry.endCall(c.id, { status: 'failed', error: 'pw.x stopped: S matrix not positive definite' });
    await assert.rejects(registry.registerArtifacts(c.id, [{ kind: 'scalar', name: 'e', value: 1, unit: 'eV' }]), rule('immutable'));
    await assert.rejects(registry.endCall(c.id, { status: 'ok' }), /already ended \(failed\); a call ends once/);
    assert.equal(registry.artifacts().length, 0);
  });

  it('refuses inputs that do not exist', async () => {
    const { registry } = await newRun();
    const c = await registry.recordCall(call('fit_eos'));
    await assert.rejects(
      registry.registerArtifacts(c.id, [{ kind: 'scalar', name: 'a0', value: 4.04, unit: 'Å', inputs: ['a-3'] }]),
      (e: unknown) =>
        rule('unknown-reference')(e) &&
        /call c-1 \(fit_eos\), output 1 \("a0"\) names input "a-3": a-3 does not exist/.test((e as Error).message),
    );
  });

  it('records a call whose reference does not hold (so the refusal is traceable) but lets it neither create nor end ok', async () => {
    const { registry } = await newRun();
    const c1 = await registry.recordCall(call('converge_cutoff'));
    await registry.registerArtifacts(c1.id, [{ kind: 'scalar', name: 'ecutwfc_chosen', value: 45, unit: 'Ry (cutoff)' }]);
    await registry.endCall(c1.id, { status: 'ok' });
    const args = { ecutwfc: { value: 40, ref: 'a-1' } };
    assert.deepEqual(
      registry.argumentProblems(args).map((p) => p.rule),
      ['value-mismatch'],
    );
    const c2 = await registry.recordCall(call('pw_scf', args));
    await assert.rejects(
      registry.registerArtifacts(c2.id, [{ kind: 'scalar', name: 'e', value: 1, unit: 'eV' }]),
      (e: unknown) =>
        rule('value-mismatch')(e) &&
        /call c-2 \(pw_scf\) cannot create artifacts: argument "ecutwfc" = 40 but a-1 records 45 Ry \(cutoff\)/.test((e as Error).message),
    );
    await assert.rejects(registry.endCall(c2.id, { status: 'ok' }), rule('value-mismatch'));
    const refused = await registry.endCall(c2.id, { status: 'refused', error: 'tier1: ecutwfc differs from a-1' });
    assert.equal(refused.status, 'refused');
  });

  it('refuses drafts that are not what their kind says, before storing anything', async () => {
    const { registry, dir } = await newRun();
    const c = await registry.recordCall(call('pw_scf'));
    const bad: [unknown, RegExp][] = [
      [{ kind: 'scalar', name: 'total_energy', value: -57.2 }, /is a scalar: it needs a number value and a unit .* without a unit/],
      [{ kind: 'vector', name: 'forces', value: [1, 'x'], unit: 'eV/Å' }, /is a vector: it needs a list of numbers/],
      [{ kind: 'number', name: 'x', value: 1 }, /kind "number" is not one of scalar, vector/],
      [{ kind: 'table', name: ' ', value: 1 }, /give the artifact a name/],
      [{ kind: 'table', name: 'rows', value: [1, NaN] }, /"rows"\[1\] is NaN/],
      [{ kind: 'file', name: 'out' }, /has neither a value nor a file/],
    ];
    for (const [draft, message] of bad) {
      await assert.rejects(
        registry.registerArtifacts(c.id, [{ kind: 'file', name: 'ok', file: { name: 'ok.txt', bytes: 'x' } }, draft as never]),
        message,
      );
    }
    assert.equal(fs.existsSync(path.join(dir, 'files')), false, 'a refused batch stores no files');
    assert.equal(registry.artifacts().length, 0);
  });

  it('gives concurrent calls distinct artifact ids', async () => {
    const { registry } = await newRun();
    const calls = await Promise.all([1, 2, 3].map((i) => registry.recordCall(call(`tool${i}`))));
    assert.deepEqual(calls.map((c) => c.id).sort(), ['c-1', 'c-2', 'c-3']);
    const made = await Promise.all(
      calls.map((c, i) =>
        registry.registerArtifacts(c.id, [
          { kind: 'scalar', name: 'x', value: i, unit: '1' },
          { kind: 'file', name: 'log', file: { name: 'log.txt', bytes: `log ${i}` } },
        ]),
      ),
    );
    const ids = made.flat().map((a) => a.id);
    assert.equal(new Set(ids).size, 6);
    for (const [i, c] of calls.entries())
      assert.deepEqual(
        registry.call(c.id)!.outputs,
        made[i]!.map((a) => a.id),
      );
  });
});

describe('provenance registry: concerns, status, verdicts', () => {
  it('stamps concerns, records verdicts, and changes status with a reason; a stale value is not revived', async () => {
    const { registry } = await newRun();
    const c = await registry.recordCall(call('pw_scf'));
    await registry.recordVerdicts(c.id, [{ tier: 'tier1', rule: 'smearing', level: 'pass', reasons: ['m-v 0.02 Ry'], judged: true }]);
    const [e] = await registry.registerArtifacts(c.id, [
      { kind: 'scalar', name: 'total_energy', value: -57.2, unit: 'eV', status: 'provisional' },
    ]);
    await registry.endCall(c.id, { status: 'ok' });
    await registry.addConcern(e!.id, { source: 'user', level: 'warn', message: 'check k-mesh' });
    await registry.markStatus([e!.id], 'final', 'approved by user@vscode (ap-1)');
    await registry.markStatus([e!.id], 'stale', 'cutoff a-1 superseded by a-5');
    await assert.rejects(
      registry.markStatus([e!.id], 'final', 'again'),
      (err: unknown) =>
        rule('immutable')(err) &&
        /a-1 \(total_energy\) is stale \(cutoff a-1 superseded by a-5\); a stale value is not revived/.test((err as Error).message),
    );
    await assert.rejects(registry.markStatus([e!.id], 'stale', ''), /give a reason/);
    await assert.rejects(registry.addConcern('a-9', { source: 'user', level: 'warn', message: 'x' }), rule('unknown-reference'));
    const a = registry.artifact(e!.id)!;
    assert.equal(a.status, 'stale');
    assert.deepEqual(
      a.concerns.map((x) => x.message),
      ['check k-mesh'],
    );
    assert.deepEqual(
      registry.statusHistory(e!.id).map((s) => [s.status, s.reason]),
      [
        ['final', 'approved by user@vscode (ap-1)'],
        ['stale', 'cutoff a-1 superseded by a-5'],
      ],
    );
    assert.equal(registry.call(c.id)!.verdicts[0]!.rule, 'smearing');
  });
});

describe('provenance registry: reopen and canvas keys', () => {
  it('rebuilds the same calls, artifacts, dependents and status history on reopen', async () => {
    const run = await newRun();
    const { registry } = run;
    const c1 = await registry.recordCall(call('converge_cutoff'));
    await registry.registerArtifacts(c1.id, [{ kind: 'table', name: 'sweep', value: { chosen: 30 } }]);
    await registry.recordVerdicts(c1.id, [{ tier: 'tier2', rule: 'param-judge@1', level: 'warn', reasons: ['narrow'], judged: false }]);
    await registry.endCall(c1.id, { status: 'ok' });
    const c2 = await registry.recordCall(call('pw_scf', { ecutwfc: { value: 30, ref: 'a-1.chosen' } }));
    await registry.registerArtifacts(
      c2.id,
      [{ kind: 'scalar', name: 'e', value: -1.5, unit: 'eV' }],
      [{ source: 'tier1', level: 'warn', message: 'm' }],
    );
    await registry.endCall(c2.id, { status: 'ok' });
    await registry.markStatus(['a-2'], 'stale', 'superseded');
    const before = {
      artifacts: registry.artifacts(),
      calls: registry.calls(),
      deps: registry.dependentsOf('a-1'),
      history: registry.statusHistory('a-2'),
    };
    await run.close();
    const again = await openRun(run.dir, { mode: 'reader' });
    const r = again.registry;
    assert.deepEqual({ artifacts: r.artifacts(), calls: r.calls(), deps: r.dependentsOf('a-1'), history: r.statusHistory('a-2') }, before);
  });

  it('answers artifacts/<id> and calls/<id> through the canvas, read-only', async () => {
    const { registry, canvas } = await newRun();
    const c = await registry.recordCall(call('pw_scf', {}, { context: 'SCF of fcc Al at a=4.04 Å' }));
    await registry.registerArtifacts(c.id, [{ kind: 'scalar', name: 'total_energy', value: -57.2, unit: 'eV' }]);
    await registry.endCall(c.id, { status: 'ok' });
    const keys = canvas.inspect().filter((k) => /^(artifacts|calls)\//.test(k.key));
    assert.deepEqual(
      keys.map((k) => [k.key, k.mode, k.summary]),
      [
        ['artifacts/a-1', 'framework', 'total_energy = -57.2 eV (scalar, final; by c-1)'],
        ['calls/c-1', 'framework', 'pw_scf ok → a-1: SCF of fcc Al at a=4.04 Å'],
      ],
    );
    const read = canvas.read('artifacts/a-1');
    assert.ok(read.ok);
    assert.equal((read.value as { value: number }).value, -57.2);
    const w = await canvas.write('artifacts/a-1', { value: -60 }, 'nicer number', { kind: 'agent', id: 'dft' });
    assert.equal(w.ok, false);
    assert.equal(registry.artifact('a-1')!.value, -57.2);
  });
});

describe('provenance registry: read-only runs', () => {
  it('a reader registers nothing and stores no files', async () => {
    const run = await newRun();
    const c = await run.registry.recordCall(call('pw_scf'));
    const watcher = await openRun(run.dir, { mode: 'reader' });
    await assert.rejects(
      watcher.registry.registerArtifacts(c.id, [{ kind: 'file', name: 'out', file: { name: 'pw.out', bytes: 'x' } }]),
      /open read-only/,
    );
    await assert.rejects(watcher.registry.recordCall(call('pw_scf')), /open read-only/);
    assert.equal(fs.existsSync(path.join(run.dir, 'files')), false);
  });
});
