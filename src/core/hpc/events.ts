/**
 * The job layer's events: every job transition (the whole JobRecord, so the jobs list is a
 * fold over the log) and throttled live progress. Declared into the event catalogue
 * (canvas/types.ts EventCatalogue), with what each must hold when read from disk.
 */
import Type from 'typebox';
import type { JobRecord, PwProgress } from './types';

declare module '../canvas/types' {
  interface EventCatalogue {
    'job.transition': JobRecord;
    'job.progress': { id: string; progress: PwProgress };
  }
}

const JOB_STATES = ['draft', 'validated', 'submitted', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;

export const JOB_EVENTS = {
  'job.transition': Type.Object({
    id: Type.String(),
    backend: Type.String(),
    state: Type.Enum(JOB_STATES),
    program: Type.String(),
    input: Type.String(),
    files: Type.Array(Type.Object({ name: Type.String() })),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  }),
  'job.progress': Type.Object({ id: Type.String(), progress: Type.Object({}) }),
};
