/**
 * The one run an MCP server drives: started or resumed through the run controller like
 * `dreams run`, with the outside agent as its workers (clientWorkers.ts). It runs in the
 * background; the client's tool calls reach the worker turns of their steps, and their
 * results come back once the run has moved on (the step continues, the next step waits for
 * its call, or the run ended), so what the client reads next is the run's new state.
 * When the run ends its notebook, report and bundle are written as the CLI writes them.
 */
import { OfflineProvider } from '../core/agents/offlineProvider';
import { stepContext } from '../core/agents/supervisor';
import { ToolRegistry, type RegistryCallResult, type RegistryContext } from '../core/agents/toolRegistry';
import type { AgentRole } from '../core/canvas/types';
import type { ToolUseBlock, LlmToolDef } from '../core/llm/types';
import { pendingStepCalls, type WrappedCall } from '../core/plan/stepArguments';
import { PlanStore, planTable } from '../core/plan/store';
import type { Plan, PlanStep } from '../core/plan/types';
import { RunController, type RunResult, type StartOptions } from '../core/run/controller';
import type { RunSettings, SessionEnvironment } from '../core/run/session';
import { writeRunOutputs } from '../core/run/outputs';
import { ClientWorkers, type ClientCall, type ClientCallResult } from './clientWorkers';

/** A step the client can act on now, as a worker would see it. */
export interface StepView {
  id: string;
  title: string;
  tool: string;
  worker: Exclude<AgentRole, 'supervisor'>;
  /** Waiting for the client's call (false: a call of it is running). */
  waiting: boolean;
  /** The worker's brief: the step, its planned calls in full, the calls made so far. */
  brief?: string;
  plannedCalls: WrappedCall[];
  /** Why the planned calls cannot be given yet, if they cannot. */
  problem?: string;
}

/** How long a result waits for the run to move on before it is returned anyway (a parallel step may be busy for long). */
const SETTLE_MS = 3000;
/** How long a call no waiting step takes may wait while nothing else moves before it is refused. */
const STRAY_MS = 2500;

/** The registry of a driven run: every result is also reported to the outside agent's call. */
class ReportingRegistry extends ToolRegistry {
  constructor(
    base: ToolRegistry,
    private readonly report: (id: string, r: RegistryCallResult) => void,
  ) {
    super(base.all());
  }

  override async call(
    use: ToolUseBlock,
    role: AgentRole,
    ctx: RegistryContext,
    opts: { model?: string; step?: string } = {},
  ): Promise<RegistryCallResult> {
    const r = await super.call(use, role, ctx, opts);
    this.report(use.id, r);
    return r;
  }
}

export class DrivenRun {
  #result?: RunResult;
  #outputsError?: string;
  readonly finished: Promise<RunResult>;
  #sweep: NodeJS.Timeout;

  private constructor(
    readonly controller: RunController,
    readonly workers: ClientWorkers,
  ) {
    const rt = controller.session.runtime;
    rt.registry = new ReportingRegistry(rt.registry, (id, r) => workers.settled(id, r));
    this.#sweep = setInterval(() => this.refuseStrays(), 500);
    this.finished = controller.run().then(async (r) => {
      this.#result = r;
      try {
        await writeRunOutputs(controller.session.run, { bundle: true, pseudoDirs: [controller.session.settings.pseudoDir] });
      } catch (e) {
        this.#outputsError = (e as Error).message;
      }
      workers.close(
        `the run ${controller.runId} has ${r.state === 'completed' ? 'completed' : `${r.state}${r.reason ? `: ${r.reason}` : ''}`}; no step takes calls any more`,
      );
      clearInterval(this.#sweep);
      return r;
    });
  }

  /** Start a new run with the client as its workers. */
  static async start(opts: StartOptions, env: SessionEnvironment, client: string): Promise<DrivenRun> {
    const c = clientEnvironment(env, client);
    const controller = await RunController.start(opts, c.env);
    c.attach(controller);
    return new DrivenRun(controller, c.workers());
  }

  /** Resume a run (any run: its remaining steps are the client's), with `changes` to its settings. */
  static async resume(runDir: string, env: SessionEnvironment, client: string, changes: Partial<RunSettings>): Promise<DrivenRun> {
    const c = clientEnvironment(env, client);
    const controller = await RunController.resume(runDir, c.env, changes, { by: { kind: 'agent', id: 'mcp-client', model: client } });
    c.attach(controller);
    return new DrivenRun(controller, c.workers());
  }

  get runId(): string {
    return this.controller.runId;
  }

  get result(): RunResult | undefined {
    return this.#result;
  }

  get outputsError(): string | undefined {
    return this.#outputsError;
  }

  plan(): Plan | undefined {
    return new PlanStore(this.controller.session.run.canvas).current();
  }

  /** The steps running now (each with its worker turn waiting, or a call in flight). */
  steps(): StepView[] {
    const plan = this.plan();
    if (!plan) return [];
    const rt = this.controller.session.runtime;
    const waiting = new Map(this.workers.waiting().map((t) => [t.step, t]));
    return plan.steps
      .filter((s) => s.status === 'running')
      .map((s) => {
        const spec = rt.registry.get(s.tool);
        const calls = spec
          ? pendingStepCalls(s, spec.schema, stepContext(rt))
          : { ok: false as const, problem: `no tool ${s.tool} in the catalogue` };
        const turn = waiting.get(s.id);
        return {
          id: s.id,
          title: s.title,
          tool: s.tool,
          worker: s.worker,
          waiting: !!turn,
          ...(turn ? { brief: turn.brief } : {}),
          plannedCalls: calls.ok ? calls.calls : [],
          ...(calls.ok ? {} : { problem: calls.problem }),
        };
      });
  }

  /** The catalogue tools of the running steps, as a worker of each step is offered them (the canvas read aside: the client has its own). */
  offeredTools(): (LlmToolDef & { steps: string[] })[] {
    const rt = this.controller.session.runtime;
    const out = new Map<string, LlmToolDef & { steps: string[] }>();
    for (const s of this.plan()?.steps.filter((x) => x.status === 'running') ?? []) {
      for (const d of rt.registry.definitionsFor(s.worker, { step: s })) {
        if (d.name === 'canvas_read') continue;
        const seen = out.get(d.name);
        if (seen) seen.steps.push(s.id);
        else out.set(d.name, { ...d, steps: [s.id] });
      }
    }
    return [...out.values()];
  }

  /** Whether a step not yet done in the plan calls this tool (a call for it may wait for its step). */
  planCalls(tool: string, step?: string): PlanStep | undefined {
    return this.plan()?.steps.find(
      (s) => s.tool === tool && (!step || s.id === step) && (s.status === 'pending' || s.status === 'running'),
    );
  }

  /**
   * The client's call of a catalogue tool, through the worker turn of its step. Resolves when
   * the run has moved on after it (or a few seconds later), with the registry's result.
   */
  async call(call: ClientCall): Promise<ClientCallResult> {
    if (this.#result)
      return {
        kind: 'refused',
        message: `the run ${this.runId} has ended (${this.#result.state}); resume it with dreams_resume_run to continue.`,
      };
    const target = this.planCalls(call.tool, call.step);
    if (!target) {
      const running =
        this.steps()
          .map((s) => `${s.id} (${s.tool})`)
          .join(', ') || 'none';
      const named = call.step ? this.plan()?.steps.find((s) => s.id === call.step) : undefined;
      return {
        kind: 'refused',
        message: named
          ? `step ${call.step} is ${named.status} and its tool is ${named.tool}: it takes no ${call.tool} call now. Steps running: ${running}.`
          : `no step of the plan still to do calls ${call.tool}. Steps running: ${running}; dreams_status shows what each needs.`,
      };
    }
    const r = await this.workers.submit(call);
    if (r.kind === 'result') await this.moveOn(r.step);
    return r;
  }

  /** Wait until the step's worker asks for its next call, another step waits, the run ends, or SETTLE_MS pass. */
  private moveOn(step: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const plan = this.plan();
        const status = plan?.steps.find((s) => s.id === step)?.status;
        const waiting = this.workers.waiting();
        if (this.#result || waiting.some((t) => t.step === step) || (status !== 'running' && waiting.length)) finish();
      };
      const finish = () => {
        off();
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      };
      const off = this.workers.onChange(check);
      const timer = setTimeout(finish, SETTLE_MS);
      const poll = setInterval(check, 100);
      void this.finished.then(finish, finish);
      check();
    });
  }

  /**
   * A queued call no step will take: every running step waits for the client and none of them
   * takes it (a sequential client would wait forever), for STRAY_MS.
   */
  private refuseStrays(): void {
    if (!this.workers.queued().length) return;
    const running = this.plan()?.steps.filter((s) => s.status === 'running') ?? [];
    const waiting = this.workers.waiting();
    const stalled = running.length > 0 && running.every((s) => waiting.some((t) => t.step === s.id));
    if (!stalled) return;
    this.workers.refuseQueued((c, waited) => {
      if (waited < STRAY_MS) return undefined;
      const takers = waiting.filter((t) => t.tools.includes(c.tool));
      if (takers.length && (!c.step || takers.some((t) => t.step === c.step))) return undefined;
      return (
        `${c.tool}${c.step ? ` for step ${c.step}` : ''} cannot run now: the running step${waiting.length > 1 ? 's wait' : ' waits'} for ${waiting.map((t) => `${t.step} (${t.tools.filter((x) => x !== 'canvas_read').join(', ')})`).join('; ')}. ` +
        'Make that call first (dreams_status shows it in full).'
      );
    });
  }

  /** End a waiting step's turn without a call: the step is then judged from what it made (a step with calls still to make fails and is replanned). */
  endStep(step: string, summary: string): boolean {
    return this.workers.endTurn(step, summary);
  }

  statusText(): string {
    const plan = this.plan();
    const p = this.controller.progress();
    const lines = [`run ${this.runId}: ${this.#result ? this.#result.state : p.state}`];
    if (this.#result?.reason && this.#result.state !== 'completed') lines.push(`reason: ${this.#result.reason}`);
    if (this.#result?.response) lines.push(this.#result.response);
    if (plan) lines.push('', 'Plan:', planTable(plan));
    for (const s of this.steps()) {
      lines.push('', `Step ${s.id} (${s.tool}, ${s.worker}): ${s.waiting ? 'waiting for your call' : 'a call is running'}`);
      if (s.waiting && s.brief) lines.push(s.brief);
      else if (s.plannedCalls.length) lines.push(...s.plannedCalls.map((c) => JSON.stringify(c)));
    }
    const open = this.controller.session.runtime.approvals.pending();
    if (open.length)
      lines.push(
        '',
        `Open approvals: ${open.map((r) => `${r.id} (${r.call} ${r.tool}${r.parameter ? `.${r.parameter}` : ''}: ${r.verdicts.map((v) => v.reasons.join(' ')).join(' ')})`).join('; ')}`,
      );
    return lines.join('\n');
  }

  async stop(reason: string): Promise<void> {
    this.controller.stop(reason);
    // the waiting steps stay to do: a resume offers them again
    this.workers.stopTurns(reason);
  }

  async close(): Promise<void> {
    if (!this.#result) {
      this.workers.close('the MCP server is closing');
      await this.controller.abandon('stopped: the MCP server that drove the run closed');
    }
    clearInterval(this.#sweep);
    await this.controller.close().catch(() => undefined);
  }
}

/**
 * The session environment of a driven run: its provider (the run's own: offline, or the model
 * for judges when a key is configured) wrapped so the workers are the client and the
 * supervisor follows the template.
 */
function clientEnvironment(
  env: SessionEnvironment,
  client: string,
): { env: SessionEnvironment; workers: () => ClientWorkers; attach: (c: RunController) => void } {
  let controller: RunController | undefined;
  let workers!: ClientWorkers;
  const supervisor = new OfflineProvider(() => {
    const rt = controller!.session.runtime;
    return {
      plan: () => new PlanStore(rt.canvas).current(),
      stepContext: () => stepContext(rt),
      toolSchema: (tool) => rt.registry.get(tool)?.schema,
      objective: rt.objective,
      provenance: rt.provenance,
    };
  });
  const wrap = (inner: Parameters<NonNullable<SessionEnvironment['wrapProvider']>>[0]) => {
    workers = new ClientWorkers(env.wrapProvider ? env.wrapProvider(inner) : inner, supervisor, () => client);
    return workers;
  };
  return {
    env: { ...env, wrapProvider: wrap },
    workers: () => workers,
    attach: (c) => {
      controller = c;
    },
  };
}
