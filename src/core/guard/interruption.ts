/**
 * What ends a guarded call as interrupted rather than failed: the run was stopped or
 * cancelled (RunStopped, thrown by the run's checkpoints, run/checkpoint.ts), a model call
 * was cancelled, or a budget ran out. Such a call stays open and is resumed with the run.
 */
import { DreamsError } from '../errors';
import { LlmError } from '../llm/types';

export class RunStopped extends DreamsError<'cancelled' | 'budget' | 'stopped'> {
  constructor(code: RunStopped['code'], message: string) {
    super(code, message);
    this.name = 'RunStopped';
  }
}

export function isRunInterruption(e: unknown): boolean {
  return e instanceof RunStopped || (e instanceof LlmError && (e.code === 'cancelled' || e.code === 'budget'));
}
