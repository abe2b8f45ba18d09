// The closed event catalogue: every kind has a payload type and a schema, a write of an unknown
// kind or a wrong payload does not compile, and an event read from disk whose kind or payload
// the catalogue does not allow refuses the run with its line number, changing nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeEventLine } from '../../../../src/core/canvas/eventLine';
import { EventLogError, openEventLog } from '../../../../src/core/canvas/eventLog';
import type { CanvasEvent, EventKind } from '../../../../src/core/canvas/types';
import { createRun, EVENT_LOG_FILE, openRun } from '../../../../src/core/run/directory';
import { EVENT_KINDS, EVENT_PAYLOAD_SCHEMAS, eventProblem } from '../../../../src/core/run/eventCatalogue';
import { syntheticRunEvents } from '../../../harness/syntheticRun';

const actor = { kind: 'framework', id: 'test' } as const;
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-catalogue-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A run whose log is followed by one more line, checksum and sequence right: only kind or payload can be wrong. */
async function runWithLine(kind: string, payload: unknown): Promise<{ dir: string; log: string; line: number }> {
  const run = await createRun(root, { objective: 'catalogue check', slug: 'catalogue' });
  await run.log.append({ kind: 'run.state', key: 'run/state', payload: { state: 'running' }, actor });
  const seq = run.log.lastSeq() + 1;
  await run.close();
  const log = path.join(run.dir, EVENT_LOG_FILE);
  fs.appendFileSync(log, encodeEventLine({ v: 1, seq, ts: new Date().toISOString(), actor, kind, payload }).line);
  return { dir: run.dir, log, line: seq };
}

describe('the event catalogue', () => {
  it('gives every declared kind a payload schema, and the kinds the runs of every workflow write are among them', () => {
    assert.deepEqual(new Set(EVENT_KINDS), new Set(Object.keys(EVENT_PAYLOAD_SCHEMAS)));
    for (const k of [
      'run.start',
      'key.write',
      'provenance.call',
      'job.transition',
      'llm.usage',
      'approval.request',
      'report.judged',
      'step.start',
      'workflow.inputs',
      'supervisor.planned',
      'workflow.rerun',
      'run.settings',
      'run.recovered',
    ] satisfies EventKind[]) {
      assert.ok(EVENT_KINDS.includes(k), k);
    }
  });

  it('lets every event of a synthetic run through the check', () => {
    for (const e of syntheticRunEvents({ nodes: 300 })) assert.equal(eventProblem(e), undefined, `${e.kind}: ${eventProblem(e)}`);
  });

  it('narrows a payload on the event kind, and refuses at compile time an unknown kind or a wrong payload', async () => {
    const run = await createRun(root, { objective: 'types', slug: 'types' });
    // Never called: the static tier (tsc) fails if either write compiles.
    const refusedByTheCompiler = () => {
      // @ts-expect-error 'job.finished' is not a kind in the catalogue
      void run.log.append({ kind: 'job.finished', payload: {}, actor });
      // @ts-expect-error a run.state payload's state is a RunState
      void run.log.append({ kind: 'run.state', payload: { state: 'paused-ish' }, actor });
    };
    void refusedByTheCompiler;
    const e: CanvasEvent = run.log.events()[0]!;
    if (e.kind === 'run.start') assert.equal(e.payload.objective, 'types');
    else assert.fail(`the first event is ${e.kind}`);
    await run.close();
  });

  it('refuses a run whose log holds an unknown kind, naming the line, and changes nothing', async () => {
    const { dir, log, line } = await runWithLine('job.finished', { id: 'j-1' });
    const before = fs.readFileSync(log);
    for (const mode of ['reader', 'writer'] as const) {
      await assert.rejects(
        openRun(dir, { mode }),
        (e: unknown) =>
          e instanceof EventLogError &&
          e.code === 'unknown-event' &&
          e.message.includes(`line ${line}`) &&
          /"job\.finished" is not an event kind this version of DREAMS knows/.test(e.message),
      );
    }
    assert.deepEqual(fs.readFileSync(log), before, 'nothing was cut or rewritten');
    const raw = await openEventLog(log, { mode: 'reader' });
    assert.equal(raw.log.lastSeq(), line, 'the event log itself (without the catalogue) still reads every line');
    await raw.log.close();
  });

  it('refuses a payload that is not what its kind holds, saying which field', async () => {
    const { dir, line } = await runWithLine('job.transition', {
      id: 'j-1',
      backend: 'local',
      state: 'paused',
      program: 'pw.x',
      input: 'pw.in',
      files: [],
      createdAt: 'x',
      updatedAt: 'x',
    });
    await assert.rejects(
      openRun(dir, { mode: 'reader' }),
      (e: unknown) =>
        e instanceof EventLogError &&
        e.code === 'unknown-event' &&
        e.message.includes(`line ${line}`) &&
        /payload\.state: must be one of draft, validated/.test(e.message),
    );
    const missing = await runWithLine('approval.answer', { id: 'ap-1', decision: 'approve' });
    await assert.rejects(openRun(missing.dir, { mode: 'reader' }), /payload: by is missing/);
  });
});
