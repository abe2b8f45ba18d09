/**
 * One line a model or a person can scan, for a canvas value: what it is and its size,
 * never the whole of it.
 */

const MAX = 100;

export function oneLine(text: string, max = MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/** A short description of a JSON value. */
export function summarizeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') {
    const lines = value.split('\n');
    return oneLine(lines[0]!, 80) + (lines.length > 1 ? ` (+${lines.length - 1} lines)` : '');
  }
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  const obj = value as Record<string, unknown>;
  for (const field of ['summary', 'title', 'state', 'status']) {
    if (typeof obj[field] === 'string')
      return `${field === 'summary' || field === 'title' ? '' : `${field}: `}${oneLine(obj[field] as string, 80)}`;
  }
  const keys = Object.keys(obj);
  const shown = keys.slice(0, 6).join(', ');
  return `{${shown}${keys.length > 6 ? `, … ${keys.length - 6} more` : ''}}`;
}
