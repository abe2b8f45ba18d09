/**
 * The key=value comment line of extended XYZ (the format ASE, QUIP and OVITO share):
 * values may be bare, "quoted" (with backslash escapes), {braced} or [bracketed];
 * a key without "=" means true. Arrays are whitespace- or comma-separated.
 */

export type ExtxyzValue = string | number | boolean | number[] | boolean[] | string[];

const TRUE_WORDS = new Set(['T', 'True', 'true', 'TRUE']);
const FALSE_WORDS = new Set(['F', 'False', 'false', 'FALSE']);
const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?$|^[+-]?(inf|nan)$/i;

function parseNumber(token: string): number {
  const t = token.toLowerCase();
  if (t === 'nan' || t === '+nan' || t === '-nan') return NaN;
  if (t === 'inf' || t === '+inf') return Infinity;
  if (t === '-inf') return -Infinity;
  return Number(token.replace(/[dD]/, 'e'));
}

/** Interpret a raw value text as booleans, integers, floats or a string, scalar or array. */
export function interpretValue(raw: string, bracketed: boolean): ExtxyzValue {
  const tokens = raw
    .split(bracketed ? /[\s,]+/ : /\s+/)
    .map((t) => t.replace(/^"|"$/g, ''))
    .filter((t) => t.length > 0);
  if (tokens.length === 0) return raw;
  const scalarOrArray = <T>(xs: T[]): T | T[] => (tokens.length === 1 && !bracketed ? xs[0]! : xs);
  if (tokens.every((t) => TRUE_WORDS.has(t) || FALSE_WORDS.has(t))) {
    return scalarOrArray(tokens.map((t) => TRUE_WORDS.has(t))) as ExtxyzValue;
  }
  if (tokens.every((t) => INT_RE.test(t) || FLOAT_RE.test(t))) {
    return scalarOrArray(tokens.map(parseNumber)) as ExtxyzValue;
  }
  if (tokens.length === 1 && !bracketed) return raw;
  return bracketed ? tokens : raw;
}

/**
 * Split a comment line into key -> raw value text (unquoted, unescaped) and whether it
 * was bracketed. Throws with the offending column when a quote or bracket is not closed.
 */
export function splitKeyValues(line: string): { key: string; raw: string; bracketed: boolean }[] {
  const out: { key: string; raw: string; bracketed: boolean }[] = [];
  let i = 0;
  const n = line.length;
  const skipSpace = () => {
    while (i < n && /\s/.test(line[i]!)) i++;
  };
  while (true) {
    skipSpace();
    if (i >= n) break;
    let key = '';
    if (line[i] === '"') {
      const { text, end } = readQuoted(line, i);
      key = text;
      i = end;
    } else {
      while (i < n && !/[\s=]/.test(line[i]!)) key += line[i++];
    }
    skipSpace();
    if (line[i] !== '=') {
      out.push({ key, raw: 'T', bracketed: false });
      continue;
    }
    i++;
    skipSpace();
    const c = line[i];
    if (c === '"') {
      const { text, end } = readQuoted(line, i);
      out.push({ key, raw: text, bracketed: false });
      i = end;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const end = line.indexOf(close, i + 1);
      if (end < 0) throw new Error(`the value of "${key}" opens "${c}" at column ${i + 1} but never closes it`);
      out.push({ key, raw: line.slice(i + 1, end), bracketed: true });
      i = end + 1;
    } else {
      let v = '';
      while (i < n && !/\s/.test(line[i]!)) v += line[i++];
      out.push({ key, raw: v, bracketed: false });
    }
  }
  return out;
}

function readQuoted(line: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start + 1;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      const next = line[i + 1]!;
      text += next === 'n' ? '\n' : next;
      i += 2;
      continue;
    }
    if (c === '"') return { text, end: i + 1 };
    text += c;
    i++;
  }
  throw new Error(`a quote opened at column ${start + 1} is never closed`);
}

/** Format one value for the comment line so that interpretValue reads it back equal. */
export function formatValue(value: ExtxyzValue): string {
  if (Array.isArray(value)) {
    return `"${(value as unknown[]).map((v) => (typeof v === 'boolean' ? (v ? 'T' : 'F') : typeof v === 'number' ? formatNumber(v) : String(v))).join(' ')}"`;
  }
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  if (typeof value === 'number') return formatNumber(value);
  const needsQuotes = value.length === 0 || /[\s"=\\{}[\]]/.test(value) || interpretValue(value, false) !== value;
  return needsQuotes ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"` : value;
}

/** Shortest exact decimal form; integers stay integers so they read back as integers. */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return Object.is(x, -0) ? '-0' : String(x);
}
