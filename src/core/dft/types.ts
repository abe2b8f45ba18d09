/**
 * Shared DFT data shapes. Structures are plain data (as in ASE): positions in Å,
 * cell rows are lattice vectors in Å.
 */

export type Vec3 = [number, number, number];
export type Cell = [Vec3, Vec3, Vec3];

export interface Structure {
  /** Chemical symbols, one per atom. */
  symbols: string[];
  /** Cartesian positions, Å. */
  positions: Vec3[];
  /** Lattice vectors as rows, Å. */
  cell: Cell;
  pbc: [boolean, boolean, boolean];
  /** Per-atom integer tags (ASE convention for slabs: 0 adsorbate, 1 top layer, ...). */
  tags?: number[];
  /** true = atom is fixed (all three coordinates) in relaxations. */
  fixed?: boolean[];
  /** Free-form info carried to extxyz comment line (e.g. bravais lattice, site info). */
  info?: Record<string, string | number | boolean>;
  /**
   * Per-atom species labels where the file tells atoms of one element apart (pw.x's Fe1/Fe2);
   * `symbols` stay chemical symbols.
   */
  labels?: string[];
  /**
   * Per-direction constraints where some atom is fixed along only some directions (pw.x if_pos
   * 0 0 1, POSCAR selective dynamics F F T): true = fixed. `frame` says what the three
   * directions are: Cartesian x y z (pw.x, extxyz) or the lattice vectors (POSCAR).
   */
  fixedComponents?: { frame: 'cartesian' | 'lattice'; mask: [boolean, boolean, boolean][] };
  /** The file the structure was read from (absent for structures built in code). */
  source?: StructureSource;
  /**
   * The symmetry tolerance, Å, the user chose for this crystal (a noisy experimental or relaxed
   * cell); every symmetry analysis of it and of structures derived from it uses this one, so a
   * plan and the guard that checks it find the same space group. Absent: the default (1e-3 Å).
   */
  symprecAngstrom?: number;
}

export type StructureFormat = 'cif' | 'poscar' | 'pwx-in' | 'pwx-out' | 'extxyz' | 'xsf';

export interface StructureSource {
  /** The path as given. */
  file: string;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  format: StructureFormat;
  /** CIF data block name. */
  block?: string;
}

/** Lattices and prototypes by name; two species: rocksalt (B1), zincblende (B3), cesiumchloride (B2), named as ASE names them. */
export type BravaisKind = 'fcc' | 'bcc' | 'diamond' | 'hcp' | 'sc' | 'rocksalt' | 'zincblende' | 'cesiumchloride' | 'other';

/**
 * The physical settings that make two total energies comparable. Two energies may
 * be subtracted only when these match (SCF-control parameters such as mixing_beta,
 * conv_thr within reason, or electron_maxstep may differ; these may not).
 */
export interface PhysicalSettings {
  /**
   * 'emt': effective-medium theory, a screening model with no basis, pseudopotentials or
   * k-points (cutoffs 0, none listed); its energies never compare with pw.x energies. 'ipi': the
   * user's own calculator over the i-PI socket (its name and command's sha256 in extra), likewise.
   */
  code: 'pw.x' | 'emt' | 'ipi';
  codeVersion?: string;
  /** input_dft or the functional read from the pseudopotentials. */
  functional: string;
  ecutwfcRy: number;
  ecutrhoRy: number;
  /** Element -> pseudopotential file name and its sha256. */
  pseudopotentials: Record<string, { file: string; sha256?: string }>;
  /** k-point spacing in 1/Å where the mesh came from one; mesh otherwise. */
  kSpacingPerAngstrom?: number;
  kMesh?: [number, number, number];
  kShift?: [number, number, number];
  occupations: string;
  smearing?: string;
  degaussRy?: number;
  nspin: 1 | 2 | 4;
  /** Other physics-affecting switches (vdw_corr, lspinorb, tot_charge, ...). */
  extra?: Record<string, string | number | boolean>;
}

/** What the pw.x output parser extracts (subset other modules rely on). */
export interface PwOutputSummary {
  codeVersion?: string;
  calculation?: string;
  /** Final total energy, Ry (the "!" line). */
  totalEnergyRy?: number;
  scfConverged: boolean;
  scfIterations?: number;
  fermiEnergyEv?: number;
  /** Forces on atoms, Ry/bohr. */
  forcesRyPerBohr?: Vec3[];
  totalForceRyPerBohr?: number;
  /** Stress tensor, kbar. */
  stressKbar?: [Vec3, Vec3, Vec3];
  pressureKbar?: number;
  totalMagnetization?: number;
  absoluteMagnetization?: number;
  wallTimeSeconds?: number;
  cpuTimeSeconds?: number;
  warnings: string[];
  /** The %%%% error block's routine and message. */
  error?: { routine: string; code?: number; message: string };
  jobDone: boolean;
  /** BEEF ensemble energies, eV, when calculation='ensemble'. */
  beefEnsembleEv?: number[];
  /** Pseudopotential files named in the output, by element. */
  pseudopotentials?: Record<string, string>;
}
