/**
 * The writer lock of a run: `events.lock` holds {pid, host, startedAt} of the one
 * process allowed to append. It is created atomically (written to a private file, then
 * hard-linked into place, which fails if the lock exists), so a reader of the lock never
 * sees a half-written holder.
 *
 * A lock whose pid no longer runs on this host is stale (its process crashed) and is
 * taken over; so is one whose pid now belongs to another process (the number was reused
 * after the holder died): on Linux the lock records the holder's start time in clock ticks
 * since boot (/proc/<pid>/stat), and a live pid with another start time is not the holder.
 * A lock from another host cannot be checked and is never taken over.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { EventLogError } from './eventLogError';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** Linux: the holder process's start time, clock ticks after boot (field 22 of /proc/<pid>/stat). */
  processStart?: string;
}

export interface WriterLock {
  holder: LockHolder;
  /** The crashed holder whose lock was taken over, if any. */
  staleHolder?: LockHolder;
  release(): void;
}

export function acquireWriterLock(lockPath: string): WriterLock {
  const processStart = processStartOf(process.pid);
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    ...(processStart ? { processStart } : {}),
  };
  const text = JSON.stringify(holder) + '\n';
  const staging = `${lockPath}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  try {
    fs.writeFileSync(staging, text, { flag: 'wx' });
  } catch (err) {
    // A full disk creates the file and then refuses its bytes: leave nothing behind.
    fs.rmSync(staging, { force: true });
    throw lockWriteError(lockPath, err as NodeJS.ErrnoException);
  }
  try {
    let staleHolder: LockHolder | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(staging, lockPath);
        return { holder, staleHolder, release: () => releaseIfOurs(lockPath, text) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockWriteError(lockPath, err as NodeJS.ErrnoException);
      }
      const current = readLock(lockPath);
      if (current === 'gone') continue;
      if (current.holder && !isStale(current.holder)) throw lockedError(lockPath, current.holder);
      // Move the stale lock aside, then make sure what was moved is the lock judged
      // stale: if another process took it over in between, put its lock back.
      const aside = `${lockPath}.stale-${crypto.randomBytes(4).toString('hex')}`;
      try {
        fs.renameSync(lockPath, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const moved = readLock(aside);
      if (moved === 'gone' || moved.text !== current.text) {
        restore(aside, lockPath);
        if (moved !== 'gone' && moved.holder) throw lockedError(lockPath, moved.holder);
        continue;
      }
      fs.rmSync(aside, { force: true });
      staleHolder = current.holder;
    }
    const last = readLock(lockPath);
    throw last !== 'gone' && last.holder
      ? lockedError(lockPath, last.holder)
      : new EventLogError(
          'locked',
          `could not take the writer lock ${lockPath}: other processes keep replacing it. Close the other DREAMS windows or CLI runs on this run and try again.`,
        );
  } finally {
    fs.rmSync(staging, { force: true });
  }
}

/** A lock file's text and holder (undefined when the text is not a lock record), or 'gone'. */
export function readLock(lockPath: string): { text: string; holder?: LockHolder } | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    if (Number.isInteger(h.pid) && typeof h.host === 'string' && typeof h.startedAt === 'string') return { text, holder: h };
  } catch {
    // not a lock record: treated as stale
  }
  return { text };
}

function isStale(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: the pid runs under another user, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return pidReused(holder);
}

/** Linux: the start time of a process, in clock ticks after boot; undefined elsewhere or when it is gone. */
export function processStartOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19]; // field 22 of the whole line
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds since the epoch at which the system booted (Linux), or undefined. */
function bootTime(): number | undefined {
  try {
    const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** /proc reports start times in USER_HZ, which Linux fixes at 100 per second for user space. */
const USER_HZ = 100;

/**
 * The live process with the holder's pid is not the holder: its start time differs from the
 * one the lock recorded, or (a lock written without it) it started after the lock was taken.
 */
function pidReused(holder: LockHolder): boolean {
  const now = processStartOf(holder.pid);
  if (now === undefined) return false; // not Linux, or it just ended: cannot tell, so it counts as alive
  if (holder.processStart !== undefined) return holder.processStart !== now;
  const boot = bootTime();
  const lockedAt = Date.parse(holder.startedAt);
  if (boot === undefined || Number.isNaN(lockedAt)) return false;
  const startedMs = (boot + Number(now) / USER_HZ) * 1000;
  // A margin for the clock's resolution: the holder started before it wrote the lock.
  return startedMs > lockedAt + 2000;
}

function lockWriteError(lockPath: string, err: NodeJS.ErrnoException): EventLogError {
  const why =
    err.code === 'ENOSPC'
      ? 'the disk is full'
      : err.code === 'EDQUOT'
        ? 'the disk quota is used up'
        : err.code === 'EACCES' || err.code === 'EPERM'
          ? 'the run directory is not writable'
          : err.code === 'EROFS'
            ? 'the file system is read-only'
            : err.message || String(err);
  return new EventLogError(
    'broken',
    `could not take the writer lock ${lockPath}: ${why} (${err.code ?? 'error'}). Nothing in the run was changed and no file was left behind. ` +
      `${err.code === 'ENOSPC' || err.code === 'EDQUOT' ? `Free space on the disk that holds ${lockPath.replace(/\/[^/]*$/, '')}` : 'Fix that'}, then try again.`,
  );
}

/** The holder of a lock that is live (its process runs on this host, or it is another host's), or undefined. */
export function liveHolder(lockPath: string): LockHolder | undefined {
  const current = readLock(lockPath);
  if (current === 'gone' || !current.holder) return undefined;
  return isStale(current.holder) ? undefined : current.holder;
}

function restore(aside: string, lockPath: string): void {
  try {
    fs.linkSync(aside, lockPath);
  } catch {
    // Someone holds the lock again: theirs stands.
  }
  fs.rmSync(aside, { force: true });
}

function releaseIfOurs(lockPath: string, text: string): void {
  try {
    if (fs.readFileSync(lockPath, 'utf8') === text) fs.rmSync(lockPath, { force: true });
  } catch {
    // Already gone.
  }
}

function lockedError(lockPath: string, h: LockHolder): EventLogError {
  const where = h.host === os.hostname() ? `process ${h.pid} on this host` : `process ${h.pid} on host ${h.host}`;
  const advice =
    h.host === os.hostname()
      ? 'Close that DREAMS window or CLI run (or open this run read-only to watch it).'
      : `This host cannot tell whether that process still runs. Stop it on ${h.host}; if it is gone, delete ${lockPath}.`;
  return new EventLogError('locked', `this run is open for writing by ${where} since ${h.startedAt} (${lockPath}). ${advice}`);
}
