/**
 * The geometries of a pw.x relaxation, step by step, from its output: each complete ionic step
 * (positions and cell in Å) with its total energy (eV) and largest atomic force (eV/Å) where pw.x
 * printed them, one frame per printed geometry as ASE reads them (a vc-relax's final SCF, in a
 * fresh basis at the relaxed cell, is a frame of its own). For playing a relaxation back.
 */
import { BOHR_IN_ANGSTROM, RY_IN_EV } from '../../units';
import { parsePwOutput } from '../qe/output/parse';
import type { Cell, Vec3 } from '../types';

export interface TrajectoryFrame {
  positions: Vec3[];
  cell: Cell;
  energyEv?: number;
  maxForceEvPerAngstrom?: number;
}

export interface Trajectory {
  /** Species labels as pw.x printed them (Fe1, O); the structure reader maps them to elements. */
  labels: string[];
  frames: TrajectoryFrame[];
  /** pw.x's calculation ('relax', 'vc-relax', 'scf', ...), when it said. */
  calculation?: string;
  /** Whether the relaxation converged, when the output says. */
  converged?: boolean;
}

const RY_PER_BOHR_IN_EV_PER_ANGSTROM = RY_IN_EV / BOHR_IN_ANGSTROM;

/** The relaxation steps in a pw.x output's text (empty frames when it printed no complete geometry). */
export function readPwxTrajectory(text: string): Trajectory {
  const out = parsePwOutput(text);
  const nat = out.settings.nat;
  const steps = out.ionicSteps.filter((s) => nat === undefined || s.positionsAngstrom.length === nat);
  const frames: TrajectoryFrame[] = [];
  let labels: string[] = [];
  for (const s of steps) {
    const frame: TrajectoryFrame = {
      positions: s.positionsAngstrom.map((p) => [...p] as Vec3),
      cell: s.cellAngstrom.map((v) => [...v]) as Cell,
    };
    if (s.energyRy !== undefined) frame.energyEv = s.energyRy * RY_IN_EV;
    if (s.forcesRyPerBohr?.length) {
      frame.maxForceEvPerAngstrom =
        Math.max(...s.forcesRyPerBohr.map((f) => Math.hypot(f[0], f[1], f[2]))) * RY_PER_BOHR_IN_EV_PER_ANGSTROM;
    }
    frames.push(frame);
    labels = s.symbols;
  }
  const t: Trajectory = { labels, frames };
  if (out.calculation) t.calculation = out.calculation;
  if (out.relaxation) t.converged = out.relaxation.converged;
  return t;
}
