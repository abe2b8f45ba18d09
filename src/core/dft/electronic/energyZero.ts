/**
 * The zero of the energy axis of a band-structure, DOS or PDOS plot, from numbers the runs printed,
 * so that the plots of one material share it: for an insulator (its SCF used fixed occupations)
 * the valence-band maximum, for a metal or a smeared run the Fermi energy. The bands take the top
 * of the highest occupied band along their path; a DOS takes the highest occupied level pw.x
 * printed for the SCF ("highest occupied level (ev)", the top of the occupied bands on the SCF's
 * k mesh; a tetrahedra or smeared NSCF prints only a Fermi energy, which for an insulator lies
 * somewhere in the gap). Energies in eV.
 */
import type { EnergyZero } from '../../../shared/electronicStructure';

/** What the NSCF run's record says about the SCF whose charge density it read (NscfMeta). */
export interface ScfLevels {
  scfOccupations: string;
  scfHighestOccupiedEv?: number;
  scfFermiEnergyEv?: number;
}

/** What printed each zero, as a plot's legend names it after the number ("E_F = 6.738 eV (dos.x)"). */
export const ZERO_SOURCE = {
  pathTop: 'top of the occupied bands along the path, bands.x',
  scfHighestOccupied: 'highest occupied level of the SCF, pw.x',
  scfFermi: 'SCF, pw.x',
  nscfFermi: 'NSCF run, pw.x',
  dosxFermi: 'dos.x',
} as const;

/** An insulator as the gap and the plots treat one: its SCF used fixed occupations. */
export const isInsulatorRun = (scf: ScfLevels): boolean => scf.scfOccupations === 'fixed';

/**
 * The zero of a band structure: `pathVbmEv` (the highest occupied band's top along the path) for an
 * insulator where it is known, else the SCF's Fermi energy or highest occupied level.
 */
export function bandStructureZero(scf: ScfLevels, pathVbmEv: number | undefined): EnergyZero {
  if (isInsulatorRun(scf) && pathVbmEv !== undefined) return { energyEv: pathVbmEv, kind: 'vbm', source: ZERO_SOURCE.pathTop };
  if (scf.scfFermiEnergyEv !== undefined) return { energyEv: scf.scfFermiEnergyEv, kind: 'fermi', source: ZERO_SOURCE.scfFermi };
  if (scf.scfHighestOccupiedEv !== undefined)
    return { energyEv: scf.scfHighestOccupiedEv, kind: 'fermi', source: ZERO_SOURCE.scfHighestOccupied };
  return { energyEv: 0, kind: 'fermi', source: 'none printed: absolute energies' };
}

/**
 * The zero of a DOS or PDOS: an insulator's valence-band maximum (the SCF's highest occupied level),
 * else the Fermi energy the DOS run printed (`fermi`, with what printed it); undefined when there
 * is neither (the plot then draws absolute energies).
 */
export function dosZero(scf: ScfLevels, fermi?: { energyEv: number; source: string }): EnergyZero | undefined {
  if (isInsulatorRun(scf) && scf.scfHighestOccupiedEv !== undefined)
    return { energyEv: scf.scfHighestOccupiedEv, kind: 'vbm', source: ZERO_SOURCE.scfHighestOccupied };
  if (fermi) return { energyEv: fermi.energyEv, kind: 'fermi', source: fermi.source };
  return undefined;
}
