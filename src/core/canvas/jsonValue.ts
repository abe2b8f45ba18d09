/**
 * Values stored in the log must survive JSON: JSON.stringify would silently turn NaN
 * into null, or an undefined list element into null, so a reopened run would differ
 * from the one that wrote it. Such values are refused up front instead. An object
 * member whose value is undefined is fine: it is simply not stored (as if absent).
 */

/** Where and why `value` would not survive JSON, or undefined when it would. */
export function jsonValueProblem(value: unknown, at = 'value'): string | undefined {
  return walk(value, at, new Set());
}

function walk(v: unknown, at: string, seen: Set<object>): string | undefined {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(v)
        ? undefined
        : `${at} is ${v}, which JSON cannot hold: give a finite number, or null with a note saying why there is none`;
    case 'object':
      break;
    default:
      return `${at} is ${typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`}, which JSON cannot hold: leave the member out or give a JSON value`;
  }
  if (v === null) return undefined;
  if (seen.has(v)) return `${at} refers back to itself (a cycle): JSON cannot hold it`;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) {
    return `${at} is a ${(v as object).constructor?.name ?? 'non-plain object'}, not plain JSON: convert it (e.g. a Date to its ISO string)`;
  }
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = walk(v[i], `${at}[${i}]`, seen);
      if (p) return p;
    }
  } else {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      const p = walk(x, `${at}.${k}`, seen);
      if (p) return p;
    }
  }
  seen.delete(v);
  return undefined;
}
