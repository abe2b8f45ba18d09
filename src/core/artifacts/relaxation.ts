/**
 * The values of the relaxation, magnetization and energy-difference artifacts (names in
 * shapes.ts ARTIFACT), and the facts run_pw records about a relaxation and a spin-polarised
 * run in its total_energy's meta, so the guard can check them without reading files. Units in
 * the field names: eV, eV/Å, kbar, Å, Å³, μB.
 */
import type { Cell, PhysicalSettings, Vec3 } from '../dft/types';
import type { EnergyDifferenceCardData, MagnetizationTableData, RelaxationTrajectoryPlotData } from '../../shared/relaxationAndMagnetism';

/** meta.relaxation of a relax or vc-relax total_energy: what the output shows of its convergence. */
export interface RelaxationFacts {
  calculation: 'relax' | 'vc-relax';
  converged: boolean;
  /** Why not, in sentences. */
  problems: string[];
  /** The parser's failure kind (steps-exhausted, bfgs-failed, final-scf-above-thresholds, relax-scf-not-converged, ...). */
  failureKind?: string;
  maxForceEvPerAngstrom?: number;
  forceThresholdEvPerAngstrom?: number;
  /** vc-relax: the largest free stress deviation from the target pressure, kbar. */
  stressDeviationKbar?: number;
  pressureThresholdKbar?: number;
  targetPressureKbar?: number;
  cellDofree?: string;
  bfgsSteps?: number;
}

/** meta.magnetization of an nspin = 2 total_energy. */
export interface MagnetizationFacts {
  totalBohrMagnetonPerCell: number;
  absoluteBohrMagnetonPerCell: number;
  /** pw.x's site moments in atom order, when printed. */
  siteMomentsBohrMagneton?: number[];
  order: MagnetizationTableData['order'];
}

/** relaxation: final energy, forces, stress, volume and the trajectory of a relax or vc-relax. */
export interface RelaxationValue extends RelaxationTrajectoryPlotData {
  converged: boolean;
  problems: string[];
  failureKind?: string;
  /** The checks that decide convergence, each a sentence with its numbers. */
  checks: { quantity: 'force' | 'stress'; value: number; threshold: number; unit: string; within: boolean; statement: string }[];
  finalEnergyEv: number;
  /** The energy of the first geometry (the structure as given), eV. */
  initialEnergyEv?: number;
  /**
   * finalEnergyEv − initialEnergyEv, eV: what the relaxation lowered (negative). For a vc-relax the
   * final energy is the final SCF's, in the basis of the relaxed cell.
   */
  relaxationEnergyEv?: number;
  maxForceEvPerAngstrom?: number;
  totalForceEvPerAngstrom?: number;
  forcesEvPerAngstrom?: Vec3[];
  stressKbar?: [Vec3, Vec3, Vec3];
  pressureKbar?: number;
  targetPressureKbar?: number;
  cellDofree?: string;
  volumeAngstrom3: number;
  /** Volume per atom, Å³. */
  volumePerAtomAngstrom3: number;
  /** The volume before the first step, Å³ (a vc-relax changes it). */
  startVolumeAngstrom3: number;
  cellAngstrom: Cell;
  /** Lengths of the three cell vectors, Å. */
  cellLengthsAngstrom: Vec3;
  natoms: number;
  formula: string;
  /** The irreducible k-points pw.x used ("number of k points"). */
  kpointCount?: number;
  bfgsSteps?: number;
  /** The largest displacement of an atom from its start, Å (Cartesian, no wrapping). */
  maxDisplacementAngstrom?: number;
  settings: PhysicalSettings;
}

/** magnetization: total, absolute and per-site moments of an nspin = 2 run. */
export interface MagnetizationValue extends MagnetizationTableData {
  /** The irreducible k-points pw.x used ("number of k points"). */
  kpointCount?: number;
  natoms: number;
  formula: string;
  nspin: 2;
  settings: PhysicalSettings;
}

/** energy_difference: Σ c_i E_i / N with the formula written out. */
export interface EnergyDifferenceValue extends EnergyDifferenceCardData {
  /** Σ c_i E_i, eV. */
  sumEv: number;
  /** What the value is per ("formula unit", "atom", "Å² of surface", "cell"). */
  per: string;
  divisor: number;
  /** Per area: the area of one surface, Å², and the number of surfaces. */
  areaAngstrom2?: number;
  surfaces?: number;
}
