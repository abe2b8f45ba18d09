/**
 * The run's own events: settings changed on resume (budget, approval policy, ...) and the
 * calls a restart found left running and settled. Declared into the event catalogue
 * (canvas/types.ts EventCatalogue), with what each must hold when read from disk.
 */
import Type from 'typebox';
import type { RunSettings } from './settings';

/** What a restart did with the calls a stopped process left open. */
export interface RecoveredPayload {
  reattached: string[];
  failed: string[];
  finished?: string[];
  rejected?: string[];
}

declare module '../canvas/types' {
  interface EventCatalogue {
    /** Settings changed for the rest of the run (laid over run.start's). */
    'run.settings': Partial<RunSettings>;
    'run.recovered': RecoveredPayload;
  }
}

export const RUN_EVENTS = {
  'run.settings': Type.Record(Type.String(), Type.Unknown()),
  'run.recovered': Type.Object({ reattached: Type.Array(Type.String()), failed: Type.Array(Type.String()) }),
};
