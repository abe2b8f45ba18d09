/**
 * The append-only event log of a run (JSON Lines, one CanvasEvent a line; line format in
 * eventLine.ts). It is the source of truth every view folds over.
 *
 *   const { log, recovery } = await openEventLog(path, { mode: 'writer' });
 *   const e = await log.append({ kind: 'key.write', key: 'notes/a', payload, actor });
 *
 * Durability: `append` resolves only after the event's bytes were written and
 * fdatasync(2) returned, so an action that awaits it never runs ahead of its record.
 *   - 'group-commit' (default): appends queued while the previous write is in flight (or
 *     within the same tick) go out as one write + one fdatasync; each promise resolves
 *     after that fdatasync.
 *   - 'fsync-each': one write + one fdatasync per event.
 * A failed write or fdatasync breaks the log: pending and later appends reject, and the
 * run must be reopened (it recovers to the last durable event).
 *
 * One writer process per run (the `events.lock` file, writerLock.ts); within a process,
 * appends are serialised in call order: seq order is file order. Readers never write and
 * pick up lines another process appended with `refresh()`; a line still being written
 * (no "\n" yet) is not visible until it is complete.
 *
 * On open, a writer checks every line; the first bad one (torn, bad checksum, invalid
 * JSON, wrong shape, sequence gap, oversized) and everything after it is cut, after the
 * whole file was copied aside (RecoveryReport.damage.backup), unless the writer asked for
 * onDamage 'refuse' (then nothing changes and the open fails with the damage). A reader
 * reports the same damage but changes nothing (backup is ''), and a last line without its
 * line end as `unfinishedTail`. A log written by a newer format is refused, and so
 * is a file with no good event that does not begin like an event line (not ours: nothing is cut).
 * Opened with a `check` (the event catalogue's, run/eventCatalogue.ts), a well-formed line of an
 * unknown kind or a malformed payload refuses the log with that line's number; nothing is cut.
 */
import fs from 'node:fs';
import path from 'node:path';
import { encodeEventLine } from './eventLine';
import { EventLogError } from './eventLogError';
import { countLinesFrom, scanLog, type EventCheck, type ScanDamage, type ScanStart } from './logScan';
import { acquireWriterLock, type WriterLock } from './writerLock';
import {
  EVENT_FORMAT_VERSION,
  type Actor,
  type AppendInput,
  type CanvasEvent,
  type DurabilityPolicy,
  type EventCatalogue,
  type EventKind,
  type EventSource,
  type EventWriter,
  type RecoveryReport,
} from './types';

export { EventLogError } from './eventLogError';

export interface OpenEventLogOptions {
  mode: 'writer' | 'reader';
  /** Writers only; default 'group-commit'. */
  durability?: DurabilityPolicy;
  /** A longer line is damage, and a longer append is refused. Default 16 MiB. */
  maxLineBytes?: number;
  /**
   * Writers only: what a damaged log gets. 'cut' (default, the run's own process): copy the
   * whole file aside and cut it back to the last good event. 'refuse': change nothing and
   * throw EventLogError 'damaged'. 'cut-last-line': cut only what a crash leaves (the last
   * line alone is torn or damaged, and good events stay before it), refuse anything else; a
   * command that only adds to a run (an approval) uses it, so it never empties a log.
   */
  onDamage?: 'cut' | 'refuse' | 'cut-last-line';
  /**
   * The check every well-formed event read from the file passes (its kind is in the catalogue,
   * its payload has that kind's shape; run/eventCatalogue.ts). A line it refuses refuses the
   * whole log with the line's number (EventLogError 'unknown-event'): nothing is cut.
   */
  check?: EventCheck;
}

export type { AppendInput } from './types';

export type Damage = NonNullable<RecoveryReport['damage']>;

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** `events.jsonl` → `events.lock`; any other name gets `.lock` appended. */
export const lockPathFor = (logPath: string): string => logPath.replace(/\.jsonl$/, '') + '.lock';

interface Pending {
  line: string;
  event: CanvasEvent;
  resolve: (e: CanvasEvent) => void;
  reject: (err: Error) => void;
}

const heldLocks = new Set<WriterLock>();
let exitHookInstalled = false;

export class EventLog implements EventSource, EventWriter {
  private readonly durable: CanvasEvent[] = [];
  private readonly queue: Pending[] = [];
  /** The batch being written now (out of the queue, not yet durable). */
  private inFlight: Pending[] = [];
  private readonly observers = new Set<(e: CanvasEvent) => void>();
  private readonly subscribers = new Set<(e: CanvasEvent) => void>();
  private nextSeq: number;
  private flushing: Promise<void> | undefined;
  private broken: EventLogError | undefined;
  private readonly brokenListeners = new Set<(e: EventLogError) => void>();
  private closed = false;
  private readonly counters = { appends: 0, writes: 0, syncs: 0 };

  private constructor(
    readonly path: string,
    readonly mode: 'writer' | 'reader',
    readonly durability: DurabilityPolicy,
    private readonly maxLineBytes: number,
    private scanFrom: ScanStart,
    private readonly file: fs.promises.FileHandle | undefined,
    private readonly lock: WriterLock | undefined,
    initial: CanvasEvent[],
    private readonly check: EventCheck | undefined,
  ) {
    this.durable.push(...initial);
    this.nextSeq = scanFrom.seq;
  }

  /** @internal use openEventLog */
  static async open(logPath: string, options: OpenEventLogOptions): Promise<{ log: EventLog; recovery: RecoveryReport }> {
    const durability = options.durability ?? 'group-commit';
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (options.mode === 'reader') {
      if (!fs.existsSync(logPath)) {
        throw new EventLogError(
          'not-a-log',
          `no event log at ${logPath}: this is not a run directory, or the run was never started. Check the path.`,
        );
      }
      const scan = scanOrRefuse(logPath, { offset: 0, line: 1, seq: 1 }, maxLineBytes, options.check);
      const recovery: RecoveryReport = { eventsRead: scan.events.length };
      if (scan.damage) recovery.damage = readerDamage(logPath, scan.damage);
      else if (scan.partialBytes > 0)
        recovery.unfinishedTail = { line: scan.next.line, byteOffset: scan.next.offset, bytes: scan.partialBytes };
      return {
        log: new EventLog(logPath, 'reader', durability, maxLineBytes, scan.next, undefined, undefined, scan.events, options.check),
        recovery,
      };
    }

    const created = !fs.existsSync(logPath);
    const lock = acquireWriterLock(lockPathFor(logPath));
    try {
      if (created) {
        fs.closeSync(fs.openSync(logPath, 'a'));
        fsyncDirectory(path.dirname(logPath));
      }
      const scan = scanOrRefuse(logPath, { offset: 0, line: 1, seq: 1 }, maxLineBytes, options.check);
      if (scan.events.length === 0 && !beginsLikeALog(logPath)) {
        // Cutting "damage" from line 1 would empty a file DREAMS did not write (another tool's
        // events.jsonl, a file copied over the log). A log of ours, even one torn in its first
        // line by a crash, begins with the first event's opening bytes.
        throw new EventLogError(
          'not-a-log',
          `${logPath} is not a DREAMS event log: it does not begin with an event line ({"v":…). Nothing was changed. Open a run directory DREAMS made, or move this file away to start a run here.`,
        );
      }
      const recovery: RecoveryReport = { eventsRead: scan.events.length };
      if (lock.staleHolder) recovery.staleLock = lock.staleHolder;
      const damage: ScanDamage | undefined =
        scan.damage ??
        (scan.partialBytes > 0
          ? {
              line: scan.next.line,
              byteOffset: scan.next.offset,
              problem: 'torn-line',
              detail: `the last line has no line end (${scan.partialBytes} bytes): the writer stopped in the middle of it`,
            }
          : undefined);
      const crashTail = damage !== undefined && scan.events.length > 0 && countLinesFrom(logPath, damage.byteOffset) === 1;
      if (damage && (options.onDamage === 'refuse' || (options.onDamage === 'cut-last-line' && !crashTail))) {
        const found = readerDamage(logPath, damage);
        throw new EventLogError(
          'damaged',
          `${logPath} is damaged at line ${found.line} (byte ${found.byteOffset}, ${found.problem}): ${damage.detail}; ` +
            `${found.linesDropped} line(s) from there on cannot be read. Nothing was changed.`,
          { ...found, detail: damage.detail },
        );
      }
      if (damage) recovery.damage = cutDamagedTail(logPath, damage);
      const file = await fs.promises.open(logPath, 'a');
      holdLock(lock);
      return {
        log: new EventLog(logPath, 'writer', durability, maxLineBytes, scan.next, file, lock, scan.events, options.check),
        recovery,
      };
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** Durable events, in sequence order. */
  events(): readonly CanvasEvent[] {
    return this.durable;
  }

  /** Sequence number of the last durable event (0 for an empty log). */
  lastSeq(): number {
    return this.durable.length ? this.durable[this.durable.length - 1]!.seq : 0;
  }

  /** Called after each durable append (or, for a reader, each event refresh() finds), in order. */
  subscribe(listener: (e: CanvasEvent) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  /**
   * For views that check writes against their own state (canvas, provenance registry):
   * replays every event appended so far, then calls `listener` synchronously inside each
   * append, in seq order, before the event is durable. A later event can only become
   * durable after this one, so such a view never runs ahead of the file by more than
   * the events still in flight.
   */
  observe(listener: (e: CanvasEvent) => void): () => void {
    for (const e of this.durable) listener(e);
    for (const p of this.inFlight) listener(p.event);
    for (const p of this.queue) listener(p.event);
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  /** Append one event; resolves when it is durable (see the policy above). */
  append<K extends EventKind>(input: AppendInput<K>): Promise<CanvasEvent<K>>;
  append<K extends EventKind>(kind: K, key: string | undefined, payload: EventCatalogue[K], actor: Actor): Promise<CanvasEvent<K>>;
  append<K extends EventKind>(a: AppendInput<K> | K, key?: string, payload?: EventCatalogue[K], actor?: Actor): Promise<CanvasEvent<K>> {
    const input: AppendInput<K> = typeof a === 'object' ? a : { kind: a, key, payload: payload!, actor: actor! };
    const refusal = this.refusal(input);
    if (refusal) return Promise.reject(refusal);
    const { line } = encodeEventLine({
      v: EVENT_FORMAT_VERSION,
      seq: this.nextSeq,
      ts: new Date().toISOString(),
      actor: input.actor,
      kind: input.kind,
      key: input.key,
      payload: input.payload,
    });
    const bytes = Buffer.byteLength(line);
    if (bytes > this.maxLineBytes) {
      return Promise.reject(
        new EventLogError(
          'oversized-event',
          `a "${input.kind}" event${input.key ? ` for ${input.key}` : ''} would be ${bytes} bytes, over the ${this.maxLineBytes}-byte line limit. Store large content as a file-backed artifact (ArtifactDraft.file) and keep only its summary inline.`,
        ),
      );
    }
    this.nextSeq++;
    this.counters.appends++;
    // Parsed back from its own line: the in-memory event is exactly what a reopen reads
    // (undefined members dropped, no aliasing of the caller's objects).
    const event = JSON.parse(line) as CanvasEvent;
    for (const o of this.observers) callSafely(o, event, 'observer');
    const appended = new Promise<CanvasEvent<K>>((resolve, reject) => {
      // The event is the one made above from an input of kind K.
      this.queue.push({ line, event, resolve: (e) => resolve(e as CanvasEvent<K>), reject });
      if (!this.flushing) this.flushing = this.flushSoon();
    });
    // A caller that does not wait for its append (a usage record, a subscriber's note) must not
    // take the process down when the disk fills: the failure stays on the log (every later append
    // is refused with it) and reaches whoever awaits an append, which is where a run ends.
    appended.catch(() => undefined);
    return appended;
  }

  /**
   * Readers: read complete lines appended since the last look and deliver them to
   * observers and subscribers. Returns the new events and any damage met on the way
   * (the reader stops before it and looks again at the next refresh).
   */
  refresh(): { events: CanvasEvent[]; damage?: Damage } {
    if (this.mode === 'writer' || this.closed) return { events: [] };
    if (fs.statSync(this.path).size < this.scanFrom.offset) {
      return {
        events: [],
        damage: {
          line: this.scanFrom.line,
          byteOffset: this.scanFrom.offset,
          problem: 'torn-line',
          backup: '',
          linesDropped: 0,
          detail: `the log is now shorter than the ${this.scanFrom.offset} bytes already read: it was replaced. Reopen the run.`,
        },
      };
    }
    const scan = scanOrRefuse(this.path, this.scanFrom, this.maxLineBytes, this.check);
    this.scanFrom = scan.next;
    for (const e of scan.events) {
      this.durable.push(e);
      for (const o of this.observers) callSafely(o, e, 'observer');
      for (const s of this.subscribers) callSafely(s, e, 'subscriber');
    }
    return scan.damage ? { events: scan.events, damage: readerDamage(this.path, scan.damage) } : { events: scan.events };
  }

  /** Appends, write(2) calls and fdatasync(2) calls since open: batch size = appends / syncs. */
  stats(): { appends: number; writes: number; syncs: number } {
    return { ...this.counters };
  }

  /** Wait for pending appends, then release the file and the writer lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.file?.close();
    if (this.lock) {
      this.lock.release();
      heldLocks.delete(this.lock);
    }
  }

  /** Why the log accepts no more events (a write failed: disk full, permissions), or undefined. */
  get brokenError(): EventLogError | undefined {
    return this.broken;
  }

  /** Called once if a write fails and the log stops accepting events (at once if it already has). */
  onBroken(listener: (e: EventLogError) => void): () => void {
    if (this.broken) {
      notifyBroken(listener, this.broken);
      return () => undefined;
    }
    this.brokenListeners.add(listener);
    return () => this.brokenListeners.delete(listener);
  }

  private refusal(input: AppendInput): EventLogError | undefined {
    if (this.mode === 'reader') {
      return new EventLogError(
        'read-only',
        `${this.path} is open read-only (a reader watching another process's run); "${input.kind}" was not appended. Open the run as writer to change it.`,
      );
    }
    if (this.closed)
      return new EventLogError('closed', `${this.path} was closed; "${input.kind}" was not appended. Reopen the run to continue it.`);
    return this.broken;
  }

  private async flushSoon(): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    try {
      while (this.queue.length && !this.broken) {
        const batch = this.durability === 'fsync-each' ? this.queue.splice(0, 1) : this.queue.splice(0);
        this.inFlight = batch;
        try {
          this.counters.writes += await writeAll(
            this.file!,
            Buffer.from(batch.length === 1 ? batch[0]!.line : batch.map((p) => p.line).join('')),
          );
          await this.file!.datasync();
          this.counters.syncs++;
        } catch (err) {
          this.broken = new EventLogError(
            'broken',
            `could not write ${this.path} (${(err as Error).message}). Events after seq ${this.lastSeq()} were not saved and no further events are accepted. Fix the problem (disk space, permissions), then reopen the run: it recovers to the last saved event.`,
          );
          for (const p of [...batch, ...this.queue.splice(0)]) p.reject(this.broken);
          for (const l of [...this.brokenListeners]) notifyBroken(l, this.broken);
          this.brokenListeners.clear();
          return;
        } finally {
          this.inFlight = [];
        }
        for (const p of batch) {
          this.durable.push(p.event);
          for (const s of this.subscribers) callSafely(s, p.event, 'subscriber');
          p.resolve(p.event);
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }
}

/** Open a run's event log. See the file header for modes, durability and recovery. */
export function openEventLog(logPath: string, options: OpenEventLogOptions): Promise<{ log: EventLog; recovery: RecoveryReport }> {
  return EventLog.open(logPath, options);
}

function scanOrRefuse(logPath: string, start: ScanStart, maxLineBytes: number, check: EventCheck | undefined) {
  const scan = scanLog(logPath, start, maxLineBytes, check);
  if (scan.newerFormat) {
    throw new EventLogError(
      'newer-format',
      `${logPath} uses event format ${scan.newerFormat.version} (line ${scan.newerFormat.line}), newer than format ${EVENT_FORMAT_VERSION} that this version of DREAMS reads. Update the DREAMS extension or CLI to open this run; the log was not changed.`,
    );
  }
  if (scan.undecodable) {
    throw new EventLogError(
      'unknown-event',
      `${logPath} line ${scan.undecodable.line}: ${scan.undecodable.detail}. The log was not changed; open the run with the DREAMS that wrote it, or correct that line.`,
    );
  }
  return scan;
}

/** Every event line starts with these bytes (encodeEventLine writes `v` first). */
const LOG_LINE_START = Buffer.from('{"v":');

/**
 * An empty file, one whose first bytes are (a prefix of) an event line's, or one that begins with
 * a zero byte: after a power loss a file system can show a block whose data never reached the disk
 * as zeros, and such a block is crash damage to cut, not another program's file. (It can only be
 * the first block when not even the first event had been synced, so cutting it loses nothing.)
 */
function beginsLikeALog(logPath: string): boolean {
  const fd = fs.openSync(logPath, 'r');
  try {
    const head = Buffer.alloc(LOG_LINE_START.length);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return (n > 0 && head[0] === 0) || head.subarray(0, n).equals(LOG_LINE_START.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
}

/** Copy the whole file aside, then cut it back to the end of the last good line. */
function cutDamagedTail(logPath: string, damage: ScanDamage): Damage {
  const linesDropped = countLinesFrom(logPath, damage.byteOffset);
  const backup = backupPath(logPath);
  fs.copyFileSync(logPath, backup, fs.constants.COPYFILE_EXCL);
  fsyncFile(backup);
  fs.truncateSync(logPath, damage.byteOffset);
  fsyncFile(logPath);
  fsyncDirectory(path.dirname(logPath));
  return { ...damage, backup, linesDropped };
}

function readerDamage(logPath: string, damage: ScanDamage): Damage {
  return {
    ...damage,
    detail: `${damage.detail} (read-only: nothing was cut; the run's writer cuts it when it next opens the run)`,
    backup: '',
    linesDropped: countLinesFrom(logPath, damage.byteOffset),
  };
}

function backupPath(logPath: string): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const base = `${logPath.replace(/\.jsonl$/, '')}.damaged-${stamp}`;
  for (let n = 1; ; n++) {
    const candidate = `${base}${n === 1 ? '' : `-${n}`}.jsonl`;
    if (!fs.existsSync(candidate)) return candidate;
  }
}

/** Write the whole buffer; returns the number of write(2) calls it took. */
async function writeAll(file: fs.promises.FileHandle, buf: Buffer): Promise<number> {
  let calls = 0;
  for (let off = 0; off < buf.length; calls++) {
    const { bytesWritten } = await file.write(buf, off, buf.length - off);
    off += bytesWritten;
  }
  return calls;
}

function fsyncFile(p: string): void {
  const fd = fs.openSync(p, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function callSafely(listener: (e: CanvasEvent) => void, e: CanvasEvent, role: string): void {
  try {
    listener(e);
  } catch (err) {
    process.emitWarning(`a canvas event ${role} threw on ${e.kind} (seq ${e.seq}): ${(err as Error).stack ?? err}`, 'DreamsEventLog');
  }
}

function notifyBroken(listener: (e: EventLogError) => void, e: EventLogError): void {
  try {
    listener(e);
  } catch (err) {
    process.emitWarning(`a broken-log listener threw: ${(err as Error).stack ?? err}`, 'DreamsEventLog');
  }
}

/** A writer that exits without close() leaves no lock behind. */
function holdLock(lock: WriterLock): void {
  heldLocks.add(lock);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const l of heldLocks) l.release();
  });
}
