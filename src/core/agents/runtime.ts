/**
 * What the supervisor and the workers work with during a run: the run's log, canvas and
 * provenance, the tool registry and guard context, the model provider and models, and
 * the run's checkpoints. run/session.ts builds it; tests may build it from the same parts.
 */
import type { CanvasEvent, EventWriter } from '../canvas/types';
import type { ApprovalBook } from '../guard/approvals';
import type { JudgeConfig } from '../guard/judges/askJudge';
import type { ProvenanceWriter } from '../provenance/view';
import type { ApprovalPolicy } from '../guard/types';
import type { RoleModels } from '../llm/models';
import type { LlmProvider, LlmStreamEvent } from '../llm/types';
import type { PlanCanvas } from '../plan/store';
import type { RunProvenance } from '../plan/stepArguments';
import type { ToolRegistry } from './toolRegistry';
import type { WorkflowTemplate } from '../workflows/types';
import type { Objective } from '../workflows/objective';

export interface RunLog extends EventWriter {
  subscribe(listener: (e: CanvasEvent) => void): () => void;
}

/**
 * The run's pause, stop and cancel as the loops obey them; run/checkpoint.ts (RunControl)
 * implements it, and the run room drives it.
 */
export interface LoopControl {
  /** Aborted when the run is cancelled. */
  readonly signal: AbortSignal;
  /** Waits while paused; throws RunStopped (guard/interruption.ts) when stopped, cancelled or over a budget. */
  checkpoint(): Promise<void>;
}

export interface AgentRuntime<Control extends LoopControl = LoopControl> {
  runId: string;
  runDir: string;
  log: RunLog;
  canvas: PlanCanvas & { inspect(prefix?: string): { key: string; summary: string }[] };
  provenance: ProvenanceWriter & RunProvenance;
  approvals: ApprovalBook;
  policy: ApprovalPolicy;
  registry: ToolRegistry;
  provider: LlmProvider;
  models: RoleModels;
  /** Tier 2-3 judges; absent when the provider does not judge or judges were turned off. */
  judge?: JudgeConfig;
  /** What tool bodies get (canvas, jobs, pseudoDir, backends, advisor services). */
  services: Record<string, unknown>;
  /** Run settings argument hints may name ("$run.backend"). */
  settings: Record<string, unknown>;
  objective: Objective;
  workflow?: { template: WorkflowTemplate; inputs: Record<string, unknown> };
  control: Control;
  limits: AgentLimits;
  /** pw.x jobs the budget still allows (Infinity without a job limit). */
  jobAllowance?: () => number;
  /** Live text and retries from model calls, for displays. */
  onModelEvent?: (role: string, e: LlmStreamEvent) => void;
  /** Live progress lines from tool bodies ("job dreams-c-12 created on local"). */
  onToolProgress?: (message: string) => void;
}

export interface AgentLimits {
  /** Model turns a worker may take on one step. */
  maxWorkerTurns: number;
  /** Model turns the supervisor may take in one planning or replanning round. */
  maxSupervisorTurns: number;
  /** Replanning rounds for one step before the run stops. */
  maxReplansPerStep: number;
  /** run_pw calls of one model turn that run at the same time, and ready run_pw plan steps run side by side. */
  maxParallelJobs: number;
  /** Longest tool result a model is shown; longer ones are cut with a pointer to the canvas key. */
  maxToolResultChars: number;
  maxTokensPerTurn: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxWorkerTurns: 24,
  maxSupervisorTurns: 12,
  maxReplansPerStep: 2,
  maxParallelJobs: 4,
  maxToolResultChars: 4000,
  maxTokensPerTurn: 8192,
};
