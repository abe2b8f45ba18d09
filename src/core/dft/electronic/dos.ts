/**
 * Densities of states as curves: the projected DOS summed per species and angular momentum
 * (over the atoms of a species and the wavefunctions of one l), the value at an energy by
 * linear interpolation, integrals, and the occupied bandwidth. Energies in eV, DOS in
 * states/eV per cell.
 */
import { DftScienceError } from '../scienceError';
import type { AngularMomentum, PdosChannel } from '../qe/postprocessing/projwfcx';

export interface SpeciesChannelDos {
  species: string;
  l: AngularMomentum;
  /** Atoms summed (1-based, projwfc.x's numbering). */
  atoms: number[];
  dos: number[];
  spin?: { up: number[]; down: number[] };
}

const L_ORDER: AngularMomentum[] = ['s', 'p', 'd', 'f'];

/** The PDOS of each (species, l): the atoms of a species and its wavefunctions of one l added up. */
export function pdosBySpeciesAndL(channels: PdosChannel[]): SpeciesChannelDos[] {
  const out = new Map<string, SpeciesChannelDos>();
  for (const c of channels) {
    const key = `${c.species}\0${c.l}`;
    let e = out.get(key);
    if (!e) {
      e = {
        species: c.species,
        l: c.l,
        atoms: [],
        dos: c.ldos.map(() => 0),
        ...(c.spin ? { spin: { up: c.ldos.map(() => 0), down: c.ldos.map(() => 0) } } : {}),
      };
      out.set(key, e);
    }
    if (!e.atoms.includes(c.atom)) e.atoms.push(c.atom);
    c.ldos.forEach((v, i) => (e!.dos[i]! += v));
    if (c.spin && e.spin) {
      c.spin.up.forEach((v, i) => (e!.spin!.up[i]! += v));
      c.spin.down.forEach((v, i) => (e!.spin!.down[i]! += v));
    }
  }
  return [...out.values()].sort((a, b) => a.species.localeCompare(b.species) || L_ORDER.indexOf(a.l) - L_ORDER.indexOf(b.l));
}

/** The curve's value at `energyEv` (linear between grid points); refused outside the grid. */
export function valueAt(energiesEv: number[], values: number[], energyEv: number): number {
  const n = energiesEv.length;
  if (n < 2 || energyEv < energiesEv[0]! || energyEv > energiesEv[n - 1]!) {
    throw new DftScienceError(`${energyEv} eV is outside the DOS grid (${energiesEv[0]} to ${energiesEv[n - 1]} eV); widen Emin/Emax.`, {
      energyEv,
    });
  }
  let i = 0;
  while (i < n - 2 && energiesEv[i + 1]! < energyEv) i++;
  const t = (energyEv - energiesEv[i]!) / (energiesEv[i + 1]! - energiesEv[i]!);
  return values[i]! + t * (values[i + 1]! - values[i]!);
}

/** ∫ values dE from the bottom of the grid to `upToEv` (trapezoids), states per cell. */
export function integrateUpTo(energiesEv: number[], values: number[], upToEv: number): number {
  let sum = 0;
  for (let i = 1; i < energiesEv.length; i++) {
    const e0 = energiesEv[i - 1]!;
    if (e0 >= upToEv) break;
    const e1 = Math.min(energiesEv[i]!, upToEv);
    const v1 = e1 === energiesEv[i] ? values[i]! : valueAt(energiesEv, values, e1);
    sum += ((values[i - 1]! + v1) / 2) * (e1 - e0);
  }
  return sum;
}

/**
 * The bottom of the occupied band: the lowest energy where the integrated DOS reaches
 * `fraction` of an electron per cell (a small fraction skips the broadening tail).
 */
export function bandBottomEv(energiesEv: number[], integrated: number[], fraction = 0.01): number {
  const i = integrated.findIndex((v) => v >= fraction);
  if (i < 0)
    throw new DftScienceError('the integrated DOS never reaches one hundredth of an electron: the DOS grid holds no occupied band.', {});
  if (i === 0) return energiesEv[0]!;
  const t = (fraction - integrated[i - 1]!) / (integrated[i]! - integrated[i - 1]!);
  return energiesEv[i - 1]! + t * (energiesEv[i]! - energiesEv[i - 1]!);
}
