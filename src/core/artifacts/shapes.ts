/**
 * The values of the artifacts the tool catalogue creates, as other tools and the guard
 * read them. Units are in the field names.
 */
import type { PhysicalSettings, Structure, Vec3 } from '../dft/types';
import type { PseudoChoice, PwInputOptions } from '../dft/qe/pwInput';

/** Artifact names the catalogue uses, so producers, rules and the report judge agree. */
export const ARTIFACT = {
  structure: ['bulk_structure', 'slab', 'slab_with_adsorbate', 'molecule', 'relaxed_structure', 'restart_structure', 'magnetic_structure'],
  relaxedStructure: 'relaxed_structure',
  restartStructure: 'restart_structure',
  convergedSlab: 'converged_slab',
  pseudopotentials: 'pseudopotentials',
  pwInput: 'pw_input',
  pwOutput: 'pw_output',
  totalEnergy: 'total_energy',
  convergedSettings: 'converged_settings',
  eosFit: 'eos_fit',
  latticeConstant: 'lattice_constant',
  latticeParameters: 'lattice_parameters',
  adsorptionEnergy: 'adsorption_energy',
  deltaBe: 'delta_be',
  beefStats: 'beef_ensemble_stats',
  bandPath: 'band_path',
  nscfOutput: 'nscf_output',
  bandStructure: 'band_structure',
  bandGap: 'band_gap',
  dos: 'dos',
  pdos: 'pdos',
  relaxation: 'relaxation',
  magnetization: 'magnetization',
  energyDifference: 'energy_difference',
  magneticStructure: 'magnetic_structure',
  structureFile: 'structure_file',
  report: 'report',
  reportClaim: 'report_claim',
} as const;

export type SweptParameter = 'ecutwfc' | 'kspacing';

export interface ConvergenceSelectionValue {
  parameter: SweptParameter;
  /**
   * Every tested value of the swept parameter (Ry for ecutwfc, 1/Å for kspacing), its energy, and its pressure when pw.x
   * printed one; with a bulk modulus, the pressure error against the finest run (kbar; a cutoff sweep's with the Pulay term
   * a constant-cutoff EOS adds, pulayKbar) and the shift of a it implies (%);
   * the mesh and pw.x's time (s) of the run where known.
   */
  tested: {
    value: number;
    energyEvPerAtom: number;
    deltaMevPerAtom: number;
    pressureKbar?: number;
    pulayKbar?: number;
    deltaPressureKbar?: number;
    latticeShiftPercent?: number;
    kMesh?: [number, number, number];
    seconds?: number;
    /** Shape criterion (non-cubic): the largest principal value of the deviatoric stress error against the finest run (kbar), and the shift of c/a it implies (%). */
    deviatoricErrorKbar?: number;
    shapeShiftPercent?: number;
    /** Moment criterion: total and absolute magnetization per atom (μB) and the larger of their changes against the finest run. */
    magnetizationMuBPerAtom?: number;
    absoluteMagnetizationMuBPerAtom?: number;
    deltaMomentMuBPerAtom?: number;
    /** Gap criterion: the gap at the run's own k-mesh and its change against the finest run, eV. */
    gapEv?: number;
    deltaGapEv?: number;
    /** Force criterion: the run's largest force component and the largest difference of one component against the finest run, eV/Å. */
    maxForceEvPerAngstrom?: number;
    deltaForceEvPerAngstrom?: number;
  }[];
  /** The chosen value of the swept parameter, in the same unit. */
  chosenValue: number;
  /** The chosen settings as they go into an input. */
  chosen: { ecutwfcRy?: number; ecutrhoRy?: number; kSpacingPerAngstrom?: number };
  /** The energy tolerance, meV/atom (absent when the sweep was judged by pressure alone). */
  toleranceMevPerAtom?: number;
  /** What the sweep was judged by (absent in selections made before criteria had names: energy). */
  criterion?: {
    kind: 'energy' | 'pressure' | 'both' | 'moment' | 'gap' | 'force';
    toleranceMevPerAtom?: number;
    toleranceLatticePercent?: number;
    bulkModulusGPa?: number;
    /** Non-cubic crystals whose shape is relaxed: the tolerated shift of c/a (%) and the modulus (GPa) that turned stress into shape. */
    toleranceShapePercent?: number;
    shapeModulusGPa?: number;
    /** The tolerated change of the magnetization per atom, μB (moment, or alongside another kind). */
    toleranceMomentMuBPerAtom?: number;
    /** The tolerated change of the gap at the run's k-mesh, eV (gap, or alongside another kind). */
    toleranceGapEv?: number;
    /** The tolerated difference of any force component against the finest run, eV/Å (force, or alongside another kind). */
    toleranceForceEvPerAngstrom?: number;
  };
  /**
   * Where the bulk modulus of the pressure criterion came from: a probe of strained cells (`from`, its energies), or a value
   * given (`given`, with the reference it was taken from when the call named one; absent in selections recorded before it was
   * kept). artifacts/bulkModulusSource.ts reads it.
   */
  bulkModulus?: { valueGPa: number; note: string; from: string[]; given?: { ref?: string }; atCellGPa?: number; pressureGPa?: number };
  /** False when no tested value met the tolerance against the finest one. */
  converged: boolean;
  /** When not converged: the next value to try, its mesh, its predicted pw.x time and whether that is within the budget. */
  extension?: {
    value: number;
    kMesh?: [number, number, number];
    predictedSeconds?: number;
    predictedFrom?: string;
    budgetSeconds?: number;
    withinBudget: boolean;
  };
}

/** The finest value is the most accurate one tested: the highest cutoff, the smallest spacing. */
export function finestTested(sel: Pick<ConvergenceSelectionValue, 'parameter' | 'tested'>): number {
  const values = sel.tested.map((t) => t.value);
  return sel.parameter === 'ecutwfc' ? Math.max(...values) : Math.min(...values);
}

export interface PseudopotentialEntry {
  file: string;
  sha256: string;
  functional?: string;
  /** From the UPF header: NC (norm-conserving), US (ultrasoft), PAW, SL (semilocal) or other; a judge checks the dual against it. */
  type?: string;
  /** From the UPF header (PP_HEADER wfc_cutoff/rho_cutoff, or pslibrary's PP_INFO suggestion). */
  suggestedEcutwfcRy?: number;
  suggestedEcutrhoRy?: number;
}

export interface PseudopotentialTableValue {
  directory: string;
  byElement: Record<string, PseudopotentialEntry>;
}

export interface PwInputValue {
  /** The pw.x input file text. */
  text: string;
  settings: PhysicalSettings;
  structure: Structure;
  calculation: string;
  /** How it was rendered, so a series can vary one setting and keep the rest. */
  options?: PwInputOptions;
  pseudos?: Record<string, PseudoChoice>;
  /** Where the pseudopotential files were read from (their headers validate the input). */
  pseudoDirectory?: string;
}

/** meta of a total_energy artifact. */
export interface EnergyMeta {
  settings: PhysicalSettings;
  natoms: number;
  volumeAngstrom3: number;
  formula: string;
  scfConverged: boolean;
  /** The purpose of the input it came from: convergence-test energies feed selections only. */
  purpose?: 'production' | 'convergence-test';
  /** The pressure pw.x printed (tstress), kbar. */
  pressureKbar?: number;
  /** The stress tensor pw.x printed last (tstress), kbar. */
  stressKbar?: [Vec3, Vec3, Vec3];
  [key: string]: unknown;
}

export interface EosFitValue {
  form: string;
  v0Angstrom3: number;
  e0Ev: number;
  b0GPa: number;
  b0Prime: number;
  natoms: number;
  points: { volumeAngstrom3: number; energyEv: number }[];
  rmsResidualEv: number;
}

/**
 * lattice_parameters: the crystal at the EOS V0, read through the symmetry of the computed cell:
 * the standardised conventional cell's a, b, c (Å), angles (degrees), c/a, its volume and the
 * computed cell's (Å³), how many computed cells make it, the space group, and the relation used.
 */
export interface LatticeParametersValue {
  aAngstrom: number;
  bAngstrom: number;
  cAngstrom: number;
  alphaDegrees: number;
  betaDegrees: number;
  gammaDegrees: number;
  cOverA: number;
  volumePerCellAngstrom3: number;
  conventionalVolumeAngstrom3: number;
  cellsPerConventional: number;
  spaceGroup: { number: number; symbol: string; crystalSystem: string };
  cubic: boolean;
  relation: string;
}

/** beef_ensemble_stats: ΔBE = E_ads(ontop) − E_ads(fcc) over the BEEF-vdW ensemble members, eV. */
export interface BeefStatsValue {
  count: number;
  meanEv: number;
  sigmaEv: number;
  minEv: number;
  maxEv: number;
  fractionPositive: number;
  selfConsistentDeltaBeEv?: number;
  deltaBeEv: number[];
}
