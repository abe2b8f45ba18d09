/**
 * The agent contract: tools (the only way an agent acts), and the plan the supervisor
 * keeps. Implementation: toolRegistry.ts, tools/*.ts, supervisor.ts, worker.ts, advisor.ts.
 */
import type { AgentRole } from '../canvas/types';
import type { ArtifactDraft } from '../provenance/types';

/**
 * A tool: JSON-schema'd arguments (checked with ajv before the guard sees the call),
 * a description a model can use, the tier-1 rules that apply, and a body that returns
 * artifacts to register. No tool runs arbitrary shell commands or writes arbitrary files.
 */
export interface ToolSpec<A = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON schema of the arguments (draft 2020-12 subset ajv supports). */
  schema: object;
  /** Roles allowed to call it. */
  roles: AgentRole[];
  /** Tier-1 rule names (guard/rules) that check this tool's calls. */
  rules: string[];
  /** Whether the tier-3 cross-parameter judge looks at its calls. */
  crossParameterJudge?: boolean;
  /** Per-parameter notes for the tier-2 judge: what a good value looks like. */
  parameterNotes?: Record<string, string>;
  run(args: A, ctx: ToolRunContext): Promise<ToolOutput>;
}

export interface ToolOutput {
  artifacts: ArtifactDraft[];
  /** A short result a model reads (large outputs become artifacts and are summarised). */
  summary: string;
}

/**
 * What a tool body may use. Services are injected so tools stay testable and so no tool
 * reaches past them (no shell, no arbitrary file writes).
 */
export interface ToolRunContext {
  /** The tool call id being executed. */
  callId: string;
  runId: string;
  /** Directory of the run (files/, jobs/ live under it). */
  runDir: string;
  signal: AbortSignal;
  progress(message: string): void;
  /** Resolve a reference "a-12[.path]" to its value. */
  resolve(ref: string): unknown;
  /** Services, present when the host configured them. */
  services: ToolServices;
}

/** Services tools may use; each is an interface owned by its module. */
export interface ToolServices {
  [name: string]: unknown;
}

export type StepStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface PlanStep {
  /** Stable id: "s1", "converge-cutoff". */
  id: string;
  title: string;
  worker: Exclude<AgentRole, 'supervisor'>;
  /** The tool call that must succeed for the step to be done. */
  tool: string;
  /** Argument hints: literals or "$step.<id>.<output name>[.path]" references (grammar: workflows/types.ts). */
  args?: Record<string, unknown>;
  /** Why each argument has its value: passed on as the call's per-parameter reasons. */
  reasons?: Record<string, string>;
  /** For report steps: the quantities the report must state. */
  reportQuantities?: string[];
  dependsOn?: string[];
  status: StepStatus;
  /** Summary recorded when the step finishes. */
  summary?: string;
}

export interface Plan {
  objective: string;
  workflow?: string;
  steps: PlanStep[];
  version: number;
}

/** Plan edits the supervisor makes (validated by an ajv schema; invalid ones refused with the reason). */
export type PlanEdit =
  | { op: 'insert'; after?: string; step: Omit<PlanStep, 'status'> }
  | { op: 'modify'; id: string; changes: Partial<Omit<PlanStep, 'id' | 'status'>> }
  | { op: 'delete'; id: string; reason: string };

/** The supervisor's state, as in DREAMS: {input, plan, past_steps, response, next}. */
export interface SupervisorState {
  input: string;
  plan: Plan;
  pastSteps: { id: string; summary: string; ok: boolean }[];
  response?: string;
  next?: string;
}
