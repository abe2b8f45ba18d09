/**
 * Pause, resume and cancel, as the agent loop sees them: it calls checkpoint() before
 * every model call and every tool call. A pause takes effect at the next checkpoint, so
 * a tool call in flight (a pw.x job) finishes first; a cancel aborts the model call in
 * flight and stops at the next checkpoint.
 */
import { RunStopped } from '../guard/interruption';

export interface RunControlHooks {
  /** The loop reached a checkpoint while a pause was asked for: it is now waiting. */
  onPaused?(): Promise<void> | void;
  onResumed?(): Promise<void> | void;
  /** Checked at every checkpoint: throw (e.g. BudgetExceededError) to stop the run. */
  check?(): void;
}

export class RunControl {
  readonly #abort = new AbortController();
  #pauseRequested = false;
  #paused = false;
  #release?: () => void;
  #cancelReason?: string;
  #stopReason?: string;

  /** Set by whoever drives the run (the run controller). */
  hooks: RunControlHooks = {};

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get pauseRequested(): boolean {
    return this.#pauseRequested;
  }

  get paused(): boolean {
    return this.#paused;
  }

  get cancelled(): boolean {
    return this.#abort.signal.aborted;
  }

  pause(): void {
    this.#pauseRequested = true;
  }

  resume(): void {
    this.#pauseRequested = false;
    this.#release?.();
  }

  /** Stop at the next checkpoint (after the tool call in flight), leaving the run resumable. */
  stop(reason = 'stopped by the user'): void {
    this.#stopReason = reason;
    this.#release?.();
  }

  cancel(reason = 'cancelled by the user'): void {
    this.#cancelReason = reason;
    this.#abort.abort(new RunStopped('cancelled', reason));
    this.#release?.();
  }

  /** Wait here while paused; throw when cancelled or when a budget is reached. */
  async checkpoint(): Promise<void> {
    this.throwIfCancelled();
    if (this.#stopReason) throw new RunStopped('stopped', this.#stopReason);
    if (this.#pauseRequested) {
      this.#paused = true;
      await this.hooks.onPaused?.();
      while (this.#pauseRequested && !this.cancelled && !this.#stopReason) {
        await new Promise<void>((resolve) => (this.#release = resolve));
      }
      this.#release = undefined;
      this.#paused = false;
      this.throwIfCancelled();
      if (this.#stopReason) throw new RunStopped('stopped', this.#stopReason);
      await this.hooks.onResumed?.();
    }
    this.hooks.check?.();
  }

  throwIfCancelled(): void {
    if (this.cancelled) throw new RunStopped('cancelled', this.#cancelReason ?? 'cancelled');
  }
}
