import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { EventLogError, openEventLog } from '../../../../src/core/canvas/eventLog';
import type { Actor } from '../../../../src/core/canvas/types';
import { useTempDirs } from './tempDir';

const actor: Actor = { kind: 'agent', id: 'dft', model: 'claude-test' };
const tempDir = useTempDirs();

async function logWith(n: number, dir = tempDir()): Promise<string> {
  const file = path.join(dir, 'events.jsonl');
  const { log } = await openEventLog(file, { mode: 'writer' });
  for (let i = 1; i <= n; i++) await log.append('key.write', `notes/n${i}`, { value: i, reason: `r${i}`, version: 1 }, actor);
  await log.close();
  return file;
}

const lines = (file: string): string[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

function spawnHolder(file: string, appends = 0): Promise<{ child: ReturnType<typeof spawn>; first: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'holdWriter.ts'), file, String(appends)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, first: out.split('\n')[0]! });
    });
  });
}

/** A notebook edit: an event of a declared kind whose value the log mechanics below never look into. */
const edit = (value: unknown) => ({ key: 'notes/test', value, reason: 'test' });

describe('event log: append and reopen', () => {
  it('appends contiguous, checksummed lines and reopens to the same events', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const { log, recovery } = await openEventLog(file, { mode: 'writer' });
    assert.deepEqual(recovery, { eventsRead: 0 });
    const a = await log.append({
      kind: 'run.start',
      key: 'run/start',
      payload: { runId: 'r', objective: 'Al a0', settings: {}, software: {} },
      actor,
    });
    const b = await log.append('key.write', 'notes/x', { value: { ecut: 30 }, reason: 'sweep', version: 1 }, actor);
    assert.equal(a.seq, 1);
    assert.equal(b.seq, 2);
    assert.equal(log.lastSeq(), 2);
    await log.close();

    const text = lines(file);
    assert.equal(text.length, 2);
    const withoutCrc = text[1]!.replace(/,"crc":"[0-9a-f]{8}"\}$/, '}');
    assert.equal(b.crc, zlib.crc32(withoutCrc).toString(16).padStart(8, '0'), 'crc is CRC-32 of the line without its crc member');

    const reopened = await openEventLog(file, { mode: 'reader' });
    assert.deepEqual(reopened.log.events(), [a, b]);
    assert.equal(reopened.recovery.damage, undefined);
  });

  it("keeps no alias to the caller's payload and drops undefined members exactly as a reopen would", async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const { log } = await openEventLog(file, { mode: 'writer' });
    const payload = { value: [1, 2], reason: 'r', version: 1, note: undefined };
    const e = await log.append('key.write', 'notes/a', payload, actor);
    payload.value.push(3);
    await log.close();
    const { log: again } = await openEventLog(file, { mode: 'reader' });
    assert.deepEqual(again.events()[0], e);
    assert.deepEqual((e.payload as { value: number[] }).value, [1, 2]);
  });

  it('serialises concurrent appends from one process: file order is seq order, lines never interleave', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const { log } = await openEventLog(file, { mode: 'writer' });
    const big = 'x'.repeat(70_000); // larger than a pipe buffer: interleaving would show
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 10; i++) await log.append('user.edit', undefined, edit({ w, i, big }), actor);
      }),
    );
    await log.close();
    const seqs = lines(file).map((l) => (JSON.parse(l) as { seq: number }).seq);
    assert.deepEqual(
      seqs,
      Array.from({ length: 80 }, (_, i) => i + 1),
    );
  });

  it('group-commit writes the appends of one tick with one write and one fdatasync; fsync-each with one per event', async () => {
    for (const [durability, syncs] of [
      ['group-commit', 1],
      ['fsync-each', 50],
    ] as const) {
      const { log } = await openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'writer', durability });
      await Promise.all(Array.from({ length: 50 }, (_, i) => log.append('user.edit', undefined, edit({ i }), actor)));
      assert.deepEqual(log.stats(), { appends: 50, writes: syncs, syncs }, durability);
      await log.close();
    }
  });

  it('resolves an append only when its line is in the file, and tells subscribers in order after that', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const { log } = await openEventLog(file, { mode: 'writer' });
    const seen: number[] = [];
    log.subscribe((e) => {
      assert.ok(fs.readFileSync(file, 'utf8').includes(`"seq":${e.seq},`), `seq ${e.seq} is on disk when subscribers hear of it`);
      seen.push(e.seq);
    });
    const appended = Array.from({ length: 5 }, (_, i) => log.append('user.edit', undefined, edit({ i }), actor));
    assert.equal(log.events().length, 0, 'nothing is reported durable before the write');
    for (const p of appended) {
      const e = await p;
      assert.ok(fs.readFileSync(file, 'utf8').includes(`"seq":${e.seq},`));
    }
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    await log.close();
  });

  it('observers see every event synchronously, in order, including ones appended before they subscribed', async () => {
    const { log } = await openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'writer' });
    const first = log.append('user.edit', undefined, edit({ i: 1 }), actor);
    const seen: number[] = [];
    log.observe((e) => seen.push(e.seq));
    assert.deepEqual(seen, [1], 'the in-flight event is replayed');
    const second = log.append('user.edit', undefined, edit({ i: 2 }), actor);
    assert.deepEqual(seen, [1, 2], 'observed inside append, before durability');
    await Promise.all([first, second]);
    await log.close();
  });

  it('refuses an event larger than the line limit, saying how to store it', async () => {
    const { log } = await openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'writer', maxLineBytes: 1000 });
    await assert.rejects(
      log.append('user.edit', 'notes/a', edit('x'.repeat(2000)), actor),
      (e: unknown) => e instanceof EventLogError && e.code === 'oversized-event' && /file-backed artifact/.test(e.message),
    );
    const ok = await log.append('user.edit', undefined, edit({ small: true }), actor);
    assert.equal(ok.seq, 1, 'a refused append does not use up a sequence number');
    await log.close();
  });

  it('a log whose disk write fails refuses every later append and says how to recover', async () => {
    const { log } = await openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'writer' });
    await log.append('user.edit', undefined, edit({ i: 1 }), actor);
    // Simulate the disk failing under the log: its file descriptor goes away.
    await (log as unknown as { file: fs.promises.FileHandle }).file.close();
    await assert.rejects(
      log.append('user.edit', undefined, edit({ i: 2 }), actor),
      (e: unknown) => e instanceof EventLogError && e.code === 'broken',
    );
    await assert.rejects(log.append('user.edit', undefined, edit({ i: 3 }), actor), /reopen the run: it recovers to the last saved event/);
    assert.equal(log.lastSeq(), 1);
  });

  it('a failed write tells onBroken listeners once, and an append nobody awaits does not become an unhandled rejection', async () => {
    const { log } = await openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'writer' });
    await log.append('user.edit', undefined, edit({ i: 1 }), actor);
    const heard: string[] = [];
    log.onBroken((e) => heard.push(e.code));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await (log as unknown as { file: fs.promises.FileHandle }).file.close();
      void log.append('user.edit', undefined, edit({ i: 2 }), actor); // a fire-and-forget record (usage, a note)
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(heard, ['broken']);
      assert.equal(log.brokenError?.code, 'broken');
      assert.deepEqual(unhandled, []);
      // a listener added after the failure hears it at once
      const late: string[] = [];
      log.onBroken((e) => late.push(e.code));
      assert.deepEqual(late, ['broken']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('refuses to append after close', async () => {
    const { log } = await openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'writer' });
    await log.close();
    await assert.rejects(log.append('user.edit', undefined, edit({}), actor), /was closed/);
  });
});

describe('event log: one writer process', () => {
  it('refuses a second writer in the same process, naming the holder; the lock goes with close()', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const { log } = await openEventLog(file, { mode: 'writer' });
    const lockText = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'events.lock'), 'utf8')) as {
      pid: number;
      host: string;
      startedAt: string;
    };
    assert.equal(lockText.pid, process.pid);
    assert.equal(lockText.host, os.hostname());
    await assert.rejects(
      openEventLog(file, { mode: 'writer' }),
      (e: unknown) =>
        e instanceof EventLogError &&
        e.code === 'locked' &&
        e.message.includes(`process ${process.pid} on this host`) &&
        e.message.includes(lockText.startedAt),
    );
    await log.close();
    assert.equal(fs.existsSync(path.join(path.dirname(file), 'events.lock')), false);
    const again = await openEventLog(file, { mode: 'writer' });
    await again.log.close();
  });

  it('refuses a writer while another process holds the run, and a reader can still watch it', async function () {
    this.timeout(20_000);
    const file = await logWith(2);
    const { child, first } = await spawnHolder(file, 3);
    try {
      assert.equal(first, 'ready');
      await assert.rejects(openEventLog(file, { mode: 'writer' }), new RegExp(`open for writing by process ${child.pid} on this host`));
      const { log } = await openEventLog(file, { mode: 'reader' });
      assert.equal(log.lastSeq(), 5);
    } finally {
      child.stdin!.end();
      await new Promise((r) => child.on('exit', r));
    }
    const { log } = await openEventLog(file, { mode: 'writer' });
    assert.equal(log.lastSeq(), 5);
    await log.close();
  });

  it('a second process is refused with the holder named', async function () {
    this.timeout(20_000);
    const file = await logWith(1);
    const { log } = await openEventLog(file, { mode: 'writer' });
    const { child, first } = await spawnHolder(file);
    child.stdin!.end();
    await new Promise((r) => child.on('exit', r));
    assert.match(first, new RegExp(`^refused: this run is open for writing by process ${process.pid} on this host`));
    await log.close();
  });

  it('takes over the lock of a crashed writer on this host and reports it', async () => {
    const file = await logWith(1);
    const deadPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const stale = { pid: Number(deadPid), host: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' };
    fs.writeFileSync(path.join(path.dirname(file), 'events.lock'), JSON.stringify(stale));
    const { log, recovery } = await openEventLog(file, { mode: 'writer' });
    assert.deepEqual(recovery.staleLock, stale);
    assert.equal(recovery.eventsRead, 1);
    await log.close();
  });

  it('never takes over a lock held from another host: it says which host and what to do', async () => {
    const file = await logWith(1);
    fs.writeFileSync(
      path.join(path.dirname(file), 'events.lock'),
      JSON.stringify({ pid: 4242, host: 'login01.cluster', startedAt: '2026-01-01T00:00:00Z' }),
    );
    await assert.rejects(
      openEventLog(file, { mode: 'writer' }),
      /process 4242 on host login01\.cluster.*if it is gone, delete .*events\.lock/,
    );
  });
});

describe('event log: recovery of a damaged tail', () => {
  async function damaged(mutate: (text: string[]) => string): Promise<{ file: string; before: string }> {
    const file = await logWith(5);
    const before = mutate(fs.readFileSync(file, 'utf8').split(/(?<=\n)/));
    fs.writeFileSync(file, before);
    return { file, before };
  }

  const cases: [string, (l: string[]) => string, { line: number; problem: string; detail: RegExp; kept: number; dropped: number }][] = [
    [
      'a torn last line',
      (l) => l.slice(0, 4).join('') + l[4]!.slice(0, 30),
      { line: 5, problem: 'torn-line', detail: /no line end/, kept: 4, dropped: 1 },
    ],
    [
      'a changed byte in the middle',
      (l) => [l[0], l[1], l[2]!.replace('"r3"', '"r9"'), l[3], l[4]].join(''),
      { line: 3, problem: 'bad-checksum', detail: /recorded, [0-9a-f]{8} computed/, kept: 2, dropped: 3 },
    ],
    [
      'a line that is not JSON',
      (l) => [l[0], '{"v":1,"seq":2,\n', ...l.slice(1)].join(''),
      { line: 2, problem: 'invalid-json', detail: /not JSON/, kept: 1, dropped: 5 },
    ],
    [
      'a duplicated line',
      (l) => [l[0], l[1], l[1], ...l.slice(2)].join(''),
      { line: 3, problem: 'sequence-gap', detail: /expected seq 3, found seq 2 again/, kept: 2, dropped: 4 },
    ],
    [
      'a missing line',
      (l) => [l[0], l[1], l[3], l[4]].join(''),
      { line: 3, problem: 'sequence-gap', detail: /expected seq 3, found seq 4 \(events are missing\)/, kept: 2, dropped: 2 },
    ],
    [
      'a blank line',
      (l) => [l[0], '\n', ...l.slice(1)].join(''),
      { line: 2, problem: 'invalid-json', detail: /blank line/, kept: 1, dropped: 5 },
    ],
  ];
  for (const [name, mutate, want] of cases) {
    it(`cuts ${name} back to the last good event, keeping a copy of the damaged file`, async () => {
      const { file, before } = await damaged(mutate);
      const { log, recovery } = await openEventLog(file, { mode: 'writer' });
      assert.equal(recovery.damage?.line, want.line);
      assert.equal(recovery.damage?.problem, want.problem);
      assert.match(recovery.damage!.detail, want.detail);
      assert.equal(recovery.damage?.linesDropped, want.dropped);
      assert.equal(recovery.eventsRead, want.kept);
      assert.equal(fs.readFileSync(recovery.damage!.backup, 'utf8'), before, 'the copy is the damaged file as found');
      assert.equal(
        recovery.damage!.byteOffset,
        Buffer.byteLength(
          before
            .split(/(?<=\n)/)
            .slice(0, want.line - 1)
            .join(''),
        ),
      );
      assert.deepEqual(
        log.events().map((e) => e.seq),
        Array.from({ length: want.kept }, (_, i) => i + 1),
      );
      const next = await log.append('user.edit', undefined, edit({ after: 'recovery' }), actor);
      assert.equal(next.seq, want.kept + 1);
      await log.close();
      const again = await openEventLog(file, { mode: 'writer' });
      assert.equal(again.recovery.damage, undefined, 'the cut log is clean');
      assert.equal(again.recovery.eventsRead, want.kept + 1);
      await again.log.close();
    });
  }

  it('cuts a line of the wrong shape even when its checksum is right', async () => {
    const file = await logWith(2);
    const body = JSON.stringify({ v: 1, seq: 3, ts: 'now', actor: { kind: 'robot', id: 'x' }, kind: 'k', payload: {} });
    const crc = zlib.crc32(body).toString(16).padStart(8, '0');
    fs.appendFileSync(file, `${body.slice(0, -1)},"crc":"${crc}"}\n`);
    const { log, recovery } = await openEventLog(file, { mode: 'writer' });
    assert.equal(recovery.damage?.problem, 'bad-shape');
    assert.match(recovery.damage!.detail, /"actor" must be/);
    assert.equal(log.lastSeq(), 2);
    await log.close();
  });

  it('cuts an absurdly long line without reading it whole', async () => {
    const file = await logWith(3);
    fs.appendFileSync(file, 'x'.repeat(3 * 1024 * 1024));
    const { log, recovery } = await openEventLog(file, { mode: 'writer', maxLineBytes: 64 * 1024 });
    assert.equal(recovery.damage?.problem, 'oversized-line');
    assert.equal(recovery.damage?.line, 4);
    assert.equal(log.lastSeq(), 3);
    await log.close();
  });

  it('refuses a file DREAMS did not write, changing nothing, but still cuts a first line torn by a crash', async () => {
    const dir = path.dirname(await logWith(0));
    const foreign = path.join(dir, 'events.jsonl');
    const text = '{"event":"build","time":1}\n{"event":"test","time":2}\n';
    fs.writeFileSync(foreign, text);
    await assert.rejects(
      openEventLog(foreign, { mode: 'writer' }),
      (e: unknown) =>
        e instanceof EventLogError &&
        e.code === 'not-a-log' &&
        /is not a DREAMS event log.*Nothing was changed.*move this file away/.test(e.message),
    );
    assert.equal(fs.readFileSync(foreign, 'utf8'), text);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['events.jsonl'], 'no copy made and the lock released');
    // A crash in the middle of the very first event leaves the beginning of one of ours.
    const torn = await logWith(1);
    const first = fs.readFileSync(torn, 'utf8');
    fs.writeFileSync(torn, first.slice(0, 3));
    const { log, recovery } = await openEventLog(torn, { mode: 'writer' });
    assert.equal(recovery.damage?.problem, 'torn-line');
    assert.equal(fs.readFileSync(torn, 'utf8'), '');
    await log.close();
    // So does a first block a power loss left as zeros (its data never reached the disk).
    const zeroed = await logWith(1);
    fs.writeFileSync(zeroed, Buffer.concat([Buffer.alloc(4096), Buffer.from('\n')]));
    const z = await openEventLog(zeroed, { mode: 'writer' });
    assert.equal(z.recovery.damage?.line, 1);
    assert.equal(fs.statSync(zeroed).size, 0);
    await z.log.close();
  });

  it('refuses a log written by a newer format, naming both versions, and leaves it untouched', async () => {
    const file = await logWith(2);
    const body = JSON.stringify({ v: 2, seq: 3, ts: 'now', actor, kind: 'k', payload: {} });
    fs.appendFileSync(file, `${body.slice(0, -1)},"crc":"${zlib.crc32(body).toString(16).padStart(8, '0')}"}\n`);
    const before = fs.readFileSync(file);
    await assert.rejects(
      openEventLog(file, { mode: 'writer' }),
      (e: unknown) =>
        e instanceof EventLogError && e.code === 'newer-format' && /event format 2 \(line 3\), newer than format 1/.test(e.message),
    );
    assert.deepEqual(fs.readFileSync(file), before);
    assert.equal(fs.existsSync(path.join(path.dirname(file), 'events.lock')), false, 'the refused writer released its lock');
  });
});

describe('event log: read-only tailing', () => {
  it('never writes, and refresh() shows only complete lines another writer appended', async () => {
    const file = await logWith(2);
    const { log: reader } = await openEventLog(file, { mode: 'reader' });
    const seen: number[] = [];
    reader.subscribe((e) => seen.push(e.seq));
    const { log: writer } = await openEventLog(file, { mode: 'writer' });
    const e3 = await writer.append('user.edit', undefined, edit({ i: 3 }), actor);
    await writer.close();
    // A fourth line, half written.
    const { line } = await import('../../../../src/core/canvas/eventLine').then((m) =>
      m.encodeEventLine({ v: 1, seq: 4, ts: 'now', actor, kind: 'user.edit', payload: edit({ i: 4 }) }),
    );
    fs.appendFileSync(file, line.slice(0, 20));
    const before = fs.readFileSync(file);
    const r1 = reader.refresh();
    assert.deepEqual(r1.events, [e3]);
    assert.equal(r1.damage, undefined, 'a line being written is not damage');
    assert.deepEqual(fs.readFileSync(file), before, 'the reader changed nothing');
    fs.appendFileSync(file, line.slice(20));
    assert.deepEqual(
      reader.refresh().events.map((e) => e.seq),
      [4],
    );
    assert.deepEqual(seen, [3, 4]);
    assert.equal(reader.lastSeq(), 4);
    await assert.rejects(
      reader.append('user.edit', undefined, edit({}), actor),
      (e: unknown) => e instanceof EventLogError && e.code === 'read-only',
    );
  });

  it('reports damage without cutting, and goes on once the writer has cut it', async () => {
    const file = await logWith(2);
    fs.appendFileSync(file, 'garbage\n');
    const size = fs.statSync(file).size;
    const { log: reader, recovery } = await openEventLog(file, { mode: 'reader' });
    assert.equal(recovery.damage?.problem, 'invalid-json');
    assert.equal(recovery.damage?.backup, '');
    assert.match(recovery.damage!.detail, /nothing was cut/);
    assert.equal(fs.statSync(file).size, size);
    assert.equal(fs.existsSync(path.join(path.dirname(file), 'events.lock')), false, 'a reader takes no lock');
    const { log: writer } = await openEventLog(file, { mode: 'writer' });
    await writer.append('user.edit', undefined, edit({ i: 3 }), actor);
    await writer.close();
    const r = reader.refresh();
    assert.deepEqual(
      r.events.map((e) => e.seq),
      [3],
    );
    assert.equal(r.damage, undefined);
  });

  it('says what to do when asked to read a directory that has no log', async () => {
    await assert.rejects(openEventLog(path.join(tempDir(), 'events.jsonl'), { mode: 'reader' }), /no event log at .*not a run directory/);
  });
});

describe('event log: following another process', () => {
  it('delivers the events another process appends, without being asked', async function () {
    this.timeout(20_000);
    const { followLog } = await import('../../../../src/core/canvas/logFollower');
    const file = await logWith(1);
    const { log } = await openEventLog(file, { mode: 'reader' });
    const seen: string[] = [];
    const stop = followLog(log, { intervalMs: 100 });
    log.subscribe((e) => seen.push(`${e.seq}:${e.kind}`));
    const { child, first } = await spawnHolder(file, 3);
    try {
      assert.equal(first, 'ready');
      for (let i = 0; i < 100 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(seen, ['2:user.edit', '3:user.edit', '4:user.edit']);
    } finally {
      stop();
      child.stdin!.end();
      await new Promise((r) => child.on('exit', r));
    }
  });
});
