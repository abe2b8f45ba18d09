/**
 * The calculator contract: anything that gives a total energy and forces for a
 * structure (EMT in TypeScript, pw.x, an external engine over the i-PI socket).
 * Energies in eV, forces in eV/Å, stress in eV/Å^3; units are in the names.
 */
import { DreamsError } from '../errors';
import type { Structure, Vec3 } from '../dft/types';

export interface CalculatorResult {
  energyEv: number;
  /** One vector per atom, eV/Å (minus the gradient of energyEv). */
  forcesEvPerAngstrom: Vec3[];
  /** Stress tensor, eV/Å^3 (positive = tensile, ASE sign convention), when asked for and available. */
  stressEvPerAngstrom3?: [Vec3, Vec3, Vec3];
}

export interface CalculateOptions {
  stress?: boolean;
  signal?: AbortSignal;
}

/**
 * What an energy from this calculator depends on, recorded with every energy so two
 * energies are subtracted only when they were computed the same way.
 */
export interface CalculatorSettings {
  /** 'emt', 'pw.x', 'ipi:<engine>' ... */
  method: string;
  /** True when energies are good for final numbers (DFT), false for screening models such as EMT. */
  production: boolean;
  details: Record<string, string | number | boolean>;
}

export interface Calculator {
  readonly name: string;
  readonly settings: CalculatorSettings;
  calculate(structure: Structure, opts?: CalculateOptions): Promise<CalculatorResult>;
  /**
   * A relaxation the engine runs itself (pw.x's BFGS) instead of one calculate() per step.
   * Forces in the result are eV/Å; fixed atoms do not move.
   */
  relax?(structure: Structure, opts: { fmaxEvPerAngstrom: number; maxSteps: number; signal?: AbortSignal }): Promise<RelaxResult>;
  /** Release sockets or processes; a no-op for in-process calculators. */
  close?(): Promise<void>;
}

/** A calculator refused or failed a structure: what, for which input, and what to do. */
/** A relaxed structure and how it got there (FIRE here, or pw.x's own BFGS). */
export interface RelaxResult {
  structure: Structure;
  energyEv: number;
  forcesEvPerAngstrom: Vec3[];
  fmaxEvPerAngstrom: number;
  /** Force evaluations after the first (0 when the start was already converged). */
  steps: number;
  converged: boolean;
  /** Energy after each evaluation, eV. */
  energyTraceEv: number[];
  optimizer: 'FIRE' | 'pw.x BFGS';
}

export class CalculatorError extends DreamsError<'science'> {
  constructor(
    readonly calculator: string,
    message: string,
  ) {
    super('science', `${calculator}: ${message}`);
    this.name = 'CalculatorError';
  }
}
