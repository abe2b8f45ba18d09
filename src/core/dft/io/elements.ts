/**
 * Chemical symbols and atomic numbers for the structure formats (XSF and some extxyz files
 * store atomic numbers), read from the project's one element table (src/shared/elements.ts).
 */
import { CHEMICAL_SYMBOLS, elementOf } from '../../../shared/elements';

export { CHEMICAL_SYMBOLS };

export function atomicNumber(symbol: string): number | undefined {
  return symbol === 'X' ? 0 : elementOf(symbol)?.atomicNumber;
}

export function isChemicalSymbol(symbol: string): boolean {
  return elementOf(symbol) !== undefined;
}

/** "pt", "PT" -> "Pt"; returns the input unchanged when it is not an element. */
export function normaliseSymbol(raw: string): string {
  const s = raw.length > 1 ? raw[0]!.toUpperCase() + raw.slice(1).toLowerCase() : raw.toUpperCase();
  return s === 'X' || elementOf(s) ? s : raw;
}
