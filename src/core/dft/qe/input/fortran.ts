/**
 * Fortran namelist literals as pw.x reads them: 'quoted' and "quoted" strings (a doubled
 * quote escapes itself), logicals (.true., .t., T, ...), integers and reals with E, D or
 * Q exponents (1.0d-6), and repeat counts (3*0.0).
 */

export type FortranValue =
  | { type: 'string'; value: string }
  | { type: 'logical'; value: boolean }
  | { type: 'integer'; value: number }
  | { type: 'real'; value: number }
  /** An unquoted word that is neither a number nor a logical (pw.x rejects it). */
  | { type: 'word'; value: string };

const INTEGER = /^[+-]?\d+$/;
const REAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdDqQ][+-]?\d+)?$/;
const DOTTED_LOGICAL = /^\.(true|false|t|f)\.$/i;
const BARE_LOGICAL = /^(t|f)$/i;

/** Reads one literal as written in a namelist (without a repeat count). */
export function parseFortranLiteral(raw: string): FortranValue {
  const s = raw.trim();
  if (s.length >= 2 && (s[0] === "'" || s[0] === '"') && s.endsWith(s[0]!)) {
    const q = s[0]!;
    return {
      type: 'string',
      value: s
        .slice(1, -1)
        .split(q + q)
        .join(q),
    };
  }
  // A literal beyond double range (1e999) is not a number pw.x can read either.
  if (INTEGER.test(s) && Number.isSafeInteger(Number(s))) return { type: 'integer', value: Number(s) };
  if (REAL.test(s) && Number.isFinite(Number(s.replace(/[dDqQ]/, 'e')))) return { type: 'real', value: Number(s.replace(/[dDqQ]/, 'e')) };
  const logical = DOTTED_LOGICAL.exec(s) ?? BARE_LOGICAL.exec(s);
  if (logical) return { type: 'logical', value: logical[1]!.toLowerCase().startsWith('t') };
  return { type: 'word', value: s };
}

/** A number written by QE's convention in Fortran (1.0d-6 and 1e-6 both read the same). */
export function parseFortranNumber(raw: string): number | undefined {
  const s = raw.trim();
  const v = REAL.test(s) ? Number(s.replace(/[dDqQ]/, 'e')) : NaN;
  return Number.isFinite(v) ? v : undefined;
}

export const numberOf = (v: FortranValue | undefined): number | undefined =>
  v && (v.type === 'integer' || v.type === 'real') ? v.value : undefined;
export const stringOf = (v: FortranValue | undefined): string | undefined =>
  v && (v.type === 'string' || v.type === 'word') ? v.value : undefined;
export const logicalOf = (v: FortranValue | undefined): boolean | undefined => (v && v.type === 'logical' ? v.value : undefined);

/** The JavaScript value a literal stands for. */
export function plainValue(v: FortranValue): string | number | boolean {
  return v.value;
}

/** Writes a value as a namelist literal: strings quoted, booleans as .true./.false., numbers in shortest exact form. */
export function formatFortranValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '.true.' : '.false.';
  if (typeof value === 'number') return formatFortranNumber(value);
  return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.split("'").join("''")}'`;
}

/** The shortest text that reads back as exactly this number (JavaScript's round-trip form; Fortran reads e exponents). */
export function formatFortranNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new Error(`cannot write ${value} into a pw.x input: Fortran has no literal for it. Pass a finite number.`);
  }
  return String(value);
}
