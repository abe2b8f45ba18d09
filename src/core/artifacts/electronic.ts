/**
 * The values of the band-structure and DOS artifacts (names in shapes.ts ARTIFACT): the band
 * path, the NSCF run's output, bands along the path, the band gap, the DOS and the PDOS. The
 * plotted ones carry the shapes of src/shared/electronicStructure.ts so renderers draw them
 * as they are. Energies in eV, k in 1/Å or fractional reciprocal coordinates as named.
 */
import type { PhysicalSettings, Vec3 } from '../dft/types';
import type { BandStructurePlotData, DosPlotData } from '../../shared/electronicStructure';

/** band_path: a standard path on one cell and the crystal_b nodes pw.x is given. */
export interface BandPathValue {
  convention: string;
  /** "FCC", "BCT2", ... */
  lattice: string;
  spaceGroup: { number: number; symbol: string };
  /** Fractional coordinates in the reciprocal lattice of `cellAngstrom`. */
  points: Record<string, Vec3>;
  segments: string[][];
  nodes: { label: string; k: Vec3; count: number }[];
  /** The k-points pw.x generates from the nodes. */
  kpointCount: number;
  pointsPerInverseAngstrom: number;
  cellAngstrom: [Vec3, Vec3, Vec3];
}

/** meta of an nscf_output (the pw.x output of a bands or nscf run). */
export interface NscfMeta {
  job: string;
  backend: string;
  calculation: 'bands' | 'nscf';
  /** The SCF's total_energy artifact whose charge density the run used. */
  scf: string;
  settings: PhysicalSettings;
  /** The SCF's occupations and Fermi energy (eV) where it printed one; for an insulator its highest occupied level. */
  scfOccupations: string;
  scfFermiEnergyEv?: number;
  scfHighestOccupiedEv?: number;
  /** A smeared SCF with a fixed total magnetization printed one Fermi energy per spin channel (up, down), eV. */
  scfFermiEnergiesUpDownEv?: [number, number];
  /** The SCF's total magnetization, μB/cell (nspin 2). */
  scfMagnetization?: number;
  /** The top of the occupied eigenvalues this run printed, where they show a gap (energyZero valenceEdges), eV. */
  nscfHighestOccupiedEv?: number;
  /** This run's printed eigenvalues show a gap in every spin channel. */
  nscfGapped?: boolean;
  /** This run's Fermi energy (a tetrahedra or smeared nscf prints one), eV. */
  fermiEnergyEv?: number;
  electrons: number;
  nspin: number;
  nbnd: number;
  alatBohr: number;
  kpointCount: number;
  /** The band path it followed (bands runs). */
  path?: string;
  [key: string]: unknown;
}

/** band_structure: bands.x's energies along the path, as a plot draws them, and what a gap needs. */
export interface BandStructureValue extends BandStructurePlotData {
  /** Fractional reciprocal coordinates of each k-point. */
  kpoints: Vec3[];
  electrons: number;
  nspin: number;
  /** Of the SCF that made the charge density. */
  occupations: string;
  fermiEnergyEv?: number;
  /** A smeared SCF with a fixed total magnetization: each spin channel's Fermi energy (up, down), eV. */
  fermiEnergiesUpDownEv?: [number, number];
  /** The SCF's total magnetization, μB/cell (nspin 2). */
  magnetizationMuBPerCell?: number;
  lattice: string;
  convention: string;
}

export interface BandEdgeValue {
  energyEv: number;
  k: Vec3;
  /** Path coordinate, 1/Å. */
  x: number;
  /** "Γ", "0.85 of Γ–X (near X)". */
  location: string;
  nearest: string;
}

/** band_gap: the gap of an insulator from its band structure. */
export interface BandGapValue {
  gapEv: number;
  direct: boolean;
  vbm: BandEdgeValue;
  cbm: BandEdgeValue;
  /** The smallest gap at one k-point, and where. */
  directGapEv: number;
  directGapLocation: string;
  occupiedBands: number;
  /**
   * Spin-polarised runs: each channel's own gap against the Fermi level (majority up, minority down); the
   * gap of the crystal above runs from the higher of their valence maxima to the lower of their conduction minima.
   */
  channels?: { spin: 'up' | 'down'; gapEv: number; direct: boolean; vbm: BandEdgeValue; cbm: BandEdgeValue; occupiedBands: number }[];
}

/** dos: dos.x's total DOS. */
export interface DosValue extends DosPlotData {
  /** Integrated DOS, electrons per cell. */
  integrated: number[];
  occupations: string;
  kMesh?: [number, number, number];
}

/** pdos: projwfc.x's projections per species and angular momentum, with the Löwdin charges. */
export interface PdosValue extends DosPlotData {
  lowdin: { atom: number; total: number; byL: Partial<Record<'s' | 'p' | 'd' | 'f', number>>; polarization?: number }[];
  spilling?: number;
}
