/**
 * Follow a run another process is writing: a reader log is refreshed whenever the file
 * changes (fs.watch) and on a slow timer (file-change notices are not delivered on every
 * file system, e.g. network mounts), so new events reach the reader's subscribers.
 *
 *   const { log } = await openEventLog(path, { mode: 'reader' });
 *   log.subscribe(render);
 *   const stop = followLog(log, { onDamage: (d) => show(d.detail) });
 */
import fs from 'node:fs';
import type { Damage, EventLog } from './eventLog';

export interface FollowOptions {
  /** Poll period, ms (default 500). */
  intervalMs?: number;
  /** Damage met while reading (the reader waits for the writer to cut it). */
  onDamage?: (damage: Damage) => void;
  /** A refresh failed (e.g. the log became a newer format, or the run was deleted). */
  onError?: (err: Error) => void;
}

export function followLog(log: EventLog, options: FollowOptions = {}): () => void {
  let lastDamage = '';
  const refresh = (): void => {
    try {
      const { damage } = log.refresh();
      const signature = damage ? `${damage.byteOffset}:${damage.problem}` : '';
      if (damage && signature !== lastDamage) options.onDamage?.(damage);
      lastDamage = signature;
    } catch (err) {
      options.onError?.(err as Error);
    }
  };
  let watcher: fs.FSWatcher | undefined;
  try {
    watcher = fs.watch(log.path, { persistent: false }, refresh);
    watcher.on('error', () => watcher?.close());
  } catch {
    // No change notices here: the timer alone keeps up.
  }
  const timer = setInterval(refresh, options.intervalMs ?? 500);
  timer.unref();
  refresh();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
