/**
 * The data a band-structure or DOS plot draws, as the report's SVG and the notebook renderer
 * (d3) both read it: the band_structure, dos and pdos artifacts carry these shapes as they are.
 * Energies in eV (absolute, as pw.x prints them: subtract `reference.energyEv` to draw E − E_ref),
 * path coordinates in 1/Å, densities of states in states/eV per cell.
 */

export type AngularMomentumLabel = 's' | 'p' | 'd' | 'f';

/**
 * The zero of a plot's energy axis: the valence-band maximum of an insulator (fixed occupations),
 * the Fermi energy otherwise. `source` says which printed number it is ("highest occupied level of
 * the SCF (pw.x)"); artifacts written before it existed lack it.
 */
export interface EnergyZero {
  energyEv: number;
  kind: 'vbm' | 'fermi';
  source?: string;
  /** What a reader should know about this zero: another run placing it elsewhere, or which of two E_F was taken. */
  note?: string;
}

export interface BandStructurePlotData {
  /** Distance along the path of each k-point, 1/Å; equal on both sides of a break. */
  x: number[];
  /** bandsEv[band][k], eV; of a spin-polarised run (nspin 2) the majority channel, spin up (bands.x spin_component 1). */
  bandsEv: number[][];
  /** Spin-polarised runs: the minority channel, spin down (bands.x spin_component 2), bandsDownEv[band][k], eV. */
  bandsDownEv?: number[][];
  /** Labelled points: "Γ", "X", or "K|U" where the path jumps. */
  ticks: { x: number; label: string }[];
  /** The zero of the energy axis: the valence-band maximum of an insulator, the Fermi energy otherwise. */
  reference: EnergyZero;
  /** Set once a gap was computed (band_gap): its edges, to mark on the plot. */
  gap?: { gapEv: number; direct: boolean; vbm: { x: number; energyEv: number }; cbm: { x: number; energyEv: number } };
  title?: string;
}

export interface DosProjection {
  /** "Al s", "Fe d". */
  label: string;
  species: string;
  l: AngularMomentumLabel;
  dos: number[];
  /** Spin-polarised runs: up and down apart (dos is their sum). */
  spin?: { up: number[]; down: number[] };
}

export interface DosPlotData {
  energiesEv: number[];
  /** Total DOS, states/eV per cell (both spins). */
  total: number[];
  spin?: { up: number[]; down: number[] };
  fermiEnergyEv?: number;
  /**
   * The zero of the energy axis, as the band structure of the same material has it: an insulator's
   * valence-band maximum, else the Fermi energy. Absent (older artifacts): E − E_F.
   */
  reference?: EnergyZero;
  /** PDOS per species and angular momentum. */
  projections?: DosProjection[];
  title?: string;
}

/**
 * The energy window the band-structure and DOS plots draw, eV around their zero (E − E_ref): the
 * few eV around E_F or the gap a practitioner reads, the same for both plots so that a material's
 * bands and DOS line up. Drawing only: the artifacts keep every energy the runs wrote.
 */
export const ENERGY_WINDOW_EV: readonly [number, number] = [-12, 8];

/** The energy axis of a DOS plot: the range it draws, and whether that leaves out energies the data has. */
export interface DosEnergyAxis {
  /** E − E_ref drawn, eV. */
  domain: [number, number];
  /** Whether a part of the data lies outside `domain` (then the plot says so, `note`). */
  clips: boolean;
  /** "drawn −12 to 8 eV of −9.5 to 24.6 eV (the artifact keeps all)", when it clips. */
  note?: string;
  /** Whether E − E_ref = `e` is drawn. */
  inside: (e: number) => boolean;
}

const eV = (e: number): string => `${Number(e.toFixed(1))}`.replace('-', '−');

/**
 * The energies a DOS is drawn over, from its energies relative to the zero (`relative`, eV): the
 * window around the zero when there is one (`hasZero`), else the whole range (absolute energies have
 * no "around").
 */
export function dosEnergyAxis(
  relative: readonly number[],
  hasZero: boolean,
  window: readonly [number, number] = ENERGY_WINDOW_EV,
): DosEnergyAxis {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const e of relative) {
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  if (!hasZero || !(hi > lo)) return { domain: [lo, hi], clips: false, inside: () => true };
  const [w0, w1] = window;
  const clips = lo < w0 || hi > w1;
  return {
    domain: [w0, w1],
    clips,
    ...(clips ? { note: `drawn ${eV(w0)} to ${eV(w1)} eV of ${eV(lo)} to ${eV(hi)} eV (the artifact keeps all)` } : {}),
    inside: (e) => e >= w0 && e <= w1,
  };
}
