/**
 * What the pw.x output parser extracts. Values keep QE's units where QE prints them
 * (Ry, Ry/bohr, kbar; the unit is in every name); geometry is converted to Cartesian Å.
 */
import type { Cell, PwOutputSummary, Vec3 } from '../../types';

export interface ScfIteration {
  iteration: number;
  ecutRy?: number;
  mixingBeta?: number;
  totalEnergyRy?: number;
  estimatedAccuracyRy?: number;
  /** Bohr magneton per cell; a vector for noncollinear runs. */
  totalMagnetization?: number | Vec3;
  absoluteMagnetization?: number;
  cpuTimeSeconds?: number;
}

export interface ScfCycle {
  iterations: ScfIteration[];
  converged: boolean;
  /** From "convergence has been achieved in N iterations" or "NOT achieved after N". */
  iterationCount?: number;
  /** The "!" line. */
  totalEnergyRy?: number;
  estimatedAccuracyRy?: number;
  internalEnergyRy?: number;
  smearingContributionRy?: number;
  fermiEnergyEv?: number;
  /** Spin-up and spin-down Fermi energies when the magnetization is fixed. */
  fermiEnergiesUpDownEv?: [number, number];
  highestOccupiedEv?: number;
  lowestUnoccupiedEv?: number;
  totalMagnetization?: number | Vec3;
  absoluteMagnetization?: number;
}

/** One geometry of a relaxation or MD run with what pw.x computed for it. */
export interface IonicStep {
  symbols: string[];
  positionsAngstrom: Vec3[];
  cellAngstrom: Cell;
  /** Index into PwOutput.scfCycles of the SCF run at this geometry. */
  scfCycle?: number;
  energyRy?: number;
  /** vc-relax: the enthalpy BFGS minimises. */
  enthalpyRy?: number;
  forcesRyPerBohr?: Vec3[];
  totalForceRyPerBohr?: number;
  stressKbar?: [Vec3, Vec3, Vec3];
  pressureKbar?: number;
}

export interface PseudopotentialUsed {
  element: string;
  /** Path as pw.x printed it. */
  path: string;
  md5?: string;
  /** "Norm-conserving", "Ultrasoft", "Projector augmented-wave" (pw.x's words). */
  kind?: string;
  zValence?: number;
}

export interface RunSettingsPrinted {
  bravaisLatticeIndex?: number;
  alatBohr?: number;
  cellVolumeBohr3?: number;
  nat?: number;
  ntyp?: number;
  electrons?: number;
  kohnShamStates?: number;
  ecutwfcRy?: number;
  ecutrhoRy?: number;
  convThrRy?: number;
  mixingBeta?: number;
  /** "SLA PZ NOGX NOGC", "BEEF-VDW", ... */
  exchangeCorrelation?: string;
  kPoints?: number;
  /** e.g. "Marzari-Vanderbilt smearing, width (Ry)=  0.0200". */
  smearing?: string;
  mpiProcesses?: number;
  inputFile?: string;
}

export interface Relaxation {
  /** "bfgs converged" (or the MD/damped run ended normally). */
  converged: boolean;
  bfgsSteps?: number;
  scfCycles?: number;
  finalEnergyRy?: number;
  finalEnthalpyRy?: number;
}

export interface PwOutput extends PwOutputSummary {
  settings: RunSettingsPrinted;
  scfCycles: ScfCycle[];
  ionicSteps: IonicStep[];
  relaxation?: Relaxation;
  pseudopotentialsUsed: PseudopotentialUsed[];
  /** How often each warning appeared (same keys as `warnings`). */
  warningCounts: Record<string, number>;
  /** Highest occupied level, eV (insulators with fixed occupations). */
  highestOccupiedEv?: number;
  /** Internal energy E = F + TS of the last SCF (smearing), Ry. */
  internalEnergyRy?: number;
  totalEnergyEv?: number;
  /** Lines of the output read, for error messages and benchmarks. */
  lineCount: number;
}
