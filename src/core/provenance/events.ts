/**
 * The provenance record's events: a tool call opened and ended, an artifact registered, a
 * status change, a concern stamped, and the guard's verdicts on a call (recorded here, decided
 * by the guard). Declared into the event catalogue (canvas/types.ts EventCatalogue), with
 * what each must hold when read from disk (gathered by run/eventCatalogue.ts).
 */
import Type from 'typebox';
import type { ArtifactRecord, ArtifactStatus, Concern, ToolCallRecord, Verdict } from './types';

/** A call's end: its status, what it made, and what it said (the text its caller read). */
export interface CallEndPayload {
  id: string;
  status: ToolCallRecord['status'];
  endedAt: string;
  error?: string;
  /** What the tool said of its result (the text its caller read). */
  summary?: string;
  outputs: string[];
}

declare module '../canvas/types' {
  interface EventCatalogue {
    'provenance.call': ToolCallRecord;
    'provenance.call.end': CallEndPayload;
    'provenance.artifact': ArtifactRecord;
    'provenance.status': { ids: string[]; status: ArtifactStatus; reason: string };
    'provenance.concern': { id: string; concern: Concern };
    'guard.verdict': { call: string; verdicts: Verdict[] };
  }
}

const CALL_STATUSES = ['running', 'ok', 'failed', 'refused'] as const;
const verdict = Type.Object({
  tier: Type.String(),
  rule: Type.String(),
  level: Type.Enum(['pass', 'warn', 'fail']),
  reasons: Type.Array(Type.String()),
  judged: Type.Boolean(),
});
const concern = Type.Object({ source: Type.String(), level: Type.Enum(['warn', 'fail']), message: Type.String() });

export const PROVENANCE_EVENTS = {
  'provenance.call': Type.Object({
    id: Type.String(),
    tool: Type.String(),
    args: Type.Record(Type.String(), Type.Object({ value: Type.Optional(Type.Unknown()) })),
    reasons: Type.Record(Type.String(), Type.String()),
    context: Type.String(),
    verdicts: Type.Array(verdict),
    agent: Type.Object({ role: Type.String() }),
    startedAt: Type.String(),
    status: Type.Enum(CALL_STATUSES),
    outputs: Type.Array(Type.String()),
  }),
  'provenance.call.end': Type.Object({
    id: Type.String(),
    status: Type.Enum(CALL_STATUSES),
    endedAt: Type.String(),
    outputs: Type.Array(Type.String()),
  }),
  'provenance.artifact': Type.Object({
    id: Type.String(),
    kind: Type.String(),
    name: Type.String(),
    contentHash: Type.String(),
    creator: Type.String(),
    inputs: Type.Array(Type.String()),
    concerns: Type.Array(concern),
    status: Type.Enum(['final', 'provisional', 'stale']),
    createdAt: Type.String(),
  }),
  'provenance.status': Type.Object({
    ids: Type.Array(Type.String()),
    status: Type.Enum(['final', 'provisional', 'stale']),
    reason: Type.String(),
  }),
  'provenance.concern': Type.Object({ id: Type.String(), concern }),
  'guard.verdict': Type.Object({ call: Type.String(), verdicts: Type.Array(verdict) }),
};
