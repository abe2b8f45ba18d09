/**
 * Units. The core works in eV and Å; Ry and bohr appear only where QE requires them
 * and are converted at that boundary. A number that crosses a module boundary carries
 * its unit in its name (energyEv) or as a Quantity.
 *
 * Conversion factors: CODATA 2018. (Releases of QE have used CODATA 2006 or 2018; the
 * two differ in the 8th significant digit, far below any reported precision.)
 */

export const RY_IN_EV = 13.605693122994;
export const HARTREE_IN_EV = 2 * RY_IN_EV;
export const BOHR_IN_ANGSTROM = 0.529177210903;
export const ANGSTROM_IN_BOHR = 1 / BOHR_IN_ANGSTROM;
/** 1 eV/Å^3 in GPa (elementary charge 1.602176634e-19 C, exact since 2019). */
export const EV_PER_ANGSTROM3_IN_GPA = 160.2176634;
/** 1 Ry/bohr^3 in GPa. */
export const RY_PER_BOHR3_IN_GPA = (RY_IN_EV / BOHR_IN_ANGSTROM ** 3) * EV_PER_ANGSTROM3_IN_GPA;
export const KBAR_IN_GPA = 0.1;

export type Unit =
  | 'eV'
  | 'Ry'
  | 'Ha'
  | 'meV'
  | 'eV/atom'
  | 'meV/atom'
  | 'Å'
  | 'bohr'
  | 'Å^3'
  | 'bohr^3'
  | 'Å^3/atom'
  | '1/Å'
  | 'GPa'
  | 'kbar'
  | 'eV/Å'
  | 'Ry/bohr'
  | 'μB'
  | 'μB/atom'
  | 'eV/Å^2'
  | 'meV/Å^2'
  | 'J/m^2'
  | 's'
  | 'Ry (cutoff)'
  | '1' // dimensionless (counts, fractions, scale factors)
  | 'count';

export interface Quantity {
  value: number;
  unit: Unit;
}

export const q = (value: number, unit: Unit): Quantity => ({ value, unit });

export const ryToEv = (ry: number): number => ry * RY_IN_EV;
export const evToRy = (ev: number): number => ev / RY_IN_EV;
export const bohrToAngstrom = (bohr: number): number => bohr * BOHR_IN_ANGSTROM;
export const angstromToBohr = (a: number): number => a / BOHR_IN_ANGSTROM;

const TO_BASE: Partial<Record<Unit, { base: Unit; factor: number }>> = {
  eV: { base: 'eV', factor: 1 },
  meV: { base: 'eV', factor: 1e-3 },
  Ry: { base: 'eV', factor: RY_IN_EV },
  Ha: { base: 'eV', factor: HARTREE_IN_EV },
  'eV/atom': { base: 'eV/atom', factor: 1 },
  'meV/atom': { base: 'eV/atom', factor: 1e-3 },
  Å: { base: 'Å', factor: 1 },
  bohr: { base: 'Å', factor: BOHR_IN_ANGSTROM },
  'Å^3': { base: 'Å^3', factor: 1 },
  'bohr^3': { base: 'Å^3', factor: BOHR_IN_ANGSTROM ** 3 },
  GPa: { base: 'GPa', factor: 1 },
  kbar: { base: 'GPa', factor: KBAR_IN_GPA },
  'eV/Å': { base: 'eV/Å', factor: 1 },
  μB: { base: 'μB', factor: 1 },
  'μB/atom': { base: 'μB/atom', factor: 1 },
  // surface energies: 1 eV/Å² = 16.02176634 J/m² (exact since 2019)
  'eV/Å^2': { base: 'eV/Å^2', factor: 1 },
  'meV/Å^2': { base: 'eV/Å^2', factor: 1e-3 },
  'J/m^2': { base: 'eV/Å^2', factor: 1 / 16.02176634 },
  'Ry/bohr': { base: 'eV/Å', factor: RY_IN_EV / BOHR_IN_ANGSTROM },
};

/** Convert between compatible units; throws a clear error for incompatible ones. */
export function convert(value: number, from: Unit, to: Unit): number {
  if (from === to) return value;
  const a = TO_BASE[from];
  const b = TO_BASE[to];
  if (!a || !b || a.base !== b.base) {
    throw new Error(`cannot convert ${from} to ${to}: the units measure different things.`);
  }
  return (value * a.factor) / b.factor;
}

/** True when two units measure the same kind of thing (so a comparison makes sense). */
export function sameDimension(a: Unit, b: Unit): boolean {
  if (a === b) return true;
  const x = TO_BASE[a];
  const y = TO_BASE[b];
  return !!x && !!y && x.base === y.base;
}

/** Every unit that measures the same kind of thing as `u` (itself included), e.g. eV → eV, meV, Ry, Ha. */
export function unitsLike(u: Unit): Unit[] {
  const base = TO_BASE[u]?.base;
  if (!base) return [u];
  return (Object.keys(TO_BASE) as Unit[]).filter((x) => TO_BASE[x]!.base === base);
}
