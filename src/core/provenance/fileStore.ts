/**
 * Content-addressed storage of file-backed artifacts: `files/<sha256>/<name>` under the
 * run directory. A file is written to a temporary name, fsynced and renamed into place
 * (then its directory fsynced) before the artifact that names it is recorded, so an
 * event never points at a file that a crash could lose.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from './contentHash';

export interface StoredFile {
  /** Relative to the run directory, with "/" separators. */
  location: string;
  sha256: string;
  bytes: number;
}

/** A file name safe in any directory: no separators, no leading dots. */
export function safeFileName(name: string): string {
  const base = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/[^A-Za-z0-9._+-]/g, '_')
    .replace(/^\.+/, '');
  return base === '' ? 'content' : base;
}

export async function storeFile(runDir: string, name: string, content: Uint8Array | string): Promise<StoredFile> {
  const bytes =
    typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const sha256 = sha256Hex(bytes);
  const fileName = safeFileName(name);
  const location = `files/${sha256}/${fileName}`;
  const target = path.join(runDir, 'files', sha256, fileName);
  if (await existsWithHash(target, sha256)) return { location, sha256, bytes: bytes.length };
  const dir = path.dirname(target);
  await fs.promises.mkdir(dir, { recursive: true });
  // A private temporary name: two stores of the same content at once must not share it.
  const tmp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const handle = await fs.promises.open(tmp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(tmp, target);
  for (const d of [dir, path.dirname(dir), path.join(runDir)]) await fsyncDir(d);
  return { location, sha256, bytes: bytes.length };
}

async function existsWithHash(file: string, sha256: string): Promise<boolean> {
  try {
    return sha256Hex(await fs.promises.readFile(file)) === sha256;
  } catch {
    return false;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const h = await fs.promises.open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}
