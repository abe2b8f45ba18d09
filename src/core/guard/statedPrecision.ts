/**
 * The precision a number states: how many decimals it is written to, and how many a check
 * reads it to (never fewer than three significant figures). Report claims and the unit
 * checks compare a stated number with a record at this precision.
 */

/** Decimal places the number states: 4.04 -> 2, 4 -> 0, 1.2e-3 -> 4. */
export function statedDecimals(x: number): number {
  const s = String(x);
  const [mant, exp] = s.toLowerCase().split('e');
  const dec = mant!.includes('.') ? mant!.split('.')[1]!.length : 0;
  return Math.max(0, dec - Number(exp ?? 0));
}

/**
 * Decimals a number is checked to: those it states, but never fewer than three significant
 * figures, because a JSON number cannot say "4.00" (it arrives as 4) and a claim of 4 Å
 * for 4.049 Å must not pass as "rounded".
 */
export function checkedDecimals(x: number): number {
  if (x === 0) return statedDecimals(x);
  const forThreeFigures = 2 - Math.floor(Math.log10(Math.abs(x)));
  return Math.max(statedDecimals(x), forThreeFigures);
}

/** Half a unit in the last checked decimal of `stated` (a hair more, for binary rounding). */
export const halfLastDigit = (stated: number): number => 0.5 * 10 ** -checkedDecimals(stated) * (1 + 1e-9);
