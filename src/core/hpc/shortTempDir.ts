/**
 * A fresh temporary directory whose path leaves room for the Unix sockets programs make in it.
 * A socket address holds 107 bytes; Open MPI (pw.x), VS Code and Chromium put sockets a few
 * directories down their TMPDIR, and a TMPDIR deep inside a clone or a run directory overflows it
 * (libuv cuts the name short silently, Chromium stops at launch, Open MPI cannot start).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The longest base directory taken as it is, in bytes; a longer one is replaced by /tmp.
 * Chromium's socket needs the most room: it refuses a socket path of 108 bytes or more (the size
 * of sun_path), and base + "/dreams-chromium-XXXXXX" (23) + "/org.chromium.Chromium.XXXXXX/
 * SingletonSocket" (45) must stay under that, so 39 at most; 32 leaves a margin.
 */
export const SHORT_TMP_BASE_MAX = 32;

/**
 * mkdtemp of `prefix` under `base` (default, and for an empty or relative one, the system's
 * temporary directory), or under /tmp when that is too long.
 */
export function shortTempDir(prefix: string, base?: string): string {
  const b = base && path.isAbsolute(base) ? base : os.tmpdir();
  return fs.mkdtempSync(path.join(Buffer.byteLength(b) <= SHORT_TMP_BASE_MAX ? b : '/tmp', prefix));
}
