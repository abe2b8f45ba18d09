/** Small DOM helpers for the renderer: elements with text content only (never innerHTML from data). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined && c !== false) e.append(c);
  return e;
}

/** A number as a person reads it: up to 6 significant digits, no trailing zeros. */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) return x.toExponential(4);
  return String(Number(x.toPrecision(6)));
}

export function formatValue(v: unknown): string {
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? '.true.' : '.false.';
  if (v === undefined || v === null) return '—';
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return `[${v.map((x) => formatNumber(x as number)).join(', ')}]`;
  return JSON.stringify(v);
}
