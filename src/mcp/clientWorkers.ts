/**
 * An outside agent (an MCP client) as the run's workers. The run goes on exactly as any
 * other: the supervisor plans from the workflow template (the offline provider answers it),
 * starts each step and ends it from the provenance; each worker turn of a step waits here for
 * the client's next tool call of that step, which goes back to the worker loop as its tool use,
 * so it is parsed, checked and run by the registry and the guarded call like a model's
 * (agents/worker.ts). The result the registry returns is handed back to the client's call.
 * Judges, the advisor and the planner still talk to the run's own provider (a model when a
 * key is configured), so the judge tiers are the same as for a model's call.
 */
import type { AgentRole } from '../core/canvas/types';
import {
  LlmError,
  type ContentBlock,
  type LlmCallOptions,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type ToolUseBlock,
} from '../core/llm/types';
import type { RegistryCallResult, WrappedInput } from '../core/agents/toolRegistry';
import { RunStopped } from '../core/guard/interruption';

const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A tool call the client made, waiting for a worker turn of a step that takes it. */
export interface ClientCall {
  id: string;
  tool: string;
  input: WrappedInput;
  /** The step the client named (optional while only one running step takes the tool). */
  step?: string;
}

/** What the client's call gets back: the registry's result, or why no worker took it. */
export type ClientCallResult = { kind: 'result'; result: RegistryCallResult; step: string } | { kind: 'refused'; message: string };

/** A worker turn waiting for the client: the step, its tools as the worker offers them, its brief. */
export interface WaitingTurn {
  step: string;
  role: Exclude<AgentRole, 'supervisor'>;
  tools: string[];
  brief: string;
  since: number;
}

interface Pending {
  call: ClientCall;
  queuedAt: number;
  settle: (r: ClientCallResult) => void;
}

interface Turn extends WaitingTurn {
  take: (content: ContentBlock[]) => void;
  stop: (reason: string) => void;
}

export class ClientWorkers implements LlmProvider {
  readonly name: string;
  readonly judges: boolean;
  #queue: Pending[] = [];
  #turns = new Map<string, Turn>();
  /** Calls handed to a worker, by tool-use id: settled when the registry returns. */
  #inFlight = new Map<string, Pending & { step: string }>();
  #uses = 0;
  #listeners = new Set<() => void>();
  #closed?: string;

  /**
   * `supervisor` answers the supervisor (the template's plan, the advisor's replans);
   * `inner` answers every other role that is not a worker (judges, advisor, planner).
   */
  constructor(
    private readonly inner: LlmProvider,
    private readonly supervisor: LlmProvider,
    private readonly client: () => string,
  ) {
    this.name = `mcp (${inner.name})`;
    this.judges = inner.judges;
  }

  complete(req: LlmRequest, opts: LlmCallOptions = {}): Promise<LlmResponse> {
    if (req.role === 'dft' || req.role === 'hpc') return this.turn(req, opts);
    if (req.role === 'supervisor') return this.supervisor.complete(req, opts);
    return this.inner.complete(req, opts);
  }

  /** Worker turns waiting for the client now, oldest first. */
  waiting(): WaitingTurn[] {
    return [...this.#turns.values()].map(({ take: _take, stop: _stop, ...t }) => t).sort((a, b) => a.since - b.since);
  }

  /** Calls the client made that no worker has taken yet. */
  queued(): ClientCall[] {
    return this.#queue.map((p) => p.call);
  }

  /** Called when a turn starts or ends and when a call is queued or settled. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The client's call: taken by the worker turn of its step (now, or when that turn comes). */
  submit(call: ClientCall): Promise<ClientCallResult> {
    if (this.#closed) return Promise.resolve({ kind: 'refused', message: this.#closed });
    return new Promise((settle) => {
      this.#queue.push({ call, queuedAt: Date.now(), settle });
      this.dispatch();
      this.changed();
    });
  }

  /** The registry's result of a tool use this provider handed out (the worker loop reports every one). */
  settled(toolUseId: string, result: RegistryCallResult): void {
    const p = this.#inFlight.get(toolUseId);
    if (!p) return;
    this.#inFlight.delete(toolUseId);
    p.settle({ kind: 'result', result, step: p.step });
    this.changed();
  }

  /** Refuse queued calls (those no turn will take), with the reason. */
  refuseQueued(which: (c: ClientCall, waitedMs: number) => string | undefined): void {
    const now = Date.now();
    const keep: Pending[] = [];
    for (const p of this.#queue) {
      const why = which(p.call, now - p.queuedAt);
      if (why) p.settle({ kind: 'refused', message: why });
      else keep.push(p);
    }
    if (keep.length !== this.#queue.length) {
      this.#queue = keep;
      this.changed();
    }
  }

  /** The run has ended or the server stops: every waiting call is refused with the reason. */
  close(reason: string): void {
    this.#closed = reason;
    for (const p of this.#queue.splice(0)) p.settle({ kind: 'refused', message: reason });
    // a call a worker had taken but never ran (the run was cancelled before it started)
    for (const p of this.#inFlight.values()) p.settle({ kind: 'refused', message: `${reason} (the call did not run)` });
    this.#inFlight.clear();
    this.changed();
  }

  /** Take calls back for later runs of the same server (a resumed run). */
  reopen(): void {
    this.#closed = undefined;
  }

  /** End a step's waiting turn without a call: the worker answers with this text (the step is then judged from its provenance). */
  endTurn(step: string, text: string): boolean {
    const turn = this.#turns.get(step);
    if (!turn) return false;
    this.#turns.delete(step);
    turn.take([{ type: 'text', text }]);
    this.changed();
    return true;
  }

  /**
   * The run stops: every waiting turn ends as a stopped run's model call does, so its step
   * stays to do and a resumed run offers it again (an answer without a call would end the
   * step, which then fails with its call still to make).
   */
  stopTurns(reason: string): void {
    const turns = [...this.#turns.values()];
    this.#turns.clear();
    for (const t of turns) t.stop(reason);
    if (turns.length) this.changed();
  }

  private changed(): void {
    for (const l of this.#listeners) l();
  }

  private turn(req: LlmRequest, opts: LlmCallOptions): Promise<LlmResponse> {
    const step = req.step;
    if (!step)
      return Promise.reject(new LlmError('bad-request', 'a worker request without its step cannot be handed to the outside agent'));
    const first = req.messages[0];
    const brief = first && typeof first.content === 'string' ? first.content : '';
    return new Promise<LlmResponse>((resolve, reject) => {
      const done = () => {
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        if (this.#turns.get(step)?.take === take) this.#turns.delete(step);
        done();
        reject(new LlmError('cancelled', 'the run was cancelled while the step waited for the outside agent'));
        this.changed();
      };
      const take = (content: ContentBlock[]) => {
        done();
        resolve({
          content,
          stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
          usage: { ...ZERO },
          model: this.client(),
          attempts: 1,
        });
      };
      if (opts.signal?.aborted) {
        reject(new LlmError('cancelled', 'the run was cancelled'));
        return;
      }
      const stop = (reason: string) => {
        done();
        reject(new RunStopped('stopped', reason));
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.#turns.set(step, {
        step,
        role: req.role as Turn['role'],
        tools: (req.tools ?? []).map((t) => t.name),
        brief,
        since: Date.now(),
        take,
        stop,
      });
      this.dispatch();
      this.changed();
    });
  }

  /** Hand queued calls to the waiting turns of their steps: all a turn can take, as one turn's tool uses. */
  private dispatch(): void {
    for (const turn of [...this.#turns.values()].sort((a, b) => a.since - b.since)) {
      const mine = this.#queue.filter((p) => turn.tools.includes(p.call.tool) && (!p.call.step || p.call.step === turn.step));
      if (!mine.length) continue;
      this.#queue = this.#queue.filter((p) => !mine.includes(p));
      this.#turns.delete(turn.step);
      const uses: ToolUseBlock[] = mine.map((p) => {
        const id = `toolu_mcp_${++this.#uses}`;
        this.#inFlight.set(id, { ...p, step: turn.step });
        return { type: 'tool_use', id, name: p.call.tool, input: p.call.input };
      });
      turn.take(uses);
    }
  }
}
