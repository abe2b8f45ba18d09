import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory under the OS temp dir, removed after the current mocha suite. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  after(() => {
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-canvas-'));
    made.push(d);
    return d;
  };
}
