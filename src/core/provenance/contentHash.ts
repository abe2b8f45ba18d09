/**
 * Content hashes of artifacts: sha256 (hex) of the canonical JSON of a value (RFC 8785
 * JSON Canonicalization Scheme: sorted keys, shortest round-trip numbers), or of a
 * file's bytes. Equal values hash equal whatever order their keys were built in.
 */
import canonicalize from 'canonicalize';
import crypto from 'node:crypto';

export const sha256Hex = (data: Uint8Array | string): string => crypto.createHash('sha256').update(data).digest('hex');

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('an artifact value must be JSON (got undefined): give the value, or a file');
  return text;
}

export const hashValue = (value: unknown): string => sha256Hex(canonicalJson(value));
