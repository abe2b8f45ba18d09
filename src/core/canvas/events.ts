/**
 * What the canvas's own events (EventCatalogue in types.ts) must hold when read from disk:
 * the run's start and state, key writes and verifications, notebook edits.
 * run/eventCatalogue.ts gathers these with every room's.
 */
import Type from 'typebox';
import type { EventKind } from './types';

const RUN_STATES = ['created', 'running', 'paused', 'waiting-approval', 'stopped', 'completed', 'failed'] as const;

export const CANVAS_EVENTS = {
  'run.start': Type.Object({
    runId: Type.String(),
    objective: Type.String(),
    workflow: Type.Optional(Type.String()),
    settings: Type.Record(Type.String(), Type.Unknown()),
    software: Type.Record(Type.String(), Type.String()),
  }),
  'run.state': Type.Object({ state: Type.Enum(RUN_STATES), reason: Type.Optional(Type.String()) }),
  'key.write': Type.Object({ value: Type.Optional(Type.Unknown()), reason: Type.String(), version: Type.Integer({ minimum: 1 }) }),
  'key.verified': Type.Object({ version: Type.Integer({ minimum: 1 }), reason: Type.String() }),
  'user.edit': Type.Object({ key: Type.String(), value: Type.Optional(Type.Unknown()), reason: Type.String() }),
} satisfies Partial<Record<EventKind, object>>;
