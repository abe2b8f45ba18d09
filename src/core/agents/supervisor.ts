/**
 * The supervisor, as in DREAMS: state {input, plan, past_steps, response, next}. It
 * plans (from a template or by edits), hands each ready step to its worker, checks the
 * step against the provenance, records its summary, replans after a failed step, and
 * ends with a response. All state lives in the run's canvas and log, so a restarted
 * process continues where the last one stopped.
 */
import { eventsOf } from '../canvas/types';
import { latestReportVerdict } from '../guard/reportVerdicts';
import type { LlmMessage, ToolResultBlock, ToolUseBlock, UsageCategory } from '../llm/types';
import { workflowTemplates } from '../workflows';
import { checkInputs, prepareWorkflow } from '../workflows/objective';
import { ObjectiveError } from '../workflows/types';
import { nextBatch, nextReadyStep, PlanStore, readySteps, SUPERVISOR_ACTOR, RUNNER_ACTOR } from '../plan/store';
import { planRoundMessage, replanMessage, responseMessage, SUPERVISOR_SYSTEM, type ObjectiveReading } from './prompts/supervisor';
import { stepBrief } from './prompts/stepBrief';
import type { AgentRuntime } from './runtime';
import { assessStep, failedCallOf, pendingStepCalls, type StepContext } from '../plan/stepArguments';
import {
  attemptsOf,
  latestAttempt,
  pastSteps,
  STEP_END_EVENT,
  STEP_START_EVENT,
  stepKey,
  type StepEndPayload,
  type StepStartPayload,
} from '../plan/stepRecords';
import { EDIT_PLAN, READ_WORKFLOW, runSupervisorTool, START_WORKFLOW, supervisorToolDefs } from './supervisorTools';
import { stepFailure } from './stepFailure';
import type { Plan, PlanStep, SupervisorState } from '../plan/types';
import { runStepPool } from './stepPool';
import { runToolUses, runWorker, textOf } from './worker';
import { workflowEnvironment } from '../workflows/environment';
import { reopenStaleSteps } from './invalidation/staleSteps';
import { supersedeChangedResults } from './invalidation/supersession';
import { replanLimitFor } from './sweepExtension';
import { closeSupersededApprovals } from './invalidation/supersededApprovals';

export const RESPONSE_KEY = 'notes/response';
export const PLANNED_EVENT = 'supervisor.planned';
export const REPLAN_EVENT = 'supervisor.replan';

export interface SupervisorOutcome {
  state: 'completed' | 'failed';
  response: string;
}

/** Catalogue tools the supervisor may call besides its own (guarded like any other call). */
const SUPERVISOR_CATALOGUE_TOOLS = ['consult_convergence_advisor', 'canvas_inspect', 'canvas_read'];

export function stepContext(rt: AgentRuntime): StepContext {
  const plan = new PlanStore(rt.canvas).current();
  return {
    events: rt.log.events(),
    ...(plan ? { plan } : {}),
    provenance: rt.provenance,
    settings: rt.settings,
    ...(rt.workflow
      ? { inputs: rt.workflow.inputs, ...(rt.workflow.template.composers ? { composers: rt.workflow.template.composers } : {}) }
      : {}),
  };
}

export function supervisorState(rt: AgentRuntime): SupervisorState {
  const plan = new PlanStore(rt.canvas).current() ?? { objective: rt.objective.text, steps: [], version: 0 };
  const response = rt.canvas.read(RESPONSE_KEY);
  const next = nextReadyStep(plan);
  return {
    input: rt.objective.text,
    plan,
    pastSteps: pastSteps(rt.log.events()),
    ...(response.ok ? { response: String(response.value) } : {}),
    ...(next ? { next: next.id } : {}),
  };
}

export class Supervisor {
  private readonly store: PlanStore;

  constructor(private readonly rt: AgentRuntime) {
    this.store = new PlanStore(rt.canvas);
  }

  async run(): Promise<SupervisorOutcome> {
    if (!this.rt.log.events().some((e) => e.kind === PLANNED_EVENT)) await this.planRound();
    for (;;) {
      await this.rt.control.checkpoint();
      // Results that went stale (a superseded choice, a result marked stale) are computed again.
      await reopenStaleSteps(this.rt, stepContext(this.rt));
      const plan = this.store.require();
      // Ready run_pw steps run side by side as a pool (never more than the job budget has
      // left): each time one ends, the next ready one starts. A failed step replans once
      // every step in flight has ended.
      const allowance = Math.max(1, Math.min(this.rt.limits.maxParallelJobs, this.rt.jobAllowance?.() ?? Infinity));
      const batch = nextBatch(plan, allowance);
      if (!batch.steps.length) return this.finish(plan);
      const continuing = new Set(batch.continuing ? batch.steps.map((s) => s.id) : []);
      const pooled = batch.steps.every((s) => s.tool === 'run_pw');
      const ended = await runStepPool({
        first: batch.steps,
        run: (step) => this.runStep(step, continuing.has(step.id)),
        ended: async (step, result) => {
          if (!result.ok) return;
          await supersedeChangedResults(this.rt, step.id, step.tool);
          // a request raised on a result this step's rerun replaced asks nothing any more
          await closeSupersededApprovals(this.rt, stepContext(this.rt));
        },
        more: (inFlight) => {
          if (!pooled) return [];
          const free = Math.min(this.rt.limits.maxParallelJobs - inFlight.size, this.rt.jobAllowance?.() ?? Infinity);
          return free > 0
            ? readySteps(this.store.require())
                .filter((s) => s.tool === 'run_pw' && !inFlight.has(s.id))
                .slice(0, free)
            : [];
        },
        checkpoint: () => this.rt.control.checkpoint(),
      });
      const order = new Map(this.store.require().steps.map((s, i) => [s.id, i]));
      const failures = ended.filter((e) => !e.result.ok).sort((a, b) => (order.get(a.step.id) ?? 0) - (order.get(b.step.id) ?? 0));
      for (const { step, result } of failures) {
        if (!result.ok && !(await this.replanRound(step, result.reason))) {
          const response = `The run stopped: step ${step.id} failed and could not be replanned. ${result.reason}`;
          await this.respond(response);
          return { state: 'failed', response };
        }
      }
    }
  }

  private async planRound(): Promise<void> {
    const rt = this.rt;
    let plan = this.store.current();
    if ((!plan || plan.steps.length === 0) && rt.objective.workflow && rt.objective.inputs) {
      const prepared = prepareWorkflow(rt.objective.workflow, rt.objective.inputs, workflowEnvironment(rt.services));
      rt.workflow = { template: prepared.template, inputs: prepared.inputs };
      await rt.log.append({
        kind: 'workflow.inputs',
        key: 'run/workflow',
        actor: RUNNER_ACTOR,
        payload: { workflow: prepared.template.id, inputs: prepared.inputs },
      });
      plan = await this.store.save(
        {
          objective: prepared.objective,
          workflow: prepared.template.id,
          steps: prepared.steps.map((s) => ({ ...s, status: 'pending' })),
          version: 1,
        },
        `plan from the ${prepared.template.id} template named in the objective`,
        SUPERVISOR_ACTOR,
      );
    }
    const reading = !plan || plan.steps.length === 0 ? objectiveReading(rt.objective.text) : undefined;
    // The round ends once a plan exists after a turn whose calls all went through: the model's words in that turn are its summary.
    const text = await this.converse(
      'plan',
      planRoundMessage(rt.objective.text, plan, workflowTemplates(), reading),
      true,
      () => (this.store.current()?.steps.length ?? 0) > 0,
    );
    const after = this.store.current();
    if (!after || after.steps.length === 0) {
      throw new Error(
        `the supervisor made no plan for "${rt.objective.text}": ${text || 'it gave no reason'}. Name a built-in workflow in the objective (see examples/) or say more about what to compute.`,
      );
    }
    await rt.log.append({
      kind: PLANNED_EVENT,
      key: 'run/supervisor',
      actor: SUPERVISOR_ACTOR,
      payload: { version: after.version, summary: text },
    });
  }

  private async runStep(step: PlanStep, continuing: boolean): Promise<{ ok: true } | { ok: false; reason: string }> {
    const rt = this.rt;
    const spec = rt.registry.get(step.tool);
    if (!spec) return this.endStep(step, false, `the tool ${step.tool} is not in the catalogue`);
    // A step left running by a stopped process continues its attempt, so calls it made still count.
    if (!continuing || !latestAttempt(rt.log.events(), step.id)) {
      const attempt = attemptsOf(rt.log.events(), step.id) + 1;
      const start: StepStartPayload = { id: step.id, attempt, worker: step.worker, tool: step.tool };
      if (!continuing) await this.store.setStatus(step.id, 'running', `step ${step.id} started (attempt ${attempt})`);
      await rt.log.append({ kind: STEP_START_EVENT, key: stepKey(step.id), actor: RUNNER_ACTOR, payload: start });
    }
    const before = assessStep(step, spec.schema, stepContext(rt));
    if (before.state === 'done') return this.endStep(step, true, `${step.tool} succeeded (${before.calls.join(', ')})`);
    const plan = this.store.require();
    const ctx = stepContext(rt);
    const brief = stepBrief({
      objective: rt.objective.text,
      step,
      index: plan.steps.findIndex((s) => s.id === step.id) + 1,
      total: plan.steps.length,
      calls: pendingStepCalls(step, spec.schema, ctx),
      ctx,
      plan,
      openApprovals: rt.approvals.pending(),
    });
    // The step ends as soon as the provenance shows it done: no turn is spent on a summary the tool already gave.
    const worker = await runWorker(rt, step, brief, { done: () => assessStep(step, spec.schema, stepContext(rt)).state === 'done' });
    const after = assessStep(step, spec.schema, stepContext(rt));
    if (after.state === 'done') return this.endStep(step, true, worker.summary);
    const reason =
      after.state === 'failed'
        ? after.reason
        : `${worker.incomplete ?? 'the worker stopped'} with ${after.remaining} call(s) of ${step.tool} still to make`;
    return this.endStep(step, false, reason, worker.summary);
  }

  private async endStep(
    step: PlanStep,
    ok: boolean,
    summary: string,
    workerSaid?: string,
  ): Promise<{ ok: true } | { ok: false; reason: string }> {
    const attempt = attemptsOf(this.rt.log.events(), step.id);
    const end: StepEndPayload = { id: step.id, attempt, ok, summary, ...(workerSaid ? { worker: workerSaid } : {}) };
    await this.rt.log.append({ kind: STEP_END_EVENT, key: stepKey(step.id), actor: RUNNER_ACTOR, payload: end });
    await this.store.setStatus(step.id, ok ? 'done' : 'failed', ok ? `step ${step.id} done` : `step ${step.id} failed`, summary);
    return ok ? { ok: true } : { ok: false, reason: summary };
  }

  private async replanRound(step: PlanStep, reason: string): Promise<boolean> {
    const rt = this.rt;
    const replans = eventsOf(rt.log.events(), REPLAN_EVENT).filter((e) => e.payload.step === step.id).length + 1;
    if (replans > replanLimitFor(step, rt.limits.maxReplansPerStep)) return false;
    const ctx = stepContext(rt);
    const failed = failedCallOf(step, ctx);
    await rt.log.append({
      kind: REPLAN_EVENT,
      key: 'run/supervisor',
      actor: SUPERVISOR_ACTOR,
      payload: { step: step.id, reason, round: replans, ...(failed ? { call: failed.id } : {}) },
    });
    const plan = this.store.require();
    const workerSaid = latestAttempt(rt.log.events(), step.id)?.end?.worker;
    const message = replanMessage({
      objective: rt.objective.text,
      plan,
      failure: stepFailure(plan, step, reason, ctx, workerSaid),
      replans,
      maxReplans: rt.limits.maxReplansPerStep,
    });
    // The round ends once the failed step is planned again (or deleted, what needed it changed:
    // a plan edit cannot delete a step others depend on) after a turn whose calls all went through.
    const replanned = () => {
      const s = this.store.require().steps.find((x) => x.id === step.id);
      return !s || s.status === 'pending';
    };
    const text = await this.converse('plan', message, true, replanned);
    await rt.log.append({
      kind: 'supervisor.replanned',
      key: 'run/supervisor',
      actor: SUPERVISOR_ACTOR,
      payload: { step: step.id, summary: text },
    });
    return replanned();
  }

  private async finish(plan: Plan): Promise<SupervisorOutcome> {
    const blocked = plan.steps.filter((s) => s.status !== 'done' && s.status !== 'skipped');
    if (blocked.length) {
      const response = `The run stopped with steps not done: ${blocked.map((s) => `${s.id} (${s.status})`).join(', ')}.`;
      await this.respond(response);
      return { state: 'failed', response };
    }
    await closeSupersededApprovals(this.rt, stepContext(this.rt));
    const report = this.reportLine(plan);
    const text = await this.converse(
      'summarise',
      responseMessage({
        objective: this.rt.objective.text,
        plan,
        ...(report ? { report } : {}),
        openApprovals: this.rt.approvals.pending(),
      }),
      false,
    );
    const response = text || 'The plan is done.';
    await this.respond(response);
    return { state: 'completed', response };
  }

  private reportLine(plan: Plan): string | undefined {
    const step = [...plan.steps].reverse().find((s) => s.tool === 'write_report');
    const judged = latestReportVerdict(this.rt.log.events());
    if (!step || !judged) return undefined;
    const open = this.rt.approvals.pending().map((r) => r.id);
    const verdict = judged.accepted
      ? 'accepted it'
      : judged.level === 'warn'
        ? `holds it back for review${open.length ? ` until approvals ${open.join(', ')} are answered` : ''} (then: dreams report --rejudge)`
        : 'did not accept it';
    return `Report ${judged.report ?? ''} (step ${step.id}): the report judge ${verdict} (${judged.summary}).`;
  }

  private async respond(text: string): Promise<void> {
    await this.rt.canvas.write(RESPONSE_KEY, text, "the supervisor's final response", SUPERVISOR_ACTOR);
  }

  /**
   * One supervisor conversation: model turns until it answers without a tool call, or until
   * `done` holds after a turn whose tool calls all went through (the model's words in that turn
   * are then its answer).
   */
  private async converse(category: UsageCategory, userText: string, withTools: boolean, done?: () => boolean): Promise<string> {
    const rt = this.rt;
    const model = rt.models.supervisor;
    const catalogue = rt.registry.definitionsFor('supervisor').filter((d) => SUPERVISOR_CATALOGUE_TOOLS.includes(d.name));
    const tools = withTools ? [...supervisorToolDefs(), ...catalogue] : undefined;
    const messages: LlmMessage[] = [{ role: 'user', content: userText }];
    for (let turn = 1; turn <= rt.limits.maxSupervisorTurns; turn++) {
      await rt.control.checkpoint();
      const res = await rt.provider.complete(
        {
          role: 'supervisor',
          category,
          model,
          system: [{ text: SUPERVISOR_SYSTEM, cache: true }],
          messages,
          ...(tools ? { tools, cacheTools: true } : {}),
          cacheHistory: true,
          maxTokens: rt.limits.maxTokensPerTurn,
        },
        { signal: rt.control.signal, ...(rt.onModelEvent ? { onEvent: (e) => rt.onModelEvent!('supervisor', e) } : {}) },
      );
      messages.push({ role: 'assistant', content: res.content });
      const uses = res.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (!uses.length) return textOf(res.content);
      const results: ToolResultBlock[] = [];
      for (const use of uses) {
        if (use.name === START_WORKFLOW || use.name === EDIT_PLAN || use.name === READ_WORKFLOW) {
          await rt.control.checkpoint();
          results.push(await runSupervisorTool(rt, use));
        } else {
          results.push(...(await runToolUses(rt, [use], 'supervisor', model)));
        }
      }
      messages.push({ role: 'user', content: results });
      const changedPlan = uses.some((u) => u.name === START_WORKFLOW || u.name === EDIT_PLAN);
      if (done && changedPlan && !results.some((r) => r.isError) && done())
        return textOf(res.content) || results.map((r) => r.content).join(' ');
    }
    return `the supervisor used its ${rt.limits.maxSupervisorTurns} turns in this round without finishing`;
  }
}

/** What a template reads from an objective sentence that names no workflow outright, and what its inputs still need (the schema's words). */
export function objectiveReading(text: string): ObjectiveReading | undefined {
  for (const template of workflowTemplates()) {
    const inputs = template.inputsFromText?.(text);
    if (!inputs) continue;
    let missing: string[] = [];
    try {
      checkInputs(template, inputs, 'the objective');
    } catch (e) {
      // the schema's own words, without ajv's note on the conditional branch that carried them
      missing = (e instanceof ObjectiveError ? e.problems : [(e as Error).message])
        .filter((p) => !/must match "(then|else)" schema/.test(p))
        .map((p) => p.replace(/^inputs: /, ''));
    }
    return { template, inputs, missing };
  }
  return undefined;
}
