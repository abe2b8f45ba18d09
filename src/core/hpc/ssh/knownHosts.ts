/**
 * known_hosts, read the way OpenSSH reads it: plain and hashed (|1|salt|hmac) host
 * fields, [host]:port for ports other than 22, comma lists, * and ? patterns, !negation,
 * and @revoked markers. A key is accepted only when a line for the host holds exactly
 * that key; a different key of the same type is a mismatch and is refused.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type HostKeyVerdict =
  | { kind: 'match'; file: string; line: number }
  | { kind: 'mismatch'; file: string; line: number; knownFingerprint: string }
  | { kind: 'revoked'; file: string; line: number }
  | { kind: 'unknown' };

export interface KnownHostEntry {
  file: string;
  line: number;
  marker?: '@revoked' | '@cert-authority';
  hosts: string;
  keyType: string;
  key: Buffer;
}

/** The name OpenSSH looks up: host, or [host]:port when the port is not 22. */
export const knownHostName = (host: string, port: number): string => (port === 22 ? host : `[${host}]:${port}`);

/** OpenSSH's fingerprint form: SHA256:<base64, no padding>. */
export const fingerprintOf = (key: Buffer): string =>
  `SHA256:${crypto.createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** The key type named inside an SSH public key blob (its first string). */
export function keyTypeOf(key: Buffer): string {
  if (key.length < 4) return 'unknown';
  const n = key.readUInt32BE(0);
  return key.subarray(4, 4 + n).toString('latin1');
}

export function readKnownHosts(files: string[]): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    fs.readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .forEach((text, i) => {
        const t = text.trim();
        if (!t || t.startsWith('#')) return;
        const cols = t.split(/\s+/);
        let marker: KnownHostEntry['marker'];
        if (cols[0] === '@revoked' || cols[0] === '@cert-authority') marker = cols.shift() as KnownHostEntry['marker'];
        if (cols.length < 3) return;
        entries.push({
          file,
          line: i + 1,
          ...(marker ? { marker } : {}),
          hosts: cols[0]!,
          keyType: cols[1]!,
          key: Buffer.from(cols[2]!, 'base64'),
        });
      });
  }
  return entries;
}

/** Does the host field of a known_hosts line name `name`? */
export function hostFieldMatches(field: string, name: string): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    if (!salt || !hash) return false;
    const mac = crypto.createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return mac === hash;
  }
  let matched = false;
  for (const pattern of field.split(',')) {
    const negated = pattern.startsWith('!');
    const p = negated ? pattern.slice(1) : pattern;
    if (globMatch(p.toLowerCase(), name.toLowerCase())) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}

function globMatch(pattern: string, s: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return re.test(s);
}

export function verifyHostKey(entries: KnownHostEntry[], name: string, key: Buffer): HostKeyVerdict {
  const mine = entries.filter((e) => e.marker !== '@cert-authority' && hostFieldMatches(e.hosts, name));
  const revoked = entries.find((e) => e.marker === '@revoked' && e.key.equals(key));
  if (revoked) return { kind: 'revoked', file: revoked.file, line: revoked.line };
  const exact = mine.find((e) => !e.marker && e.key.equals(key));
  if (exact) return { kind: 'match', file: exact.file, line: exact.line };
  const type = keyTypeOf(key);
  const other = mine.find((e) => !e.marker && e.keyType === type);
  if (other) return { kind: 'mismatch', file: other.file, line: other.line, knownFingerprint: fingerprintOf(other.key) };
  return { kind: 'unknown' };
}

/** Append an accepted key (the user confirmed it) to the first known_hosts file. */
export function addKnownHost(file: string, name: string, key: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const prefix = fs.existsSync(file) && !fs.readFileSync(file, 'utf8').endsWith('\n') && fs.statSync(file).size > 0 ? '\n' : '';
  fs.appendFileSync(file, `${prefix}${name} ${keyTypeOf(key)} ${key.toString('base64')}\n`, { mode: 0o600 });
}
