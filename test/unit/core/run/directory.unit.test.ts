import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EventLogError } from '../../../../src/core/canvas/eventLog';
import { createRun, openRun, setRunState, slugOf } from '../../../../src/core/run/directory';
import { useTempDirs } from '../canvas/tempDir';

const tempDir = useTempDirs();
const now = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

describe('run directory', () => {
  it('creates <yyyymmdd-HHMMSS>-<slug> with its log, lock and run.start record', async () => {
    const root = tempDir();
    const run = await createRun(root, {
      objective: 'Lattice constant of fcc Al (PBE)',
      software: { 'pw.x': '6.7' },
      settings: { pseudoDir: '/p' },
      now,
    });
    assert.equal(run.runId, '20260102-030405-lattice-constant-of-fcc-al-pbe');
    assert.equal(run.dir, path.join(root, run.runId));
    assert.deepEqual(fs.readdirSync(run.dir).sort(), ['events.jsonl', 'events.lock']);
    const start = run.canvas.read('run/start');
    assert.ok(start.ok);
    assert.deepEqual(start.value, {
      runId: run.runId,
      objective: 'Lattice constant of fcc Al (PBE)',
      settings: { pseudoDir: '/p' },
      software: { node: process.versions.node, 'pw.x': '6.7' },
    });
    await setRunState(run, 'running');
    await run.close();
    assert.deepEqual(fs.readdirSync(run.dir).sort(), ['events.jsonl']);
  });

  it('never reuses a directory: a second run in the same second gets a suffix', async () => {
    const root = tempDir();
    const a = await createRun(root, { objective: 'x', slug: 'al', now });
    const b = await createRun(root, { objective: 'x', slug: 'al', now });
    assert.deepEqual([a.runId, b.runId], ['20260102-030405-al', '20260102-030405-al-2']);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses an unusable slug or an empty objective, saying what would do', async () => {
    await assert.rejects(
      createRun(tempDir(), { objective: 'x', slug: 'Al Lattice!' }),
      /slug "Al Lattice!" is not usable .* e\.g\. "al-lattice"/,
    );
    await assert.rejects(createRun(tempDir(), { objective: '  ' }), /a run needs an objective/);
    assert.equal(slugOf('Ünïcode & CO/Pt(111) site preference, top vs fcc hollow'), 'unicode-co-pt-111-site-preference-top-vs');
  });

  it('reopens as reader while the writer is open, and as writer once it is closed, with the same state', async () => {
    const run = await createRun(tempDir(), { objective: 'al', now });
    await run.canvas.write('notes/a', 'hello', 'first note', { kind: 'agent', id: 'dft' });
    await assert.rejects(openRun(run.dir, { mode: 'writer' }), (e: unknown) => e instanceof EventLogError && e.code === 'locked');
    const watcher = await openRun(run.dir, { mode: 'reader' });
    assert.equal(watcher.runId, run.runId);
    assert.deepEqual(watcher.canvas.snapshot(), run.canvas.snapshot());
    await run.canvas.write('notes/a', 'hello again', 'second', { kind: 'agent', id: 'dft' });
    watcher.log.refresh();
    assert.deepEqual(watcher.canvas.snapshot(), run.canvas.snapshot(), 'a refresh brings the reader up to date');
    await run.close();
    const resumed = await openRun(run.dir, { mode: 'writer' });
    assert.deepEqual(resumed.canvas.snapshot(), run.canvas.snapshot());
    assert.equal(resumed.recovery.damage, undefined);
    await resumed.close();
  });

  it('says what a run directory is when pointed elsewhere', async () => {
    await assert.rejects(openRun(tempDir(), { mode: 'reader' }), /is not a DREAMS run: it has no events\.jsonl/);
  });
});
