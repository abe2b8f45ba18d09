/**
 * A pw.x input and the physical settings its energies will carry, from a structure and
 * the chosen options. make_pw_input and generate_series both render through here, so a
 * series differs from its template in the varied setting only.
 */
import { meshFromSpacing } from '../kpoints';
import { pwInputFromStructure, type NamelistValue } from './input/build';
import type { PhysicalSettings, Structure } from '../types';
import { convert } from '../../units';
import { atomicMassAmu } from '../structure/atomicMasses';

export interface PwInputOptions {
  /** A convergence-test input varies settings on purpose; only production inputs may feed results. */
  purpose: 'production' | 'convergence-test';
  /** 'ensemble' (pw.x 6.7): an SCF with input_dft = 'BEEF-vdW' followed by the 2,000-member BEEF ensemble. */
  calculation: 'scf' | 'relax' | 'vc-relax' | 'ensemble';
  /** Overrides the pseudopotentials' functional (input_dft), e.g. 'BEEF-vdW'; the energies then carry it as their functional. */
  inputDft?: string;
  ecutwfcRy: number;
  ecutrhoRy: number;
  kSpacingPerAngstrom?: number;
  kMesh?: [number, number, number];
  occupations: 'fixed' | 'smearing';
  smearing?: string;
  degaussRy?: number;
  nspin: 1 | 2;
  startingMagnetization?: Record<string, number>;
  convThrRy?: number;
  /** SCF control (&ELECTRONS): how the SCF gets to the answer, never the answer itself. */
  mixingBeta?: number;
  mixingMode?: 'plain' | 'TF' | 'local-TF';
  electronMaxstep?: number;
  diagonalization?: 'david' | 'cg' | 'ppcg' | 'paro';
  /**
   * Relaxations stop when every force component is below this, eV/Å (QE's forc_conv_thr; its default
   * is 0.0257 eV/Å); etot_conv_thr follows it in pw.x's ratio of the two defaults.
   */
  forceThresholdEvPerAngstrom?: number;
  /** vc-relax: the cell has converged when the stress is within this of the target pressure, kbar (press_conv_thr; QE default 0.5). */
  pressureThresholdKbar?: number;
  /** vc-relax: the target pressure, kbar (press; QE default 0). */
  targetPressureKbar?: number;
  /** vc-relax: which cell components may change (cell_dofree; QE default 'all'). */
  cellDofree?: string;
  /** Relaxations: most ionic steps (nstep; QE default 50). */
  maxIonicSteps?: number;
}

/** pw.x's own ratio of its default energy and force thresholds: 1e-4 Ry to 1e-3 Ry/bohr. */
export const ETOT_PER_FORCE_BOHR = 0.1;

export interface PseudoChoice {
  file: string;
  sha256: string;
  functional?: string;
}

export function renderPwInput(
  structure: Structure,
  o: PwInputOptions,
  pseudos: Record<string, PseudoChoice>,
): { text: string; settings: PhysicalSettings } {
  const elements = [...new Set(structure.symbols)];
  // pw.x species: the structure's labels where it has them (Fe1 up, Fe2 down), else its elements
  const labelled = structure.labels && structure.labels.length === structure.symbols.length ? structure.labels : undefined;
  const species = [...new Set(labelled ?? structure.symbols)];
  const elementOf = (label: string): string => structure.symbols[(labelled ?? structure.symbols).indexOf(label)]!;
  const missing = elements.filter((el) => !pseudos[el]);
  if (missing.length) {
    throw new Error(
      `no pseudopotential chosen for ${missing.join(', ')}; select_pseudopotentials for every element of the structure (${elements.join(', ')}).`,
    );
  }
  if (!o.kMesh && o.kSpacingPerAngstrom === undefined) throw new Error('give kSpacingPerAngstrom (preferred) or an explicit kMesh.');
  const mesh = o.kMesh ?? meshFromSpacing(structure.cell, o.kSpacingPerAngstrom!, structure.pbc);
  const system: Record<string, NamelistValue> = { ecutwfc: o.ecutwfcRy, ecutrho: o.ecutrhoRy, occupations: o.occupations, nspin: o.nspin };
  if (o.inputDft) system.input_dft = o.inputDft;
  if (o.occupations === 'smearing') {
    if (o.smearing) system.smearing = o.smearing;
    if (o.degaussRy !== undefined) system.degauss = o.degaussRy;
  }
  // by species label first (Fe1, Fe2), else by element
  species.forEach((label, i) => {
    const m = o.startingMagnetization?.[label] ?? o.startingMagnetization?.[elementOf(label)];
    if (o.nspin === 2 && m !== undefined) system[`starting_magnetization(${i + 1})`] = m;
  });
  const electrons: Record<string, NamelistValue> = { conv_thr: o.convThrRy ?? 1e-8 * structure.symbols.length };
  if (o.mixingBeta !== undefined) electrons.mixing_beta = o.mixingBeta;
  if (o.mixingMode !== undefined) electrons.mixing_mode = o.mixingMode;
  if (o.electronMaxstep !== undefined) electrons.electron_maxstep = o.electronMaxstep;
  if (o.diagonalization !== undefined) electrons.diagonalization = o.diagonalization;
  const namelists: Record<string, Record<string, NamelistValue>> = {
    // The stress of a fixed-cell relaxation or an ensemble run is not used; it costs a tenth of each step.
    CONTROL: {
      calculation: o.calculation,
      prefix: 'dreams',
      outdir: './tmp',
      tprnfor: true,
      tstress: o.calculation === 'scf' || o.calculation === 'vc-relax',
    },
    SYSTEM: system,
    ELECTRONS: electrons,
  };
  // pw.x 6.7 reads &IONS for relaxations and for calculation='ensemble' ("bad line in namelist &ions" without it)
  if (o.calculation === 'relax' || o.calculation === 'vc-relax' || o.calculation === 'ensemble') namelists.IONS = {};
  if (o.forceThresholdEvPerAngstrom !== undefined) {
    const forc = Number(convert(o.forceThresholdEvPerAngstrom, 'eV/Å', 'Ry/bohr').toPrecision(6));
    namelists.CONTROL!.forc_conv_thr = forc;
    // pw.x stops a relaxation only when the energy change is also below etot_conv_thr (default
    // 1e-4 Ry, a tenth of the default forc_conv_thr in Ry/bohr). Keeping that ratio makes the energy
    // criterion follow the force threshold: at 0.25 eV/Å the default alone ran 12 BFGS steps past
    // the forces' convergence.
    if (o.calculation === 'relax' || o.calculation === 'vc-relax')
      namelists.CONTROL!.etot_conv_thr = Number((forc * ETOT_PER_FORCE_BOHR).toPrecision(6));
  }
  if ((o.calculation === 'relax' || o.calculation === 'vc-relax') && o.maxIonicSteps !== undefined)
    namelists.CONTROL!.nstep = o.maxIonicSteps;
  if (o.calculation === 'vc-relax') {
    namelists.CELL = {
      ...(o.cellDofree !== undefined ? { cell_dofree: o.cellDofree } : {}),
      ...(o.targetPressureKbar !== undefined ? { press: o.targetPressureKbar } : {}),
      ...(o.pressureThresholdKbar !== undefined ? { press_conv_thr: o.pressureThresholdKbar } : {}),
    };
  }
  const text = pwInputFromStructure(structure, {
    namelists,
    species: Object.fromEntries(
      species.map((label) => [label, { massAmu: atomicMassAmu(elementOf(label)), pseudopotential: pseudos[elementOf(label)]!.file }]),
    ),
    kPoints: { kind: 'automatic', mesh, shift: [0, 0, 0] },
  });
  const functionals = [...new Set(elements.map((el) => pseudos[el]!.functional).filter((f): f is string => !!f))];
  const settings: PhysicalSettings = {
    code: 'pw.x',
    functional: o.inputDft ?? (functionals.join('+') || 'from pseudopotentials'),
    ecutwfcRy: o.ecutwfcRy,
    ecutrhoRy: o.ecutrhoRy,
    pseudopotentials: Object.fromEntries(elements.map((el) => [el, { file: pseudos[el]!.file, sha256: pseudos[el]!.sha256 }])),
    ...(o.kSpacingPerAngstrom !== undefined ? { kSpacingPerAngstrom: o.kSpacingPerAngstrom } : {}),
    kMesh: mesh,
    kShift: [0, 0, 0],
    occupations: o.occupations,
    ...(o.occupations === 'smearing' && o.smearing ? { smearing: o.smearing } : {}),
    ...(o.occupations === 'smearing' && o.degaussRy !== undefined ? { degaussRy: o.degaussRy } : {}),
    nspin: o.nspin,
  };
  return { text, settings };
}
