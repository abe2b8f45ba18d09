/**
 * Units read from names: a field or argument named "ecutwfcRy", "energyEv" or
 * "v0Angstrom3" is in Ry, eV or Å^3. The unit checks and the claim checks read a
 * referenced value's unit this way, falling back to the artifact's own unit.
 */
import type { Unit } from '../../units';

/** Unit suffixes of field and argument names, longest first. */
const NAME_SUFFIXES: [RegExp, Unit][] = [
  [/MevPerAtom$/, 'meV/atom'],
  [/EvPerAtom$/, 'eV/atom'],
  [/MevPerAngstrom2$/, 'meV/Å^2'],
  [/EvPerAngstrom2$/, 'eV/Å^2'],
  [/EvPerAngstrom$/, 'eV/Å'],
  [/JPerM2$/, 'J/m^2'],
  [/BohrMagnetonPerAtom$/, 'μB/atom'],
  [/BohrMagnetonPerCell$/, 'μB'],
  [/BohrMagneton$/, 'μB'],
  [/PerAngstrom$/, '1/Å'],
  [/Angstrom3$/, 'Å^3'],
  [/Angstrom$/, 'Å'],
  [/Bohr3$/, 'bohr^3'],
  [/Bohr$/, 'bohr'],
  [/Mev$/, 'meV'],
  [/Ev$/, 'eV'],
  [/Ry$/, 'Ry'],
  [/GPa$/, 'GPa'],
  [/Count$/, 'count'],
  [/Kbar$/, 'kbar'],
];

export function unitFromName(name: string): Unit | undefined {
  return NAME_SUFFIXES.find(([re]) => re.test(name))?.[1];
}

/** "Ry (cutoff)" is a Ry for comparisons. */
export const normaliseUnit = (u: string): string => (u === 'Ry (cutoff)' ? 'Ry' : u);
