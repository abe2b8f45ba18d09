/**
 * The plan contract: the plan the supervisor keeps, its steps and the edits it may make.
 * Implementation: edits.ts, store.ts, stepHints.ts, stepArguments.ts, stepRecords.ts.
 */
import type { AgentRole } from '../canvas/types';
import type { ProvenanceView } from '../provenance/view';

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
  /** args and reasons merge (a value replaces the argument's, null removes it); other fields replace. */
  | {
      op: 'modify';
      id: string;
      changes: Partial<Omit<PlanStep, 'id' | 'status' | 'reasons'>> & { reasons?: Record<string, string | null> };
    }
  | { op: 'delete'; id: string; reason: string };

/** The supervisor's state, as in DREAMS: {input, plan, past_steps, response, next}. */
export interface SupervisorState {
  input: string;
  plan: Plan;
  pastSteps: { id: string; summary: string; ok: boolean }[];
  response?: string;
  next?: string;
}

/** A `{ "$compose": name }` hint is built by the template's composer of that name (workflows/types.ts). The artifacts a composer may read: the latest final artifact of a name made by a step. */
export interface ComposeContext {
  provenance: ProvenanceView;
  /** Reference ("a-<n>") of the latest artifact of `name` made by step `stepId`, if any. */
  ref(stepId: string, name: string): string | undefined;
  /** Every such artifact of the step's latest attempt. */
  refs(stepId: string, name: string): string[];
  /** The value at a reference ("a-12.chosen.ecutwfcRy"). */
  value(ref: string): unknown;
  inputs: Record<string, unknown>;
}

export type Composer = (ctx: ComposeContext) => unknown;
