/**
 * The settings of a run: what it was started with (run.start's settings) and what a resume may
 * change (run.settings events laid over them; session.ts settingsOf).
 */
import type { ApprovalPolicy } from '../guard/types';
import type { AgentLimits } from '../agents/runtime';
import type { Objective } from '../workflows/objective';

/** What a run was started with (run.start settings), and what a resume may change. */
export interface RunSettings {
  objective: Objective;
  offline: boolean;
  backend: string;
  approval: ApprovalPolicy;
  pseudoDir: string;
  pwCommand: string;
  /** pw.x runs at a time on this machine. */
  localConcurrency: number;
  /** Model per role (overrides of the defaults). */
  models: Partial<Record<string, string>>;
  /** Tier 2-3 judges with a model (false: tier 1 only, judges recorded as not judged). */
  judges: boolean;
  budget: { maxTokens?: number; maxCostUsd?: number; maxJobs?: number; maxWallMinutes?: number };
  limits?: Partial<AgentLimits>;
  /** The QE version inputs are validated for (the local pw.x's). */
  qeVersion?: string;
  /**
   * false: run pw.x again for an input this run has already run with the same
   * pseudopotential files. Default (absent or true): reuse that result, linked in the provenance.
   */
  reuseIdenticalRuns?: boolean;
  /**
   * Earlier runs (their directories) whose pw.x results this run may take for a byte-identical
   * input with the same pseudopotential files, instead of running pw.x again: a study that
   * repeats another's relaxations (the BEEF-vdW ensemble after the PBE site preference), or a
   * rerun with one setting changed. Only with reuseIdenticalRuns.
   */
  reuseFrom?: string[];
}
