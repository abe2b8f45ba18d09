// A worker turn's run_pw calls side by side: the next job starts as soon as any one ends (not
// after the slowest of a batch), never more than the budget had left, and a stop holds back the
// jobs not yet started while those in flight finish. The registry is a stand-in whose calls end
// when the test says so; order of events, not time, is what is checked.
import assert from 'node:assert/strict';
import { RunControl } from '../../../../src/core/run/checkpoint';
import { RunStopped } from '../../../../src/core/guard/interruption';
import type { AgentRuntime } from '../../../../src/core/agents/runtime';
import { runToolUses } from '../../../../src/core/agents/worker';
import type { ToolUseBlock } from '../../../../src/core/llm/types';

interface Pending {
  id: string;
  end: () => void;
}

/** A runtime whose registry records each call's start and lets the test end it. */
function harness(opts: { maxParallelJobs: number; jobAllowance?: () => number }) {
  const control = new RunControl();
  const log: string[] = [];
  const pending = new Map<string, Pending>();
  let waiters: (() => void)[] = [];
  const registry = {
    call: (use: ToolUseBlock) =>
      new Promise((resolve) => {
        log.push(`start ${use.id}`);
        pending.set(use.id, {
          id: use.id,
          end: () => {
            log.push(`end ${use.id}`);
            pending.delete(use.id);
            resolve({
              outcome: { status: 'ok', call: `c-${use.id}` },
              toolResult: { type: 'tool_result', toolUseId: use.id, content: `result of ${use.id}` },
            });
          },
        });
        for (const w of waiters) w();
        waiters = [];
      }),
  };
  const rt = {
    control,
    registry,
    limits: { maxParallelJobs: opts.maxParallelJobs, maxToolResultChars: 4000 },
    ...(opts.jobAllowance ? { jobAllowance: opts.jobAllowance } : {}),
  } as unknown as AgentRuntime;
  /** Wait until these calls have started (and the pool has had its chance to start more). */
  const started = async (...ids: string[]) => {
    while (!ids.every((id) => pending.has(id))) await new Promise<void>((r) => waiters.push(r));
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  };
  const end = async (id: string) => {
    const p = pending.get(id);
    assert.ok(p, `${id} is not running (log: ${log.join(', ')})`);
    p.end();
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  };
  return { rt, control, log, pending, started, end };
}

const pw = (id: string): ToolUseBlock => ({ type: 'tool_use', id, name: 'run_pw', input: {} });

describe('run_pw calls of one turn side by side', () => {
  it('starts the next job when any one ends, not when the slowest of a batch does', async () => {
    const h = harness({ maxParallelJobs: 2 });
    const done = runToolUses(h.rt, [pw('k36'), pw('k49'), pw('k66'), pw('k90')], 'hpc', 'm');
    await h.started('k36', 'k49');
    assert.deepEqual([...h.pending.keys()].sort(), ['k36', 'k49'], 'two at a time');
    await h.end('k36');
    // k49 still runs; the free slot takes k66 at once
    await h.started('k66');
    assert.deepEqual([...h.pending.keys()].sort(), ['k49', 'k66']);
    await h.end('k66');
    await h.started('k90');
    await h.end('k90');
    await h.end('k49');
    const results = await done;
    assert.deepEqual(
      results.map((r) => r.content),
      ['result of k36', 'result of k49', 'result of k66', 'result of k90'],
      'results in the order of the calls',
    );
    assert.deepEqual(h.log, ['start k36', 'start k49', 'end k36', 'start k66', 'end k66', 'start k90', 'end k90', 'end k49']);
  });

  it('starts no more jobs than the budget has left, then stops at the limit once those have ended', async () => {
    let submitted = 0;
    const h = harness({ maxParallelJobs: 4, jobAllowance: () => 2 - submitted });
    h.control.hooks.check = () => {
      if (submitted >= 2) throw new RunStopped('budget', 'job budget of 2 reached');
    };
    const done = runToolUses(h.rt, [pw('a'), pw('b'), pw('c')], 'hpc', 'm');
    await h.started('a', 'b');
    submitted = 2;
    await h.end('a');
    assert.ok(!h.pending.has('c'), 'c waits: the budget had two jobs left');
    let rejected: unknown;
    void done.catch((e: unknown) => (rejected = e));
    await h.end('b');
    await assert.rejects(done, /job budget of 2 reached/);
    assert.ok(rejected instanceof RunStopped);
    assert.deepEqual(h.log, ['start a', 'start b', 'end a', 'end b']);
  });

  it('on a stop starts nothing more and rejects only after the jobs in flight have ended', async () => {
    const h = harness({ maxParallelJobs: 2 });
    const done = runToolUses(h.rt, [pw('a'), pw('b'), pw('c')], 'hpc', 'm');
    await h.started('a', 'b');
    h.control.stop('stopped by the user');
    let settled = false;
    void done.then(
      () => (settled = true),
      () => (settled = true),
    );
    await h.end('a');
    assert.ok(!h.pending.has('c'), 'nothing new after the stop');
    assert.equal(settled, false, 'b is still running: the turn has not ended');
    await h.end('b');
    await assert.rejects(done, /stopped by the user/);
    assert.deepEqual(h.log, ['start a', 'start b', 'end a', 'end b']);
  });

  it('holds back the next job while paused and starts it on resume', async () => {
    const h = harness({ maxParallelJobs: 1 });
    const done = runToolUses(h.rt, [pw('a'), pw('b')], 'hpc', 'm');
    await h.started('a');
    h.control.pause();
    await h.end('a');
    assert.equal(h.control.paused, true);
    assert.ok(!h.pending.has('b'));
    h.control.resume();
    await h.started('b');
    await h.end('b');
    assert.equal((await done).length, 2);
  });
});
