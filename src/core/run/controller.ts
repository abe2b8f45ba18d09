/**
 * The one API that starts, pauses, resumes, cancels and watches runs; the CLI and the
 * VS Code controller both use it. A run's state is its event log: resume() reopens the
 * directory (after a restart too), picks up tool calls the last process left running,
 * and the supervisor continues from the plan in the canvas. Reaching a budget stops the
 * run cleanly with its state saved; resume it with a higher limit.
 */
import fs from 'node:fs';
import { createRun, openRun, setRunState, type Run } from './directory';
import type { Actor, CanvasEvent, RunState } from '../canvas/types';
import { EventLogError } from '../canvas/eventLogError';
import { BudgetExceededError } from '../llm/budget';
import { LlmError } from '../llm/types';
import { progressLine, runProgress, type RunProgress } from './progress';
import { RunStopped } from '../guard/interruption';
import { declaredIpiCalculators, openSession, SETTINGS_EVENT, type RunSession, type RunSettings, type SessionEnvironment } from './session';
import { settleInterruptedCalls } from './interruptedCalls';
import { watchInbox } from './answerInbox';
import { answerApproval, standingNote } from '../guard/approvals';
import { Supervisor } from '../agents/supervisor';
import { version } from '../../../package.json';

export interface RunResult {
  state: Extract<RunState, 'completed' | 'failed' | 'stopped'>;
  /** The supervisor's response (completed or failed runs). */
  response?: string;
  /** Why the run stopped (budget, cancel) or failed. */
  reason?: string;
}

export interface StartOptions {
  runsDir: string;
  settings: RunSettings;
  /** Software versions recorded with the run (pw.x's, when known). */
  software?: Record<string, string>;
}

export type ProgressListener = (p: RunProgress, e: CanvasEvent) => void;

export class RunController {
  readonly #listeners = new Set<ProgressListener>();
  readonly #unsubscribe: () => void;
  #running?: Promise<RunResult>;

  private constructor(readonly session: RunSession) {
    const { runtime, budget } = session;
    runtime.control.hooks = {
      onPaused: () => setRunState(session.run, 'paused', 'paused by the user; the tool call in flight finished'),
      onResumed: () => setRunState(session.run, 'running', 'resumed'),
      check: () => budget.check('before-call'),
    };
    this.#unsubscribe = session.run.log.subscribe((e) => {
      if (!this.#listeners.size) return;
      const p = runProgress(session.run.log.events());
      for (const l of this.#listeners) l(p, e);
    });
  }

  /** A new run directory under runsDir, recorded with its settings, ready to run(). */
  static async start(opts: StartOptions, env: SessionEnvironment = {}): Promise<RunController> {
    preflight(opts.settings, env);
    const run = await createRun(opts.runsDir, {
      objective: opts.settings.objective.text,
      ...(opts.settings.objective.workflow ? { workflow: opts.settings.objective.workflow } : {}),
      settings: opts.settings as unknown as Record<string, unknown>,
      software: { dreams: version, ...opts.software },
    });
    return RunController.open(run, env);
  }

  /**
   * Reopen a run (also one a killed process left behind); `changes` update its settings (e.g. a higher budget).
   * A damaged log is cut (after a copy of the whole file) only where a crash leaves damage, its last line;
   * damage with lines after it is refused with its line and what to do, unless `cutDamaged`.
   */
  static async resume(
    runDir: string,
    env: SessionEnvironment = {},
    changes: Partial<RunSettings> = {},
    options: { cutDamaged?: boolean; by?: Actor } = {},
  ): Promise<RunController> {
    let run: Run;
    try {
      run = await openRun(runDir, { mode: 'writer', onDamage: options.cutDamaged ? 'cut' : 'cut-last-line' });
    } catch (e) {
      if (e instanceof EventLogError && e.code === 'damaged') {
        throw new EventLogError(
          'damaged',
          `${e.message} Restore events.jsonl from a copy if you have one; or continue from the events before the damage ` +
            '(`dreams resume <run> --cut-damaged` copies the whole file aside first, then cuts it back to the last good event).',
          e.damage,
        );
      }
      throw e;
    }
    try {
      if (Object.keys(changes).length)
        // who changed them: the user (CLI, VS Code), or the outside agent that resumes the run over MCP
        await run.log.append({
          kind: SETTINGS_EVENT,
          key: 'run/settings',
          actor: options.by ?? { kind: 'user', id: 'user' },
          payload: changes,
        });
      return await RunController.open(run, env);
    } catch (e) {
      await run.close();
      throw e;
    }
  }

  private static async open(run: Run, env: SessionEnvironment): Promise<RunController> {
    try {
      return new RunController(await openSession(run, env));
    } catch (e) {
      await run.close();
      throw e;
    }
  }

  get runId(): string {
    return this.session.run.runId;
  }

  get runDir(): string {
    return this.session.run.dir;
  }

  progress(): RunProgress {
    return runProgress(this.session.run.log.events());
  }

  onProgress(listener: ProgressListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Run (or continue) to the end, a stop or a failure. */
  run(): Promise<RunResult> {
    this.#running ??= this.drive();
    return this.#running;
  }

  /** The tool call in flight finishes, then the run waits. */
  pause(): void {
    this.session.runtime.control.pause();
  }

  unpause(): void {
    this.session.runtime.control.resume();
  }

  /** Stop after the tool call in flight; the run stays resumable. */
  stop(reason = 'stopped by the user'): void {
    this.session.runtime.control.stop(reason);
  }

  /** Stop now: the model call in flight is abandoned and the run's jobs are cancelled. */
  async cancel(reason = 'cancelled by the user'): Promise<void> {
    this.session.runtime.control.cancel(reason);
    const open = this.session.jobs.list().filter((j) => !['completed', 'failed', 'cancelled'].includes(j.state));
    await Promise.allSettled(open.map((j) => this.session.jobs.cancel(j.id)));
  }

  /**
   * Record the run as stopped before the process leaves without waiting for the tool call
   * in flight: its jobs keep running, and a resume picks up the calls waiting on them.
   */
  async abandon(reason: string): Promise<void> {
    this.session.runtime.control.cancel(reason);
    await setRunState(this.session.run, 'stopped', reason);
    await this.session.run.log.close();
  }

  async close(): Promise<void> {
    this.#unsubscribe();
    await this.session.close();
  }

  private async drive(): Promise<RunResult> {
    const { run, runtime, budget } = this.session;
    await setRunState(run, 'running', run.log.events().some((e) => e.kind === 'run.state') ? 'resumed' : 'started');
    const stopInbox = watchInbox(run.dir, async (a) => {
      const r = await answerApproval(runtime.approvals, run.registry, a.id, a.decision, a.by, a.comment, { standing: a.standing === true });
      return r.ok
        ? {
            ok: true,
            message: `${a.id} ${a.decision === 'approve' ? 'approved' : 'rejected'} by ${a.by}${standingNote(r)}${r.madeProvisional?.length ? `; now provisional: ${r.madeProvisional.join(', ')}` : ''}`,
          }
        : { ok: false, message: r.message };
    });
    // Under the 'wait' policy a warning holds the run until someone answers: say so in its state.
    const stopWaiting = run.log.subscribe((e) => {
      if (runtime.policy !== 'wait') return;
      // A request a standing approval covers is answered as it is raised: nobody is waited for.
      if (e.kind === 'approval.request' && !runtime.approvals.standingFor(e.payload)) {
        setRunState(run, 'waiting-approval', `waiting for an answer to ${e.payload.id}`).catch(() => undefined);
      }
      if (
        e.kind === 'approval.answer' &&
        runtime.approvals.pending().length === 0 &&
        runProgress(run.log.events()).state === 'waiting-approval'
      ) {
        setRunState(run, 'running', `${e.payload.id} answered`).catch(() => undefined);
      }
    });
    // A log that can no longer be written (disk full) ends the run at once: nothing more can be
    // recorded, and a call waiting on a job would wait for a state change that cannot be saved.
    // The log on disk is whole up to its last saved event; a resume continues from there.
    let logBroke!: (e: Error) => void;
    const broken = new Promise<never>((_, reject) => (logBroke = reject));
    broken.catch(() => undefined);
    const stopOnBrokenLog = run.log.onBroken((e) => {
      runtime.control.cancel(e.message);
      logBroke(e);
    });
    try {
      budget.check('before-call');
      const settled = await settleInterruptedCalls(runtime, {
        waiting: (approval, call) =>
          setRunState(run, 'waiting-approval', `waiting for an answer to ${approval} (${call}, held when the run stopped)`),
      });
      if (settled.reattached.length || settled.failed.length || settled.finished?.length || settled.rejected?.length) {
        await run.log.append({ kind: 'run.recovered', key: 'run/recovery', actor: { kind: 'framework', id: 'runner' }, payload: settled });
      }
      const supervised = new Supervisor(runtime).run();
      supervised.catch(() => undefined); // left behind if the log breaks
      const outcome = await Promise.race([supervised, broken]);
      await setRunState(run, outcome.state, outcome.state === 'failed' ? outcome.response : undefined);
      return { state: outcome.state, response: outcome.response, ...(outcome.state === 'failed' ? { reason: outcome.response } : {}) };
    } catch (e) {
      const lost = run.log.brokenError;
      if (lost) return { state: 'failed', reason: `${lost.message} Its pw.x jobs may still be running; \`dreams resume\` picks them up.` };
      const stop = stopReason(e);
      if (stop) {
        await setRunState(run, 'stopped', stop);
        return { state: 'stopped', reason: stop };
      }
      const reason = (e as Error).message || String(e);
      await setRunState(run, 'failed', reason);
      return { state: 'failed', reason };
    } finally {
      stopInbox();
      stopWaiting();
      stopOnBrokenLog();
    }
  }

  /** The status line for logs: "[running] step 5/16 ... ". */
  statusLine(): string {
    return progressLine(this.progress());
  }
}

function stopReason(e: unknown): string | undefined {
  if (e instanceof BudgetExceededError) return e.message;
  if (e instanceof RunStopped) return e.message;
  if (e instanceof LlmError && e.code === 'cancelled') return 'cancelled by the user';
  return undefined;
}

/** What would make the run fail at once: say it before a run directory is made. */
function preflight(s: RunSettings, env: SessionEnvironment): void {
  // an i-PI command the user's calculators file does not list: refused before a run directory is made
  declaredIpiCalculators(s.objective?.inputs?.calculator);
  if (!s.offline && !env.provider && !env.apiKey) {
    throw new Error(
      'no Anthropic API key: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-...) or run the built-in workflow without a model (--offline).',
    );
  }
  if (s.offline && !s.objective.workflow) {
    throw new Error(
      `offline runs follow a built-in workflow, and the objective "${s.objective.text}" names none. Write an objective file with "workflow:" (see examples/), or run with a model.`,
    );
  }
  if (s.pseudoDir && !fs.existsSync(s.pseudoDir)) {
    throw new Error(
      `the pseudopotential directory ${s.pseudoDir} does not exist; pass --pseudo-dir with the folder of your UPF files (Debian: /usr/share/espresso/pseudo).`,
    );
  }
  if (s.backend !== 'local' && !(env.clusters ?? []).some((c) => c.name === s.backend)) {
    throw new Error(
      `no cluster profile named "${s.backend}"; add it to the cluster profiles file or use --cluster with one of: ${(env.clusters ?? []).map((c) => c.name).join(', ') || '(none configured)'}.`,
    );
  }
}
