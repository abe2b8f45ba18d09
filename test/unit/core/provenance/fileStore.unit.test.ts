import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safeFileName, storeFile } from '../../../../src/core/provenance/fileStore';

describe('file store', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const runDir = (): string => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-files-'));
    dirs.push(d);
    return d;
  };

  it('stores content under files/<sha256>/<name> and leaves no temporary file', async () => {
    const dir = runDir();
    const stored = await storeFile(dir, 'al.scf.out', '!    total energy = -4.2 Ry\n');
    const sha = crypto.createHash('sha256').update('!    total energy = -4.2 Ry\n').digest('hex');
    assert.deepEqual(stored, { location: `files/${sha}/al.scf.out`, sha256: sha, bytes: 28 });
    assert.deepEqual(fs.readdirSync(path.join(dir, 'files', sha)), ['al.scf.out']);
  });

  it('stores the same content under the same name many times at once', async () => {
    const dir = runDir();
    const results = await Promise.all(Array.from({ length: 8 }, () => storeFile(dir, 'pw.out', '')));
    assert.equal(new Set(results.map((r) => r.location)).size, 1);
    assert.deepEqual(fs.readdirSync(path.join(dir, results[0]!.location, '..')), ['pw.out']);
  });

  it('keeps names inside their directory', () => {
    assert.equal(safeFileName('../../etc/passwd'), 'passwd');
    assert.equal(safeFileName('C:\\runs\\al scf.in'), 'al_scf.in');
    assert.equal(safeFileName('...'), 'content');
  });
});
