/**
 * What ends a guarded call as interrupted rather than failed: the run was stopped or
 * cancelled (RunStopped, thrown by the run's checkpoints, run/checkpoint.ts), a model call
 * was cancelled, or a budget ran out. Such a call stays open and is resumed with the run.
 */
import { LlmError } from '../llm/types';

export class RunStopped extends Error {
  constructor(readonly why: 'cancelled' | 'budget' | 'stopped', message: string) {
    super(message);
    this.name = 'RunStopped';
  }
}

export function isRunInterruption(e: unknown): boolean {
  return e instanceof RunStopped || (e instanceof LlmError && (e.kind === 'cancelled' || e.kind === 'budget'));
}
