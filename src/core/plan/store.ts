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

/** Status changes of one canvas's plan, one after another (steps run side by side read and write it). */
const planWrites = new WeakMap<PlanCanvas, Promise<unknown>>();

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

  /** Sets one step's status on the latest plan; concurrent calls are applied in turn, none lost. */
  setStatus(id: string, status: StepStatus, reason: string, summary?: string): Promise<Plan> {
    const before = planWrites.get(this.canvas) ?? Promise.resolve();
    const next = before.then(
      () => this.applyStatus(id, status, reason, summary),
      () => this.applyStatus(id, status, reason, summary),
    );
    planWrites.set(
      this.canvas,
      next.catch(() => undefined),
    );
    return next;
  }

  private async applyStatus(id: string, status: StepStatus, reason: string, summary?: string): Promise<Plan> {
    const plan = this.require();
    const steps = plan.steps.map((s): PlanStep => {
      if (s.id !== id) return s;
      const { summary: _old, ...rest } = s;
      return { ...rest, status, ...(summary !== undefined ? { summary } : {}) };
    });
    return this.save({ ...plan, steps, version: plan.version + 1 }, reason, RUNNER_ACTOR);
  }
}

/** Pending steps whose dependencies are all done, in plan order. */
export function readySteps(plan: Plan): PlanStep[] {
  const done = new Set(plan.steps.filter((s) => s.status === 'done' || s.status === 'skipped').map((s) => s.id));
  return plan.steps.filter((s) => s.status === 'pending' && (s.dependsOn ?? []).every((d) => done.has(d)));
}

/** The first pending step whose dependencies are all done, or undefined. */
export function nextReadyStep(plan: Plan): PlanStep | undefined {
  return readySteps(plan)[0];
}

/**
 * The steps to run next: every step left running by a stopped process; else the first ready
 * step that runs no pw.x (building structures and inputs takes moments), alone; else, when
 * only pw.x steps are ready, up to `maxParallel` of them together, so independent runs (the
 * gas molecule and the relaxations of a site-preference study) are queued at once. The
 * supervisor starts these as a pool (stepPool.ts): as one ends, the next ready pw.x step
 * takes its place.
 */
export function nextBatch(plan: Plan, maxParallel: number): { steps: PlanStep[]; continuing: boolean } {
  const running = plan.steps.filter((s) => s.status === 'running');
  if (running.length) return { steps: running, continuing: true };
  const ready = readySteps(plan);
  const other = ready.find((s) => s.tool !== 'run_pw');
  if (other) return { steps: [other], continuing: false };
  return { steps: ready.slice(0, Math.max(1, maxParallel)), continuing: false };
}

/** One line per step, for prompts and logs: "3. [done] cutoff-series generate_series (dft) — Cutoff series ...". */
export function planTable(plan: Plan): string {
  return plan.steps
    .map(
      (s, i) =>
        `${i + 1}. [${s.status}] ${s.id} ${s.tool} (${s.worker})${s.dependsOn?.length ? ` after ${s.dependsOn.join(', ')}` : ''} — ${s.title}`,
    )
    .join('\n');
}
