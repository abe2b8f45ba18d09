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
