/**
 * The agents' events: the supervisor's plan rounds and replans, and the replan after
 * invalidation (steps reopened because their results went stale, steps still standing on
 * stale results, results superseded by a step's new attempt). Declared into the event
 * catalogue (canvas/types.ts EventCatalogue), with what each must hold when read from disk.
 */
import Type from 'typebox';
import type { RerunPayload, StaleStep } from './invalidation/staleSteps';
import type { Supersession } from './invalidation/supersession';

declare module '../canvas/types' {
  interface EventCatalogue {
    /** The supervisor wrote (or revised) the plan: its version and what it said of it. */
    'supervisor.planned': { version: number; summary: string };
    /** A step failed and the supervisor replans (the round counts this step's replans). */
    'supervisor.replan': { step: string; reason: string; round: number; call?: string };
    'supervisor.replanned': { step: string; summary: string };
    'workflow.rerun': RerunPayload;
    'workflow.stale-remains': StaleStep & { message: string };
    'workflow.superseded': Supersession;
  }
}

const staleStep = { step: Type.String(), stale: Type.Array(Type.String()) };

export const AGENT_EVENTS = {
  'supervisor.planned': Type.Object({ version: Type.Number(), summary: Type.String() }),
  'supervisor.replan': Type.Object({
    step: Type.String(),
    reason: Type.String(),
    round: Type.Integer({ minimum: 1 }),
    call: Type.Optional(Type.String()),
  }),
  'supervisor.replanned': Type.Object({ step: Type.String(), summary: Type.String() }),
  'workflow.rerun': Type.Object({
    because: Type.Array(Type.Object(staleStep)),
    reopened: Type.Array(Type.String()),
    reasons: Type.Record(Type.String(), Type.String()),
  }),
  'workflow.stale-remains': Type.Object({ ...staleStep, message: Type.String() }),
  'workflow.superseded': Type.Object({
    step: Type.String(),
    replaced: Type.Array(Type.Object({ old: Type.String(), new: Type.String(), name: Type.String(), change: Type.String() })),
    stale: Type.Array(Type.String()),
  }),
};
