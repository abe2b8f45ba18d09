import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addKnownHost,
  fingerprintOf,
  hostFieldMatches,
  keyTypeOf,
  knownHostName,
  readKnownHosts,
  verifyHostKey,
} from '../../../../../src/core/hpc/ssh/knownHosts';

const blob = (type: string, seed: string) => {
  const t = Buffer.from(type);
  const k = crypto.createHash('sha256').update(seed).digest();
  const len = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  return Buffer.concat([len(t.length), t, len(k.length), k]);
};
const hashed = (name: string) => {
  const salt = crypto.randomBytes(20);
  return `|1|${salt.toString('base64')}|${crypto.createHmac('sha1', salt).update(name).digest('base64')}`;
};

describe('known_hosts', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-kh-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names hosts the way OpenSSH does', () => {
    assert.equal(knownHostName('h', 22), 'h');
    assert.equal(knownHostName('10.0.0.1', 2222), '[10.0.0.1]:2222');
  });

  it('matches plain, bracketed, wildcard, negated and hashed host fields', () => {
    assert.ok(hostFieldMatches('a,[10.0.0.1]:2222', '[10.0.0.1]:2222'));
    assert.ok(!hostFieldMatches('[10.0.0.1]:2222', '[10.0.0.1]:22'));
    assert.ok(!hostFieldMatches('[10.0.0.1]:2222', '1'), 'brackets are literal, not a character class');
    assert.ok(hostFieldMatches('*.example.org', 'login.example.org'));
    assert.ok(!hostFieldMatches('*.example.org,!bad.example.org', 'bad.example.org'));
    assert.ok(hostFieldMatches(hashed('[h]:2222'), '[h]:2222'));
    assert.ok(!hostFieldMatches(hashed('[h]:2222'), 'h'));
  });

  it('tells match, mismatch (same key type, other key), revoked and unknown apart', () => {
    const file = path.join(dir, 'known_hosts');
    const good = blob('ssh-ed25519', 'good');
    const other = blob('ssh-ed25519', 'other');
    const rsa = blob('ssh-rsa', 'rsa');
    fs.writeFileSync(
      file,
      [
        '# comment',
        '',
        `${hashed('h1')} ssh-ed25519 ${good.toString('base64')}`,
        `h2 ssh-ed25519 ${other.toString('base64')}`,
        `h3 ssh-rsa ${rsa.toString('base64')}`,
        `@revoked * ssh-ed25519 ${blob('ssh-ed25519', 'revoked').toString('base64')}`,
      ].join('\n'),
    );
    const entries = readKnownHosts([file, path.join(dir, 'missing')]);
    assert.equal(verifyHostKey(entries, 'h1', good).kind, 'match');
    const mm = verifyHostKey(entries, 'h2', good);
    assert.equal(mm.kind, 'mismatch');
    assert.equal(mm.kind === 'mismatch' && mm.knownFingerprint, fingerprintOf(other));
    assert.equal(verifyHostKey(entries, 'h3', good).kind, 'unknown', 'a key of another type is not a mismatch');
    assert.equal(verifyHostKey(entries, 'h1', blob('ssh-ed25519', 'revoked')).kind, 'revoked');
    assert.equal(verifyHostKey(entries, 'nobody', good).kind, 'unknown');
    assert.equal(keyTypeOf(rsa), 'ssh-rsa');
  });

  it('saves an accepted key so the next lookup matches', () => {
    const file = path.join(dir, 'sub', 'known_hosts');
    const key = blob('ssh-ed25519', 'k');
    addKnownHost(file, '[h]:2222', key);
    assert.equal(verifyHostKey(readKnownHosts([file]), '[h]:2222', key).kind, 'match');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.match(fingerprintOf(key), /^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});
