/**
 * The plan's events: a step started (which attempt, by which worker) and ended (done or not,
 * and why). Declared into the event catalogue (canvas/types.ts EventCatalogue), with what each
 * must hold when read from disk.
 */
import Type from 'typebox';
import type { StepEndPayload, StepStartPayload } from './stepRecords';

declare module '../canvas/types' {
  interface EventCatalogue {
    'step.start': StepStartPayload;
    'step.end': StepEndPayload;
  }
}

export const PLAN_EVENTS = {
  'step.start': Type.Object({ id: Type.String(), attempt: Type.Integer({ minimum: 1 }), worker: Type.String(), tool: Type.String() }),
  'step.end': Type.Object({ id: Type.String(), attempt: Type.Integer({ minimum: 1 }), ok: Type.Boolean(), summary: Type.String() }),
};
