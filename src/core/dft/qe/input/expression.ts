/**
 * The algebraic expressions pw.x accepts for atomic coordinates ("1/3",
 * "1/2*3^(-1/2)"): + - * / ^ and parentheses over double-precision constants, no blanks,
 * no leading "+". Returns undefined for anything else.
 */
export function evaluateCoordinate(text: string): number | undefined {
  const plain = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?$/.test(text);
  if (plain) return Number(text.replace(/[dD]/, 'e'));
  let i = 0;
  const peek = () => text[i];
  const number = (): number | undefined => {
    const m = /^(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?/.exec(text.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0].replace(/[dD]/, 'e'));
  };
  const primary = (): number | undefined => {
    if (peek() === '(') {
      i++;
      const v = sum();
      if (peek() !== ')') return undefined;
      i++;
      return v;
    }
    if (peek() === '-') {
      i++;
      const v = power();
      return v === undefined ? undefined : -v;
    }
    return number();
  };
  const power = (): number | undefined => {
    const base = primary();
    if (base === undefined) return undefined;
    if (peek() === '^') {
      i++;
      const exp = power();
      return exp === undefined ? undefined : base ** exp;
    }
    return base;
  };
  const product = (): number | undefined => {
    let v = power();
    while (v !== undefined && (peek() === '*' || peek() === '/')) {
      const op = text[i++];
      const r = power();
      if (r === undefined) return undefined;
      v = op === '*' ? v * r : v / r;
    }
    return v;
  };
  function sum(): number | undefined {
    let v = product();
    while (v !== undefined && (peek() === '+' || peek() === '-')) {
      const op = text[i++];
      const r = product();
      if (r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  }
  if (text.startsWith('+')) return undefined;
  const v = sum();
  return v !== undefined && i === text.length && Number.isFinite(v) ? v : undefined;
}
