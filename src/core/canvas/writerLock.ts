/**
 * The writer lock of a run: `events.lock` holds {pid, host, startedAt} of the one
 * process allowed to append. It is created atomically (written to a private file, then
 * hard-linked into place, which fails if the lock exists), so a reader of the lock never
 * sees a half-written holder.
 *
 * A lock whose pid no longer runs on this host is stale (its process crashed) and is
 * taken over. A lock from another host cannot be checked and is never taken over.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { EventLogError } from './eventLogError';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export interface WriterLock {
  holder: LockHolder;
  /** The crashed holder whose lock was taken over, if any. */
  staleHolder?: LockHolder;
  release(): void;
}

export function acquireWriterLock(lockPath: string): WriterLock {
  const holder: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  const text = JSON.stringify(holder) + '\n';
  const staging = `${lockPath}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(staging, text, { flag: 'wx' });
  try {
    let staleHolder: LockHolder | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(staging, lockPath);
        return { holder, staleHolder, release: () => releaseIfOurs(lockPath, text) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
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
      : new EventLogError('locked', `could not take the writer lock ${lockPath}: other processes keep replacing it. Close the other DREAMS windows or CLI runs on this run and try again.`);
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
    return false;
  } catch (err) {
    // EPERM: the pid runs under another user, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
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
  const advice = h.host === os.hostname()
    ? 'Close that DREAMS window or CLI run (or open this run read-only to watch it).'
    : `This host cannot tell whether that process still runs. Stop it on ${h.host}; if it is gone, delete ${lockPath}.`;
  return new EventLogError('locked', `this run is open for writing by ${where} since ${h.startedAt} (${lockPath}). ${advice}`);
}
