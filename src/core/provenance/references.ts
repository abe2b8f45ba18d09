/**
 * References into artifacts: "a-12" names an artifact, "a-12.chosen.ecutwfcRy" or
 * "a-7.points.3.energyEv" a value inside it (array elements by index). Resolution and
 * the equality a referenced argument must satisfy (equal up to floating-point noise,
 * NOISE_TOLERANCE, or within a wider tolerance the artifact declares) live here so the
 * registry, the guard's tier-1 rule and the report judge agree.
 */
import type { ArtifactRecord, Ref } from './types';

export interface ParsedRef {
  artifactId: string;
  path: string[];
}

const REF_PATTERN = /^(a-[1-9]\d*)((?:\.[A-Za-z0-9_]+)*)$/;

export function parseRef(ref: unknown): ParsedRef | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = REF_PATTERN.exec(ref);
  if (!m) return undefined;
  return { artifactId: m[1]!, path: m[2] ? m[2].slice(1).split('.') : [] };
}

export const isRef = (value: unknown): value is Ref => parseRef(value) !== undefined;

/** The artifact id a reference starts from ("a-12.x.y" → "a-12"). */
export function artifactIdOf(ref: Ref): string {
  const dot = ref.indexOf('.');
  return dot < 0 ? ref : ref.slice(0, dot);
}

export type Resolution = { ok: true; artifact: ArtifactRecord; value: unknown } | { ok: false; problem: string };

/**
 * The value a reference names. A bare reference to a file-backed artifact without an
 * inline value names its location (files/<sha256>/<name>).
 */
export function resolveRef(lookup: (id: string) => ArtifactRecord | undefined, ref: Ref): Resolution {
  const parsed = parseRef(ref);
  if (!parsed) {
    return {
      ok: false,
      problem: `${JSON.stringify(ref)} is not a reference: write "a-<n>" or "a-<n>.<path>" (e.g. "a-12.chosen.ecutwfcRy", "a-7.points.3.energyEv")`,
    };
  }
  const artifact = lookup(parsed.artifactId);
  if (!artifact)
    return { ok: false, problem: `${parsed.artifactId} does not exist in this run: inspect artifacts/ for the artifact you meant` };
  let value: unknown = artifact.value ?? artifact.location;
  for (let i = 0; i < parsed.path.length; i++) {
    const part = parsed.path[i]!;
    const at = [parsed.artifactId, ...parsed.path.slice(0, i)].join('.');
    if (Array.isArray(value)) {
      const index = Number(part);
      if (!/^\d+$/.test(part) || index >= value.length) {
        return {
          ok: false,
          problem: `${at} is a list of ${value.length}; "${part}" is not an index into it (use 0 to ${value.length - 1})`,
        };
      }
      value = value[index];
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, part)) {
      value = (value as Record<string, unknown>)[part];
    } else {
      const fields = value !== null && typeof value === 'object' ? Object.keys(value).slice(0, 12) : [];
      return {
        ok: false,
        problem: `${at} has no field "${part}"${fields.length ? ` (it has: ${fields.join(', ')})` : ' (it is not an object)'}`,
      };
    }
  }
  return { ok: true, artifact, value };
}

export type Tolerance = { abs?: number; rel?: number };

/**
 * Floating-point noise: two numbers this close are the same value written twice
 * (-4.192128890000001 and -4.19212889, a value that went through a unit conversion and
 * back). Relative 1e-9 of the recorded value, with an absolute floor of 1e-12 for values
 * at or near zero. Rounding to 8 significant figures moves a value by up to 5e-9 of it, so a
 * copied and rounded number is still refused unless rounding left it the same number.
 * docs/notes/guard.md states it.
 */
export const NOISE_TOLERANCE: Readonly<Required<Tolerance>> = { rel: 1e-9, abs: 1e-12 };

/** The largest difference from `recorded` that still counts as equal: noise, or the artifact's own wider tolerance. */
export function allowedDifference(recorded: number, tolerance?: Tolerance): number {
  return Math.max(NOISE_TOLERANCE.abs, tolerance?.abs ?? 0, Math.max(NOISE_TOLERANCE.rel, tolerance?.rel ?? 0) * Math.abs(recorded));
}

/** Equal up to noise (or the artifact's declared tolerance). */
export function sameNumber(supplied: number, recorded: number, tolerance?: Tolerance): boolean {
  return supplied === recorded || Math.abs(supplied - recorded) <= allowedDifference(recorded, tolerance);
}

/**
 * Where `supplied` differs from `recorded`, or undefined when they are equal. Numbers
 * are equal up to noise, or within the artifact's tolerance: |s - r| <= max(abs, rel·|r|).
 */
export function valueDifference(supplied: unknown, recorded: unknown, tolerance?: Tolerance, at = ''): string | undefined {
  if (typeof supplied === 'number' && typeof recorded === 'number') {
    return sameNumber(supplied, recorded, tolerance) ? undefined : `${at || 'the value'}: ${supplied} ≠ ${recorded}`;
  }
  if (Array.isArray(supplied) && Array.isArray(recorded)) {
    if (supplied.length !== recorded.length) return `${at || 'the value'}: ${supplied.length} items ≠ ${recorded.length} items`;
    for (let i = 0; i < supplied.length; i++) {
      const d = valueDifference(supplied[i], recorded[i], tolerance, `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isPlainObject(supplied) && isPlainObject(recorded)) {
    const keys = new Set([...Object.keys(supplied), ...Object.keys(recorded)]);
    for (const k of keys) {
      if (!Object.hasOwn(supplied, k) || !Object.hasOwn(recorded, k)) return `${at}.${k}: present in only one of them`;
      const d = valueDifference(supplied[k], recorded[k], tolerance, `${at}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return supplied === recorded ? undefined : `${at || 'the value'}: ${brief(supplied)} ≠ ${brief(recorded)}`;
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

export function brief(x: unknown): string {
  const s = JSON.stringify(x) ?? String(x);
  return s.length > 60 ? s.slice(0, 59) + '…' : s;
}
