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

/** The terms pw.x lists under "The total energy is the sum of the following terms", Ry. */
export interface EnergyTermsRy {
  oneElectron?: number;
  hartree?: number;
  xc?: number;
  ewald?: number;
  /** DFT+U ("Hubbard energy"). */
  hubbard?: number;
  /** PAW one-centre terms ("one-center paw contrib."). */
  oneCenterPaw?: number;
  /** Grimme-D2 or Tkatchenko-Scheffler ("Dispersion Correction"), XDM, DFT-D3. */
  dispersion?: number;
  dispersionXdm?: number;
  dispersionD3?: number;
  electricField?: number;
  gateField?: number;
  scfCorrection?: number;
  /** vdW-DF / rVV10 non-local correlation ("Non-local corr. energy"), printed apart from the list. */
  nonLocalCorrelation?: number;
}

/** One atom's DFT+U occupation trace as pw.x prints it (Tr[ns]); up and down in spin-polarised runs. */
export interface HubbardOccupation {
  atom: number;
  up?: number;
  down?: number;
  total: number;
}

/** Charge and moment integrated in a sphere around one atom ("Magnetic moment per site"), collinear runs. */
export interface SiteMoment {
  atom: number;
  charge: number;
  /** Bohr magneton. */
  magnetization: number;
  constraint?: number;
}

export interface ScfCycle {
  iterations: ScfIteration[];
  converged: boolean;
  /** From "convergence has been achieved in N iterations", "NOT achieved after N", or "Calculation stopped in scf loop at iteration #N". */
  iterationCount?: number;
  /** The wall-time limit (max_seconds) stopped this SCF ("Calculation stopped in scf loop"). */
  stoppedByTimeLimit?: boolean;
  /** The SCF a relaxation runs at the relaxed structure after BFGS ends ("Final scf calculation at the relaxed structure"). */
  final?: boolean;
  /** The "!" line. */
  totalEnergyRy?: number;
  /** "!    Total+Makov-Payne energy" (assume_isolated='makov-payne'): the total energy with the correction for a charged or polar cell. */
  makovPayneEnergyRy?: number;
  energyTermsRy?: EnergyTermsRy;
  /** The last DFT+U occupations printed in this SCF. */
  hubbardOccupations?: HubbardOccupation[];
  /** The last per-site moments printed in this SCF. */
  siteMoments?: SiteMoment[];
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
  /** BFGS's convergence measures at this geometry ("Energy error", "Gradient error", "Cell gradient error"). */
  energyErrorRy?: number;
  gradientErrorRyPerBohr?: number;
  cellGradientErrorKbar?: number;
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
  /** Relaxations and MD: "nstep", "energy convergence thresh.", "force convergence thresh.", "press convergence thresh.". */
  nstep?: number;
  energyConvThrRy?: number;
  forceConvThrRyPerBohr?: number;
  pressConvThrKbar?: number;
}

export interface Relaxation {
  /** BFGS reached its thresholds ("bfgs converged", and not after a failed history reset). */
  converged: boolean;
  bfgsSteps?: number;
  scfCycles?: number;
  finalEnergyRy?: number;
  finalEnthalpyRy?: number;
  /** BFGS gave up: "bfgs failed after" (7.x), or "history already reset at previous step" (6.x prints "bfgs converged" after it). */
  failed?: boolean;
  /** "The maximum number of steps has been reached." (nstep). */
  stepsExhausted?: boolean;
  /** Times BFGS reset its history ("resetting bfgs history"). */
  historyResets?: number;
  /** "(criteria: energy < …, force < …, cell < …)" printed when BFGS ends. */
  criteria?: { energyRy: number; forceRyPerBohr: number; cellKbar?: number };
  /** Index into PwOutput.scfCycles of the final SCF at the relaxed structure. */
  finalScfCycle?: number;
}

/**
 * Why a run gave no usable result, from a closed set:
 * - pw-error: pw.x stopped with its error (the %%%% block, the CRASH file, or a failure line
 *   it prints outside them, such as "[Q, R] = qr(X, 0) failed");
 * - time-limit: max_seconds reached ("Maximum CPU time exceeded"), not a failed SCF;
 * - scf-not-converged: the SCF of a single-point run;
 * - relax-scf-not-converged: an SCF inside a relaxation or MD, or its final SCF;
 * - steps-exhausted: nstep reached before the relaxation converged;
 * - bfgs-failed: BFGS reset its history twice and gave up;
 * - final-scf-above-thresholds: a converged relaxation whose final SCF at the relaxed
 *   structure (new plane waves) has forces or pressure above the relaxation's thresholds;
 * - interrupted: the output stops mid-run with no error and no JOB DONE (killed, out of
 *   scheduler time, or still running).
 */
export const PW_FAILURE_KINDS = [
  'pw-error',
  'time-limit',
  'scf-not-converged',
  'relax-scf-not-converged',
  'steps-exhausted',
  'bfgs-failed',
  'final-scf-above-thresholds',
  'interrupted',
] as const;
export type PwFailureKind = (typeof PW_FAILURE_KINDS)[number];

export interface PwFailure {
  kind: PwFailureKind;
  /** The line that shows it, as pw.x printed it (trimmed). */
  evidence: string;
  /** 1-based line of the evidence in the output; absent when it was read from the CRASH file. */
  line?: number;
  source: 'output' | 'crash';
  /** One sentence with the numbers that show it. */
  detail: string;
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
  /** A smeared run with a fixed total magnetization: each spin channel's own Fermi energy (up, down), eV. */
  fermiEnergiesUpDownEv?: [number, number];
  /** Lowest unoccupied level of the same SCF, eV (printed beside the highest occupied one when there are empty bands). */
  lowestUnoccupiedEv?: number;
  /** Internal energy E = F + TS of the last SCF (smearing), Ry. */
  internalEnergyRy?: number;
  totalEnergyEv?: number;
  /** The last SCF's Makov-Payne corrected total energy, Ry; `totalEnergyRy` stays the uncorrected "!" energy. */
  totalEnergyMakovPayneRy?: number;
  /** The last SCF's energy terms, Ry. */
  energyTermsRy?: EnergyTermsRy;
  /** The last DFT+U occupations printed. */
  hubbardOccupations?: HubbardOccupation[];
  /** The last per-site charges and moments printed (collinear runs). */
  siteMoments?: SiteMoment[];
  /** Why the run gave no usable result; absent when it ended as asked. */
  failure?: PwFailure;
  /** Lines of the output read, for error messages and benchmarks. */
  lineCount: number;
}
