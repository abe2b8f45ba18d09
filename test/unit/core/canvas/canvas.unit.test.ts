import assert from 'node:assert/strict';
import path from 'node:path';
import { Canvas, DEFAULT_KEY_SPECS, type DerivedKeys } from '../../../../src/core/canvas/canvas';
import { openEventLog, type EventLog } from '../../../../src/core/canvas/eventLog';
import type { Actor, KeySpec } from '../../../../src/core/canvas/types';
import type { JobRecord, JobState } from '../../../../src/core/hpc/types';
import { useTempDirs } from './tempDir';

const dft: Actor = { kind: 'agent', id: 'dft', model: 'claude-test' };
const supervisor: Actor = { kind: 'agent', id: 'supervisor', model: 'claude-test' };
const jobsFramework: Actor = { kind: 'framework', id: 'jobs' };
const job = (id: string, state: JobState): JobRecord => ({
  id,
  backend: 'local',
  state,
  program: 'pw.x',
  input: 'pw.in',
  files: [],
  pseudopotentials: [],
  outputs: [],
  createdAt: 'now',
  updatedAt: 'now',
});
const judge: Actor = { kind: 'judge', id: 'report-judge', model: 'claude-test' };
const tempDir = useTempDirs();

async function freshLog(): Promise<{ log: EventLog; file: string }> {
  const file = path.join(tempDir(), 'events.jsonl');
  const { log } = await openEventLog(file, { mode: 'writer' });
  return { log, file };
}

describe('canvas: write, read, inspect', () => {
  let log: EventLog;
  let canvas: Canvas;
  beforeEach(async () => {
    ({ log } = await freshLog());
    canvas = new Canvas(log);
  });
  afterEach(() => log.close());

  it('a note is versioned: each write is a new version, read returns the latest unless a version is asked', async () => {
    const first = await canvas.write('notes/cutoff', { chosenRy: 30 }, 'first sweep', dft);
    assert.deepEqual([first.ok, first.ok && first.version, first.message], [true, 1, 'created notes/cutoff (version 1).']);
    const second = await canvas.write('notes/cutoff', { chosenRy: 35 }, 'denser sweep', dft);
    assert.ok(second.ok);
    assert.equal(second.version, 2);
    assert.match(second.message, /notes\/cutoff existed with 1 version; this write is version 2\. Earlier versions stay readable/);
    assert.deepEqual(canvas.read('notes/cutoff'), {
      ok: true,
      key: 'notes/cutoff',
      version: 2,
      versions: 2,
      value: { chosenRy: 35 },
      seq: 2,
    });
    const v1 = canvas.read('notes/cutoff', 1);
    assert.ok(v1.ok);
    assert.deepEqual(v1.value, { chosenRy: 30 });
    const v9 = canvas.read('notes/cutoff', 9);
    assert.equal(v9.ok, false);
    assert.match(!v9.ok ? v9.message : '', /has 2 versions; ask for a version from 1 to 2/);
  });

  it('an unknown key answers with the closest existing keys', async () => {
    for (const k of ['notes/cutoff', 'notes/cutoff-plan', 'notes/kpoints', 'plan']) await canvas.write(k, 'x', 'seed', supervisor);
    const r = canvas.read('notes/cutof');
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.closest.slice(0, 2), ['notes/cutoff', 'notes/cutoff-plan']);
    assert.match(r.message, /^no key notes\/cutof\. Closest: notes\/cutoff, notes\/cutoff-plan/);
  });

  it('inspect lists keys with mode, version count and a one-line summary', async () => {
    await canvas.write('plan', { steps: [1, 2, 3] }, 'initial plan for the lattice constant', supervisor);
    await canvas.write('notes/a', 'line one\nline two', 'observation', dft);
    await canvas.write('notes/a', 'second thought', 'revised', dft);
    await log.append({ kind: 'job.transition', key: 'jobs/j-1', payload: job('j-1', 'queued'), actor: jobsFramework });
    await log.append({ kind: 'job.transition', key: 'jobs/j-1', payload: job('j-1', 'running'), actor: jobsFramework });
    assert.deepEqual(canvas.inspect(), [
      { key: 'jobs/j-1', mode: 'framework', versions: 2, summary: 'state: running', lastSeq: 5 },
      { key: 'notes/a', mode: 'versioned', versions: 2, summary: 'second thought — revised', lastSeq: 3 },
      { key: 'plan', mode: 'versioned', versions: 1, summary: '{steps} — initial plan for the lattice constant', lastSeq: 1 },
    ]);
    assert.deepEqual(
      canvas.inspect('notes/').map((k) => k.key),
      ['notes/a'],
    );
  });

  it('framework spaces are read-only to agents, writable by tools and the framework', async () => {
    const refused = await canvas.write('jobs/j-7', { state: 'cancelled' }, 'stop it', dft);
    assert.equal(refused.ok, false);
    assert.match(
      refused.message,
      /jobs\/j-7 is in jobs\/\* .* which only the framework writes; you can read it\. To record your own observation, write a note/,
    );
    const byFramework = await canvas.write('run/state', { state: 'running' }, 'started', jobsFramework);
    assert.equal(byFramework.ok, true);
  });

  it('refuses writes that break the rules, each with what to do', async () => {
    const cases: [string, unknown, string, RegExp][] = [
      ['elsewhere/x', 1, 'why', /no key space holds elsewhere\/x\. You can write: notes\/\*, plan, reports\/\*/],
      ['notes/../etc', 1, 'why', /is not a key: use names of letters/],
      ['notes/x', 1, '  ', /give a reason for writing notes\/x/],
      ['notes/x', { energyEv: NaN }, 'why', /value\.energyEv is NaN, which JSON cannot hold/],
      ['notes/x', { when: new Date(0) }, 'why', /value\.when is a Date, not plain JSON/],
    ];
    for (const [key, value, reason, message] of cases) {
      const r = await canvas.write(key, value, reason, dft);
      assert.equal(r.ok, false, key);
      assert.match(r.message, message);
    }
    assert.deepEqual(canvas.inspect(), [], 'nothing was written');
  });

  it('writing the value a key already holds writes nothing', async () => {
    await canvas.write('notes/a', { x: 1 }, 'r', dft);
    const again = await canvas.write('notes/a', { x: 1 }, 'r again', dft);
    assert.ok(again.ok);
    assert.match(again.message, /already holds this value \(version 1\); nothing was written/);
    assert.equal(log.lastSeq(), 1);
  });

  it('concurrent writes to one key get distinct, ordered versions', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => canvas.write('notes/shared', { i }, `writer ${i}`, dft)));
    assert.deepEqual(
      results.map((r) => (r.ok ? r.version : 0)),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.deepEqual(canvas.read('notes/shared', 4), { ok: true, key: 'notes/shared', version: 4, versions: 10, value: { i: 3 }, seq: 4 });
  });

  it('a user edit from the notebook is a version of its key', async () => {
    await canvas.write('notes/a', 'agent text', 'r', dft);
    await log.append({
      kind: 'user.edit',
      payload: { key: 'notes/a', value: 'user text', reason: 'fixed a typo' },
      actor: { kind: 'user', id: 'alice' },
    });
    const r = canvas.read('notes/a');
    assert.ok(r.ok);
    assert.equal(r.value, 'user text');
    assert.equal(r.versions, 2);
  });
});

describe('canvas: per-key constraints', () => {
  it('a format-restricted key refuses values that fail its schema, naming where', async () => {
    const planSchema = {
      type: 'object',
      required: ['steps'],
      properties: { steps: { type: 'array', items: { type: 'object', required: ['tool'] } } },
    };
    const specs: KeySpec[] = [
      ...DEFAULT_KEY_SPECS.filter((s) => s.pattern !== 'plan'),
      { pattern: 'plan', mode: 'versioned', schema: planSchema, description: 'the plan' },
    ];
    const { log } = await freshLog();
    const canvas = new Canvas(log, { specs });
    const bad = await canvas.write('plan', { steps: [{ tool: 'pw_scf' }, { worker: 'dft' }] }, 'plan', supervisor);
    assert.equal(bad.ok, false);
    assert.match(bad.message, /does not have the format plan requires: \/steps\/1 must have required property 'tool'/);
    const good = await canvas.write('plan', { steps: [{ tool: 'pw_scf' }] }, 'plan', supervisor);
    assert.equal(good.ok, true);
    await log.close();
  });

  it('an immutable key is written once', async () => {
    const specs: KeySpec[] = [...DEFAULT_KEY_SPECS, { pattern: 'decisions/*', mode: 'immutable', description: 'final decisions' }];
    const { log } = await freshLog();
    const canvas = new Canvas(log, { specs });
    assert.equal((await canvas.write('decisions/functional', 'PBE', 'matches the pseudopotentials', supervisor)).ok, true);
    const again = await canvas.write('decisions/functional', 'PBEsol', 'changed my mind', supervisor);
    assert.equal(again.ok, false);
    assert.match(
      again.message,
      /already exists \(written at seq 1\) and is immutable: read it, or write under a new key such as decisions\/functional-2/,
    );
    await log.close();
  });

  it('an overwrite key says it replaced the value', async () => {
    const specs: KeySpec[] = [...DEFAULT_KEY_SPECS, { pattern: 'status', mode: 'overwrite', description: 'current status line' }];
    const { log } = await freshLog();
    const canvas = new Canvas(log, { specs });
    await canvas.write('status', 'converging', 'r', supervisor);
    const r = await canvas.write('status', 'fitting EOS', 'r', supervisor);
    assert.match(r.message, /status existed; this value replaces version 1 and is now version 2/);
    await log.close();
  });

  it('a report is writable until the report judge verifies it, then immutable', async () => {
    const { log } = await freshLog();
    const canvas = new Canvas(log);
    await canvas.write('reports/al-lattice', { a0Angstrom: 4.04 }, 'draft', supervisor);
    await canvas.write('reports/al-lattice', { a0Angstrom: 4.039 }, 'fixed rounding', supervisor);
    const byAgent = await canvas.markVerified('reports/al-lattice', 'claims match a-12', dft);
    assert.equal(byAgent.ok, false);
    const verified = await canvas.markVerified('reports/al-lattice', 'claims match a-12', judge);
    assert.ok(verified.ok);
    const after = await canvas.write('reports/al-lattice', { a0Angstrom: 4.1 }, 'tweak', supervisor);
    assert.equal(after.ok, false);
    assert.match(
      after.message,
      /reports\/al-lattice was verified at version 2 \(seq 3: claims match a-12\) and is now immutable\. Write a new report key \(e\.g\. reports\/al-lattice-revised\)/,
    );
    assert.match(canvas.inspect('reports/')[0]!.summary, /\[verified v2\]/);
    await log.close();
  });

  it('refuses to start with a spec protected by a condition it does not know', async () => {
    const { log } = await freshLog();
    assert.throws(
      () => new Canvas(log, { specs: [{ pattern: 'x/*', mode: 'versioned', protectedBy: 'moon is full', description: 'x' }] }),
      /protected by "moon is full", a condition this canvas does not define/,
    );
    await log.close();
  });

  it('keys of a derived view are answered by the view and never written through the canvas', async () => {
    const { log } = await freshLog();
    const view: DerivedKeys = {
      prefix: 'artifacts/',
      keys: () => [{ key: 'artifacts/a-1', versions: 1, summary: 'total_energy = -39.5 eV (final)', lastSeq: 1 }],
      read: (k) => (k === 'artifacts/a-1' ? { value: { value: -39.5, unit: 'eV' }, versions: 1, seq: 1 } : undefined),
    };
    const canvas = new Canvas(log, { views: [view] });
    const w = await canvas.write('artifacts/a-1', 0, 'overwrite', { kind: 'tool', id: 'pw_scf' });
    assert.equal(w.ok, false);
    assert.match(w.message, /created only by tool calls, through the provenance registry/);
    assert.deepEqual(canvas.read('artifacts/a-1'), {
      ok: true,
      key: 'artifacts/a-1',
      version: 1,
      versions: 1,
      value: { value: -39.5, unit: 'eV' },
      seq: 1,
    });
    assert.deepEqual(canvas.inspect('artifacts/'), [
      { key: 'artifacts/a-1', mode: 'framework', versions: 1, summary: 'total_energy = -39.5 eV (final)', lastSeq: 1 },
    ]);
    const miss = canvas.read('artifacts/a-2');
    assert.equal(miss.ok, false);
    assert.deepEqual(!miss.ok && miss.closest[0], 'artifacts/a-1');
    await log.close();
  });
});

describe('canvas: reopening rebuilds the same state', () => {
  it('folding the log twice gives deep-equal state, for a writer and for a reader', async () => {
    const { log, file } = await freshLog();
    const canvas = new Canvas(log);
    for (let i = 0; i < 30; i++)
      await canvas.write(`notes/n${i % 7}`, { i, nested: { list: [i, i * 2] } }, `reason ${i}`, i % 2 ? dft : supervisor);
    await canvas.write('reports/r', { claim: 1 }, 'draft', supervisor);
    await canvas.markVerified('reports/r', 'ok', judge);
    await log.append({ kind: 'job.transition', key: 'jobs/j-1', payload: job('j-1', 'completed'), actor: jobsFramework });
    await log.append({
      kind: 'llm.usage',
      actor: jobsFramework,
      payload: {
        role: 'dft',
        category: 'act',
        model: 'm',
        usage: { inputTokens: 10, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: null,
        at: 'now',
      },
    });
    const before = canvas.snapshot();
    await log.close();

    const writer = await openEventLog(file, { mode: 'writer' });
    assert.deepEqual(new Canvas(writer.log).snapshot(), before);
    const refused = await new Canvas(writer.log).write('reports/r', { claim: 2 }, 'x', supervisor);
    assert.equal(refused.ok, false, 'verification survives the reopen');
    await writer.log.close();
    const reader = await openEventLog(file, { mode: 'reader' });
    const readOnly = new Canvas(reader.log);
    assert.deepEqual(readOnly.snapshot(), before);
    const w = await readOnly.write('notes/x', 1, 'r', dft);
    assert.match(w.message, /open read-only/);
  });
});
