/**
 * What a pw.x relax or vc-relax ended at, and whether the output shows it converged: the
 * final energy (eV), forces (eV/Å), stress and pressure (kbar), volume (Å³), cell and
 * positions (Å), and the trajectory (energy and largest force component per geometry). A
 * relaxation counts as converged only when pw.x's BFGS said so, no failure kind applies, and
 * the last forces (and, for a vc-relax, the free stress components) printed are within the
 * thresholds the output states. Thresholds are read from the output, never assumed.
 */
import { cellVolume } from './structure/cell';
import type { PwFailureKind, PwOutput } from './qe/output/types';
import type { Cell, Vec3 } from './types';
import { convert, ryToEv } from '../units';

/** pw.x's cell_dofree values (&CELL): which components of the cell may change. */
export const CELL_DOFREE = [
  'all',
  'ibrav',
  'a',
  'b',
  'c',
  'fixa',
  'fixb',
  'fixc',
  'x',
  'y',
  'z',
  'xy',
  'xz',
  'yz',
  'xyz',
  'shape',
  'volume',
  '2Dxy',
  '2Dshape',
  'epitaxial_ab',
  'epitaxial_ac',
  'epitaxial_bc',
] as const;
export type CellDofree = (typeof CELL_DOFREE)[number];

export interface RelaxationStep {
  /** 1-based geometry number; the final SCF of a vc-relax is the last, flagged `finalScf`. */
  step: number;
  energyEv?: number;
  /** vc-relax: the enthalpy BFGS minimises, eV. */
  enthalpyEv?: number;
  /** Largest Cartesian force component on a free atom, eV/Å. */
  maxForceEvPerAngstrom?: number;
  pressureKbar?: number;
  volumeAngstrom3: number;
  finalScf?: boolean;
}

export interface ThresholdCheck {
  quantity: 'force' | 'stress';
  /** What was measured: the largest force component (eV/Å) or the largest free stress deviation from the target (kbar). */
  value: number;
  threshold: number;
  unit: 'eV/Å' | 'kbar';
  within: boolean;
  /** The sentence a person reads. */
  statement: string;
}

export interface RelaxationSummary {
  calculation: 'relax' | 'vc-relax';
  /** BFGS converged, no failure kind, and every check within its threshold. */
  converged: boolean;
  /** Why not, in sentences (empty when converged). */
  problems: string[];
  failure?: { kind: PwFailureKind; detail: string; evidence: string };
  /** As the output states them (forc_conv_thr, etot_conv_thr, press_conv_thr), converted to eV and Å. */
  thresholds: { forceEvPerAngstrom?: number; energyEv?: number; pressureKbar?: number };
  targetPressureKbar?: number;
  cellDofree?: CellDofree;
  checks: ThresholdCheck[];
  finalEnergyEv?: number;
  forcesEvPerAngstrom?: Vec3[];
  maxForceEvPerAngstrom?: number;
  /** pw.x's "Total force" (the norm over all atoms), eV/Å. */
  totalForceEvPerAngstrom?: number;
  stressKbar?: [Vec3, Vec3, Vec3];
  pressureKbar?: number;
  volumeAngstrom3: number;
  cellAngstrom: Cell;
  positionsAngstrom?: Vec3[];
  symbols?: string[];
  bfgsSteps?: number;
  steps: RelaxationStep[];
}

const RY_PER_BOHR_IN_EV_PER_ANGSTROM = convert(1, 'Ry/bohr', 'eV/Å');

/** Largest force component over the atoms that may move (all when `fixed` is absent). */
export function maxForceComponent(forces: Vec3[] | undefined, fixed?: readonly boolean[]): number | undefined {
  if (!forces?.length) return undefined;
  const free = forces.filter((_, i) => !fixed?.[i]);
  return free.length ? Math.max(...free.flatMap((f) => f.map(Math.abs))) : 0;
}

/**
 * The stress components a vc-relax with this cell_dofree may move, as [i, j] pairs, or
 * 'pressure' (volume only) or 'deviatoric' (shape at fixed volume). Components pw.x keeps
 * fixed are not judged: their stress stays whatever the constraint leaves.
 */
export function freeStressComponents(dofree: CellDofree | undefined): [number, number][] | 'pressure' | 'deviatoric' {
  const all: [number, number][] = [
    [0, 0],
    [1, 1],
    [2, 2],
    [0, 1],
    [0, 2],
    [1, 2],
  ];
  switch (dofree ?? 'all') {
    case 'x':
      return [[0, 0]];
    case 'y':
      return [[1, 1]];
    case 'z':
      return [[2, 2]];
    case 'xy':
      return [
        [0, 0],
        [1, 1],
      ];
    case 'xz':
      return [
        [0, 0],
        [2, 2],
      ];
    case 'yz':
      return [
        [1, 1],
        [2, 2],
      ];
    case 'xyz':
      return [
        [0, 0],
        [1, 1],
        [2, 2],
      ];
    case '2Dxy':
      return [
        [0, 0],
        [1, 1],
        [0, 1],
      ];
    case '2Dshape':
      return [
        [0, 0],
        [1, 1],
        [0, 1],
      ];
    case 'epitaxial_ab':
      return [[2, 2]];
    case 'epitaxial_ac':
      return [[1, 1]];
    case 'epitaxial_bc':
      return [[0, 0]];
    case 'volume':
      return 'pressure';
    case 'shape':
      return 'deviatoric';
    // all, ibrav and the lattice-vector constraints (a, b, c, fixa, ...): every component is judged
    // (a constrained one is held by symmetry in the crystals these are meant for)
    default:
      return all;
  }
}

/** The largest deviation of a free stress component from the target (kbar), and which. */
export function stressDeviationKbar(
  stress: [Vec3, Vec3, Vec3],
  targetKbar: number,
  dofree: CellDofree | undefined,
): { value: number; component: string } {
  const free = freeStressComponents(dofree);
  const p = (stress[0][0] + stress[1][1] + stress[2][2]) / 3;
  if (free === 'pressure') return { value: Math.abs(p - targetKbar), component: 'pressure' };
  const names = ['x', 'y', 'z'];
  const comps: [number, number][] =
    free === 'deviatoric'
      ? [
          [0, 0],
          [1, 1],
          [2, 2],
          [0, 1],
          [0, 2],
          [1, 2],
        ]
      : free;
  let best = { value: 0, component: 'none' };
  for (const [i, j] of comps) {
    const target = i === j ? (free === 'deviatoric' ? p : targetKbar) : 0;
    const d = Math.abs(stress[i]![j]! - target);
    if (d > best.value) best = { value: d, component: `σ_${names[i]}${names[j]}` };
  }
  return best;
}

export interface RelaxationOptions {
  /** The input's cell_dofree (vc-relax); default 'all'. */
  cellDofree?: CellDofree;
  /** The input's target pressure (press), kbar; default 0. */
  targetPressureKbar?: number;
  /** Atoms held fixed (if_pos 0 0 0): their forces are not judged. */
  fixed?: readonly boolean[];
  /** The cell before the first step, when the output lists no geometry. */
  startCellAngstrom?: Cell;
}

const fmt = (x: number, digits = 4): string => String(Number(x.toPrecision(digits)));

/** Summarise a relax or vc-relax output and decide, from what it prints, whether it converged. */
export function summariseRelaxation(out: PwOutput, opts: RelaxationOptions = {}): RelaxationSummary {
  const calculation = out.calculation === 'vc-relax' ? 'vc-relax' : 'relax';
  const finalScfCycle = out.relaxation?.finalScfCycle;
  const steps: RelaxationStep[] = out.ionicSteps.map((s, i) => ({
    step: i + 1,
    ...(s.energyRy !== undefined ? { energyEv: ryToEv(s.energyRy) } : {}),
    ...(s.enthalpyRy !== undefined ? { enthalpyEv: ryToEv(s.enthalpyRy) } : {}),
    ...(s.forcesRyPerBohr
      ? { maxForceEvPerAngstrom: maxForceComponent(s.forcesRyPerBohr, opts.fixed)! * RY_PER_BOHR_IN_EV_PER_ANGSTROM }
      : {}),
    ...(s.pressureKbar !== undefined ? { pressureKbar: s.pressureKbar } : {}),
    volumeAngstrom3: cellVolume(s.cellAngstrom),
    ...(finalScfCycle !== undefined && s.scfCycle === finalScfCycle ? { finalScf: true } : {}),
  }));
  const last = out.ionicSteps.at(-1);
  const cell = last?.cellAngstrom ?? opts.startCellAngstrom;
  if (!cell) throw new Error('summariseRelaxation: the output lists no geometry and no starting cell was given.');
  const forceThrRy = out.relaxation?.criteria?.forceRyPerBohr ?? out.settings.forceConvThrRyPerBohr;
  const energyThrRy = out.relaxation?.criteria?.energyRy ?? out.settings.energyConvThrRy;
  const pressThr = calculation === 'vc-relax' ? (out.relaxation?.criteria?.cellKbar ?? out.settings.pressConvThrKbar) : undefined;
  const thresholds = {
    ...(forceThrRy !== undefined ? { forceEvPerAngstrom: forceThrRy * RY_PER_BOHR_IN_EV_PER_ANGSTROM } : {}),
    ...(energyThrRy !== undefined ? { energyEv: ryToEv(energyThrRy) } : {}),
    ...(pressThr !== undefined ? { pressureKbar: pressThr } : {}),
  };
  const forcesRy = last?.forcesRyPerBohr ?? out.forcesRyPerBohr;
  const forces = forcesRy?.map((f) => f.map((x) => x * RY_PER_BOHR_IN_EV_PER_ANGSTROM) as Vec3);
  const maxForce = maxForceComponent(forces, opts.fixed);
  const stress = last?.stressKbar ?? out.stressKbar;
  const pressure = last?.pressureKbar ?? out.pressureKbar;
  const target = opts.targetPressureKbar ?? 0;
  const problems: string[] = [];
  const checks: ThresholdCheck[] = [];
  if (maxForce === undefined) {
    problems.push('the output prints no forces for the last geometry (tprnfor), so the force threshold cannot be checked');
  } else if (thresholds.forceEvPerAngstrom === undefined) {
    problems.push('the output states no force threshold (forc_conv_thr)');
  } else {
    const within = maxForce <= thresholds.forceEvPerAngstrom;
    checks.push({
      quantity: 'force',
      value: maxForce,
      threshold: thresholds.forceEvPerAngstrom,
      unit: 'eV/Å',
      within,
      statement: `largest force component ${fmt(maxForce)} eV/Å ${within ? '≤' : '>'} forc_conv_thr ${fmt(thresholds.forceEvPerAngstrom)} eV/Å`,
    });
    if (!within) problems.push(`the last forces are above the threshold: ${checks.at(-1)!.statement}`);
  }
  if (calculation === 'vc-relax') {
    if (!stress) {
      problems.push('the output prints no stress for the last geometry, so the pressure threshold cannot be checked');
    } else if (pressThr === undefined) {
      problems.push('the output states no pressure threshold (press_conv_thr)');
    } else {
      const dev = stressDeviationKbar(stress, target, opts.cellDofree);
      const within = dev.value <= pressThr;
      checks.push({
        quantity: 'stress',
        value: dev.value,
        threshold: pressThr,
        unit: 'kbar',
        within,
        statement: `largest free stress deviation from the target ${fmt(target)} kbar (${dev.component}) ${fmt(dev.value)} kbar ${within ? '≤' : '>'} press_conv_thr ${fmt(pressThr)} kbar`,
      });
      if (!within) problems.push(`the last stress is above the threshold: ${checks.at(-1)!.statement}`);
    }
  }
  if (out.failure) problems.unshift(`${out.failure.kind}: ${out.failure.detail}`);
  else if (!out.relaxation?.converged) problems.unshift('pw.x did not report a converged relaxation ("bfgs converged" missing)');
  const energyRy = out.totalEnergyRy;
  const totalForceRy = last?.totalForceRyPerBohr ?? out.totalForceRyPerBohr;
  return {
    calculation,
    converged: problems.length === 0,
    problems,
    ...(out.failure ? { failure: { kind: out.failure.kind, detail: out.failure.detail, evidence: out.failure.evidence } } : {}),
    thresholds,
    ...(calculation === 'vc-relax' ? { targetPressureKbar: target, cellDofree: opts.cellDofree ?? 'all' } : {}),
    checks,
    ...(energyRy !== undefined ? { finalEnergyEv: ryToEv(energyRy) } : {}),
    ...(forces ? { forcesEvPerAngstrom: forces } : {}),
    ...(maxForce !== undefined ? { maxForceEvPerAngstrom: maxForce } : {}),
    ...(totalForceRy !== undefined ? { totalForceEvPerAngstrom: totalForceRy * RY_PER_BOHR_IN_EV_PER_ANGSTROM } : {}),
    ...(stress ? { stressKbar: stress } : {}),
    ...(pressure !== undefined ? { pressureKbar: pressure } : {}),
    volumeAngstrom3: cellVolume(cell),
    cellAngstrom: cell,
    ...(last ? { positionsAngstrom: last.positionsAngstrom, symbols: last.symbols } : {}),
    ...(out.relaxation?.bfgsSteps !== undefined ? { bfgsSteps: out.relaxation.bfgsSteps } : {}),
    steps,
  };
}
