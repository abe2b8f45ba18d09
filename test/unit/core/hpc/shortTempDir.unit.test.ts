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
    // an empty or relative base is the system's temporary directory, never the working directory
    for (const odd of ['', 'relative']) {
      const d = shortTempDir('dreams-x-', odd);
      made.push(d);
      assert.ok(path.isAbsolute(d), d);
    }
    // the limit is in bytes: a base of few characters but many bytes goes to /tmp
    const wide = fs.mkdtempSync(`/tmp/${'é'.repeat(14)}-`);
    made.push(wide);
    assert.ok(wide.length <= SHORT_TMP_BASE_MAX && Buffer.byteLength(wide) > SHORT_TMP_BASE_MAX);
    const inWide = shortTempDir('dreams-x-', wide);
    made.push(inWide);
    assert.equal(path.dirname(inWide), '/tmp');
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
    // and a path past what an address holds (sun_path, 108 bytes with its NUL; Node binds 107 and
    // 108 here, Chromium refuses 108) does not bind where asked, so the bind above can fail
    const tooLong = path.join(sub, 'S'.repeat(109 - sub.length - 1));
    assert.equal(tooLong.length, 109);
    assert.equal(await binds(tooLong), false, `a ${tooLong.length}-byte socket path was bound`);
  });
});
