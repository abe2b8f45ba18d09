// Plan steps side by side as a pool: the next ready pw.x step starts as soon as any one ends
// (not when the slowest of a batch does); a failed step stops the filling and the others
// finish; a stop holds back the steps not yet started and ends the pool once those in flight
// have ended. Steps here end when the test says so; order of events, not time, is checked.
import assert from 'node:assert/strict';
import { RunControl } from '../../../../src/core/run/checkpoint';
import { RunStopped } from '../../../../src/core/guard/interruption';
import { runStepPool, type StepResult } from '../../../../src/core/agents/stepPool';

interface Step {
  id: string;
}

function harness(opts: { slots: number; queue: string[] }) {
  const control = new RunControl();
  const log: string[] = [];
  const pending = new Map<string, (r: StepResult | Error) => void>();
  const queue = [...opts.queue];
  let waiters: (() => void)[] = [];
  const pool = (first: string[]) =>
    runStepPool<Step>({
      first: first.map((id) => ({ id })),
      run: (step) =>
        new Promise<StepResult>((resolve, reject) => {
          log.push(`start ${step.id}`);
          pending.set(step.id, (r) => {
            pending.delete(step.id);
            log.push(`end ${step.id}`);
            if (r instanceof Error) reject(r);
            else resolve(r);
          });
          for (const w of waiters) w();
          waiters = [];
        }),
      ended: async (step, result) => {
        log.push(`ended ${step.id} ${result.ok ? 'ok' : 'failed'}`);
      },
      more: (inFlight) => queue.splice(0, Math.max(0, opts.slots - inFlight.size)).map((id) => ({ id })),
      checkpoint: () => control.checkpoint(),
    });
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  };
  const started = async (...ids: string[]) => {
    while (!ids.every((id) => pending.has(id))) await new Promise<void>((r) => waiters.push(r));
    await settle();
  };
  const end = async (id: string, r: StepResult | Error = { ok: true }) => {
    const f = pending.get(id);
    assert.ok(f, `${id} is not running (log: ${log.join(', ')})`);
    f(r);
    await settle();
  };
  return { control, log, pending, pool, started, end, settle };
}

describe("plan steps side by side (the supervisor's pool)", () => {
  it('starts the next ready step when any one ends, within the limit', async () => {
    const h = harness({ slots: 2, queue: ['relax-ontop-run', 'relax-fcc-run'] });
    const done = h.pool(['gas-run', 'relax-clean-run']);
    await h.started('gas-run', 'relax-clean-run');
    await h.end('gas-run');
    // the clean slab still relaxes; the free slot takes the ontop relaxation at once
    await h.started('relax-ontop-run');
    assert.deepEqual([...h.pending.keys()].sort(), ['relax-clean-run', 'relax-ontop-run']);
    await h.end('relax-ontop-run');
    await h.started('relax-fcc-run');
    await h.end('relax-fcc-run');
    await h.end('relax-clean-run');
    const ended = await done;
    assert.deepEqual(
      ended.map((e) => e.step.id),
      ['gas-run', 'relax-ontop-run', 'relax-fcc-run', 'relax-clean-run'],
    );
    assert.deepEqual(h.log, [
      'start gas-run',
      'start relax-clean-run',
      'end gas-run',
      'ended gas-run ok',
      'start relax-ontop-run',
      'end relax-ontop-run',
      'ended relax-ontop-run ok',
      'start relax-fcc-run',
      'end relax-fcc-run',
      'ended relax-fcc-run ok',
      'end relax-clean-run',
      'ended relax-clean-run ok',
    ]);
  });

  it('starts nothing more after a step fails, lets the others finish, and returns every result', async () => {
    const h = harness({ slots: 2, queue: ['c', 'd'] });
    const done = h.pool(['a', 'b']);
    await h.started('a', 'b');
    await h.end('a', { ok: false, reason: 'pw.x did not converge' });
    assert.deepEqual([...h.pending.keys()], ['b'], 'no step started after the failure');
    await h.end('b');
    const ended = await done;
    assert.deepEqual(
      ended.map((e) => [e.step.id, e.result.ok]),
      [
        ['a', false],
        ['b', true],
      ],
    );
    assert.ok(!h.log.some((l) => l.startsWith('start c')), h.log.join(', '));
  });

  it('a stop holds back the steps not started and ends the pool once those in flight have ended', async () => {
    const h = harness({ slots: 2, queue: ['c', 'd'] });
    const done = h.pool(['a', 'b']);
    const seen: { outcome?: unknown } = {};
    const outcome = (): unknown => seen.outcome;
    const finished = done.then(
      () => {
        seen.outcome = 'resolved';
      },
      (e: unknown) => {
        seen.outcome = e;
      },
    );
    await h.started('a', 'b');
    h.control.stop();
    await h.end('a');
    assert.ok(seen.outcome === undefined, 'the pool waits for b');
    assert.deepEqual([...h.pending.keys()], ['b']);
    await h.end('b');
    await finished;
    assert.ok(outcome() instanceof RunStopped, `the pool ends with the stop (got ${String(outcome())})`);
    assert.ok(!h.log.includes('start c'));
  });

  it('a pause holds the next start back until resumed', async () => {
    const h = harness({ slots: 1, queue: ['b'] });
    const done = h.pool(['a']);
    await h.started('a');
    h.control.pause();
    await h.end('a');
    assert.equal(h.pending.size, 0, 'b waits while paused');
    h.control.resume();
    await h.started('b');
    await h.end('b');
    assert.deepEqual(
      (await done).map((e) => e.step.id),
      ['a', 'b'],
    );
  });

  it('a step that throws ends the pool with its error after the others have ended', async () => {
    const h = harness({ slots: 2, queue: ['c'] });
    const seen: { outcome?: unknown } = {};
    const outcome = (): unknown => seen.outcome;
    const finished = h.pool(['a', 'b']).then(
      () => {
        seen.outcome = 'resolved';
      },
      (e: unknown) => {
        seen.outcome = e;
      },
    );
    await h.started('a', 'b');
    await h.end('a', new Error('the canvas refused a write'));
    assert.ok(seen.outcome === undefined, 'the pool waits for b');
    assert.deepEqual([...h.pending.keys()], ['b']);
    await h.end('b');
    await finished;
    const error = outcome();
    assert.ok(error instanceof Error && error.message === 'the canvas refused a write', String(error));
    assert.ok(!h.log.includes('start c'));
  });
});
