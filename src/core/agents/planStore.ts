/**
 * The plan in the canvas: the versioned key 'plan'. Every edit and every step status
 * change is a new version with its reason, so the notebook shows how the plan evolved.
 */
import type { Actor, ReadResult, WriteResult } from '../canvas/types';
import type { Plan, PlanStep, StepStatus } from './types';

export const PLAN_KEY = 'plan';
export const SUPERVISOR_ACTOR: Actor = { kind: 'agent', id: 'supervisor' };
export const RUNNER_ACTOR: Actor = { kind: 'framework', id: 'runner' };

export interface PlanCanvas {
  read(key: string, version?: number): ReadResult;
  write(key: string, value: unknown, reason: string, actor: Actor): Promise<WriteResult>;
}

export class PlanStore {
  constructor(private readonly canvas: PlanCanvas) {}

  current(): Plan | undefined {
    const r = this.canvas.read(PLAN_KEY);
    return r.ok ? (r.value as Plan) : undefined;
  }

  require(): Plan {
    const plan = this.current();
    if (!plan) throw new Error('the run has no plan yet: the supervisor makes one from the objective first.');
    return plan;
  }

  async save(plan: Plan, reason: string, actor: Actor): Promise<Plan> {
    const w = await this.canvas.write(PLAN_KEY, plan, reason, actor);
    if (!w.ok) throw new Error(`the plan could not be saved: ${w.message}`);
    return plan;
  }

  async setStatus(id: string, status: StepStatus, reason: string, summary?: string): Promise<Plan> {
    const plan = this.require();
    const steps = plan.steps.map((s): PlanStep => {
      if (s.id !== id) return s;
      const { summary: _old, ...rest } = s;
      return { ...rest, status, ...(summary !== undefined ? { summary } : {}) };
    });
    return this.save({ ...plan, steps, version: plan.version + 1 }, reason, RUNNER_ACTOR);
  }
}

/** The first pending step whose dependencies are all done, or undefined. */
export function nextReadyStep(plan: Plan): PlanStep | undefined {
  const done = new Set(plan.steps.filter((s) => s.status === 'done' || s.status === 'skipped').map((s) => s.id));
  return plan.steps.find((s) => s.status === 'pending' && (s.dependsOn ?? []).every((d) => done.has(d)));
}

/** One line per step, for prompts and logs: "3. [done] cutoff-series generate_series (dft) — Cutoff series ...". */
export function planTable(plan: Plan): string {
  return plan.steps.map((s, i) => `${i + 1}. [${s.status}] ${s.id} ${s.tool} (${s.worker})${s.dependsOn?.length ? ` after ${s.dependsOn.join(', ')}` : ''} — ${s.title}`).join('\n');
}
