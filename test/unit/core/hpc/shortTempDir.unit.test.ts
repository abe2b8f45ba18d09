import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SHORT_TMP_BASE_MAX, shortTempDir } from '../../../../src/core/hpc/shortTempDir';

/**
 * Binds a Unix socket at `file`: whether the socket appeared at that very path. (libuv cuts an
 * address that is too long short without a word, so the socket lands at a shorter name.)
 */
function binds(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(file, () => {
      const there = fs.existsSync(file) && fs.statSync(file).isSocket();
      server.close(() => resolve(there));
    });
  });
}

describe('a temporary directory short enough for sockets', () => {
  const made: string[] = [];
  after(() => {
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });

  it('is made under the base given when that is short, else under /tmp', () => {
    const short = fs.mkdtempSync('/tmp/st-');
    made.push(short);
    const inShort = shortTempDir('dreams-x-', short);
    made.push(inShort);
    assert.equal(path.dirname(inShort), short);
    const long = path.join(short, 'a'.repeat(SHORT_TMP_BASE_MAX));
    fs.mkdirSync(long);
    const inLong = shortTempDir('dreams-x-', long);
    made.push(inLong);
    assert.equal(path.dirname(inLong), '/tmp');
  });

  it("leaves room for Chromium's singleton socket under the longest base it keeps, which a real socket binds", async () => {
    const root = fs.mkdtempSync('/tmp/st-');
    made.push(root);
    const base = path.join(root, 'b'.repeat(SHORT_TMP_BASE_MAX - root.length - 1));
    fs.mkdirSync(base);
    assert.equal(base.length, SHORT_TMP_BASE_MAX);
    const dir = shortTempDir('dreams-chromium-', base);
    assert.equal(path.dirname(dir), base);
    // where Chromium makes it: $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket
    const sub = path.join(dir, 'org.chromium.Chromium.abcdef');
    fs.mkdirSync(sub);
    const socket = path.join(sub, 'SingletonSocket');
    assert.ok(socket.length <= 107, `${socket.length} bytes`);
    assert.equal(await binds(socket), true);
    // and one byte past what an address holds is refused, so the check above can fail
    const tooLong = path.join(sub, 'S'.repeat(108 - sub.length));
    assert.equal(await binds(tooLong), false, `a ${tooLong.length}-byte socket path was bound`);
  });
});
