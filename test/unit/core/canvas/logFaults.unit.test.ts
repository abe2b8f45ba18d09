// Faults a user meets with a run's log: a log copied through Windows (CR LF), a command that
// must not cut a damaged log, a last line no one will finish, a lock whose process number now
// belongs to another program, and a full disk when the writer lock is taken.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventLogError, openEventLog } from '../../../../src/core/canvas/eventLog';
import { logHealth } from '../../../../src/core/canvas/recoveryReport';
import type { Actor } from '../../../../src/core/canvas/types';
import { processStartOf } from '../../../../src/core/canvas/writerLock';
import { useTempDirs } from './tempDir';

const actor: Actor = { kind: 'agent', id: 'dft' };
const tempDir = useTempDirs();

async function logWith(n: number, dir = tempDir()): Promise<string> {
  const file = path.join(dir, 'events.jsonl');
  const { log } = await openEventLog(file, { mode: 'writer' });
  for (let i = 1; i <= n; i++) await log.append('key.write', `notes/n${i}`, { value: i, reason: `r${i}`, version: 1 }, actor);
  await log.close();
  return file;
}

const crlf = (file: string): void => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));

/** Flip one byte inside line `n` (1-based) so its checksum no longer holds. */
function flipInLine(file: string, n: number): void {
  const text = fs.readFileSync(file, 'utf8').split(/(?<=\n)/);
  text[n - 1] = text[n - 1]!.replace('"value":', '"valuf":');
  fs.writeFileSync(file, text.join(''));
}

describe('event log: a log copied through Windows (CR LF)', () => {
  it('is read whole by a reader and a writer, reported as nothing, and takes new events', async () => {
    const file = await logWith(5);
    crlf(file);
    const size = fs.statSync(file).size;
    const r = await openEventLog(file, { mode: 'reader' });
    assert.equal(r.log.lastSeq(), 5);
    assert.deepEqual(r.recovery, { eventsRead: 5 });
    const w = await openEventLog(file, { mode: 'writer', onDamage: 'refuse' });
    assert.equal(w.recovery.damage, undefined);
    assert.ok(fs.statSync(file).size >= size, 'nothing was cut');
    await w.log.append('key.write', 'notes/after', { value: 6, reason: 'after', version: 1 }, actor);
    await w.log.close();
    const again = await openEventLog(file, { mode: 'reader' });
    assert.equal(again.log.lastSeq(), 6);
    assert.equal(again.recovery.damage, undefined);
    assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['events.jsonl'], 'no backup, no lock left');
  });
});

describe('event log: a writer that must not cut', () => {
  it("'refuse' leaves a damaged log byte for byte, names the line, and holds no lock", async () => {
    const file = await logWith(6);
    flipInLine(file, 3);
    const before = fs.readFileSync(file);
    await assert.rejects(
      openEventLog(file, { mode: 'writer', onDamage: 'refuse' }),
      (e: unknown) =>
        e instanceof EventLogError &&
        e.code === 'damaged' &&
        e.damage?.line === 3 &&
        e.damage.linesDropped === 4 &&
        /is damaged at line 3 \(byte \d+, bad-checksum\).*4 line\(s\) from there on cannot be read\. Nothing was changed\./.test(e.message),
    );
    assert.deepEqual(fs.readFileSync(file), before);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['events.jsonl']);
  });

  it("'cut-last-line' cuts a crash's torn last line after a copy, and refuses damage earlier in the log", async () => {
    const torn = await logWith(4);
    fs.appendFileSync(torn, '{"v":1,"seq":5,"ts":"2026');
    const { log, recovery } = await openEventLog(torn, { mode: 'writer', onDamage: 'cut-last-line' });
    await log.close();
    assert.equal(recovery.damage?.line, 5);
    assert.ok(fs.existsSync(recovery.damage!.backup));
    assert.equal(recovery.eventsRead, 4);

    const mid = await logWith(4);
    flipInLine(mid, 2);
    await assert.rejects(
      openEventLog(mid, { mode: 'writer', onDamage: 'cut-last-line' }),
      (e: unknown) => e instanceof EventLogError && e.code === 'damaged',
    );
    assert.equal(fs.readFileSync(mid, 'utf8').split('\n').length, 5, 'all four lines are still there');
  });

  it("'cut-last-line' never empties a log, even when its only damage is in its first line", async () => {
    const file = await logWith(1);
    flipInLine(file, 1);
    const before = fs.readFileSync(file);
    await assert.rejects(
      openEventLog(file, { mode: 'writer', onDamage: 'cut-last-line' }),
      (e: unknown) => e instanceof EventLogError && e.code === 'damaged',
    );
    assert.deepEqual(fs.readFileSync(file), before);
  });
});

describe('event log: what a command says about the log it opened', () => {
  it('a last line with no line end and no live writer is a torn line, named with its line and byte', async () => {
    const file = await logWith(3);
    const offset = fs.statSync(file).size;
    fs.appendFileSync(file, '{"v":1,"seq":4');
    const { recovery } = await openEventLog(file, { mode: 'reader' });
    assert.deepEqual(recovery.unfinishedTail, { line: 4, byteOffset: offset, bytes: 14 });
    const h = logHealth(recovery, file);
    assert.equal(h.damaged, true);
    assert.equal(h.line, 4);
    assert.match(
      h.notes[0]!,
      new RegExp(
        `ends in a torn line: line 4 \\(byte ${offset}, 14 bytes\\) has no line end and no DREAMS process is writing the run.*Nothing was changed`,
      ),
    );
  });

  it('the same unfinished line while a live process holds the run is a line still being written, not damage', async function () {
    this.timeout(20_000);
    const file = await logWith(2);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'holdWriter.ts'), file, '0'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve) => child.stdout!.on('data', () => resolve()));
      fs.appendFileSync(file, '{"v":1,"seq":3');
      const { recovery } = await openEventLog(file, { mode: 'reader' });
      assert.equal(logHealth(recovery, file).damaged, false);
    } finally {
      child.stdin!.end();
      await new Promise((r) => child.on('exit', r));
    }
  });

  it('a writer that cut says where the backup is, and a stale lock it took over is said too', async () => {
    const file = await logWith(3);
    flipInLine(file, 3);
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    fs.writeFileSync(
      path.join(path.dirname(file), 'events.lock'),
      JSON.stringify({ pid: deadPid, host: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' }),
    );
    const { log, recovery } = await openEventLog(file, { mode: 'writer' });
    await log.close();
    const h = logHealth(recovery, file);
    assert.equal(h.cut, true);
    assert.match(
      h.notes[0]!,
      new RegExp(
        `damaged at line 3 .*copied to ${recovery.damage!.backup.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} first.*1 line\\(s\\) from line 3 on were removed, 2 event\\(s\\) kept`,
      ),
    );
    assert.match(h.notes[1]!, new RegExp(`took over the writer lock .*events\\.lock of process ${deadPid} on ${os.hostname()}`));
  });
});

describe('event log: a lock whose process number now belongs to another program', () => {
  let other: ReturnType<typeof spawn> | undefined;
  afterEach(() => {
    other?.kill();
    other = undefined;
  });

  const startOther = async (): Promise<number> => {
    other = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 50));
    return other.pid!;
  };

  it('is taken over when the lock recorded another start time for that pid', async () => {
    const file = await logWith(1);
    const pid = await startOther();
    const lock = { pid, host: os.hostname(), startedAt: new Date().toISOString(), processStart: String(Number(processStartOf(pid)) - 500) };
    fs.writeFileSync(path.join(path.dirname(file), 'events.lock'), JSON.stringify(lock));
    const { log, recovery } = await openEventLog(file, { mode: 'writer' });
    await log.close();
    assert.deepEqual(recovery.staleLock, lock);
  });

  it('is taken over when a lock written without a start time is older than the process with its pid', async () => {
    const file = await logWith(1);
    const pid = await startOther();
    const lock = { pid, host: os.hostname(), startedAt: new Date(Date.now() - 3_600_000).toISOString() };
    fs.writeFileSync(path.join(path.dirname(file), 'events.lock'), JSON.stringify(lock));
    const { log, recovery } = await openEventLog(file, { mode: 'writer' });
    await log.close();
    assert.deepEqual(recovery.staleLock, lock);
  });

  it('still refuses the process that really holds it', async () => {
    const file = await logWith(1);
    const pid = await startOther();
    const lock = { pid, host: os.hostname(), startedAt: new Date().toISOString(), processStart: processStartOf(pid) };
    fs.writeFileSync(path.join(path.dirname(file), 'events.lock'), JSON.stringify(lock));
    await assert.rejects(openEventLog(file, { mode: 'writer' }), new RegExp(`open for writing by process ${pid} on this host`));
  });
});
