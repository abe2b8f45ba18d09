/**
 * Plan steps as the event log records them: 'step.start' when a worker takes a step
 * (each start is a new attempt) and 'step.end' with its outcome and summary. An
 * attempt's tool calls are the calls recorded for the step after its start, so a step
 * redone after a replan never mixes results of an earlier attempt with the new ones.
 */
import { eventsOf, type CanvasEvent } from '../canvas/types';

export const STEP_START_EVENT = 'step.start';
export const STEP_END_EVENT = 'step.end';

export interface StepStartPayload {
  id: string;
  attempt: number;
  worker: string;
  tool: string;
}

export interface StepEndPayload {
  id: string;
  attempt: number;
  ok: boolean;
  summary: string;
  /** A step not done: the worker's own words at the end of its turn (its explanation). */
  worker?: string;
}

export const stepKey = (id: string): string => `run/steps/${id}`;

export interface StepAttempt {
  id: string;
  attempt: number;
  /** Sequence number of its 'step.start' event. */
  startSeq: number;
  /** Ids of the tool calls recorded for the step since then, in order. */
  callIds: string[];
  end?: StepEndPayload;
}

/** The latest attempt of a step, or undefined if it never started. */
export function latestAttempt(events: readonly CanvasEvent[], stepId: string): StepAttempt | undefined {
  let start: CanvasEvent<typeof STEP_START_EVENT> | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === STEP_START_EVENT && e.payload.id === stepId) {
      start = e;
      break;
    }
  }
  if (!start) return undefined;
  const callIds: string[] = [];
  let end: StepEndPayload | undefined;
  for (const e of events) {
    if (e.seq <= start.seq) continue;
    if (e.kind === 'provenance.call' && e.payload.step === stepId) callIds.push(e.payload.id);
    if (e.kind === STEP_END_EVENT && e.payload.id === stepId) end = e.payload;
  }
  const p = start.payload;
  return { id: stepId, attempt: p.attempt, startSeq: start.seq, callIds, ...(end ? { end } : {}) };
}

/** How many times the step was started. */
export function attemptsOf(events: readonly CanvasEvent[], stepId: string): number {
  return eventsOf(events, STEP_START_EVENT).filter((e) => e.payload.id === stepId).length;
}

/** Every finished step attempt, in order: the supervisor's past_steps. */
export function pastSteps(events: readonly CanvasEvent[]): { id: string; summary: string; ok: boolean }[] {
  return eventsOf(events, STEP_END_EVENT).map(({ payload: p }) => ({ id: p.id, summary: p.summary, ok: p.ok }));
}
