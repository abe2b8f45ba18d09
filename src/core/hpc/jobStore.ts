/**
 * Where job transitions are persisted. The run's canvas event log is the store
 * (canvasJobStore.ts): each transition is a `job.transition` event carrying the whole
 * JobRecord, so the jobs list is a fold over the log and a restart rebuilds it exactly.
 */
import type { EventBody } from '../canvas/types';
import type { JobRecord, PwProgress } from './types';

export interface JobStore {
  /** Durably record a job's new snapshot; resolves once it is on disk. */
  recordTransition(job: JobRecord): Promise<void>;
  /** Record live progress (callers throttle). */
  recordProgress(id: string, progress: PwProgress): Promise<void>;
  /** The latest snapshot of every job recorded so far, in creation order. */
  jobs(): JobRecord[];
}

export const JOB_TRANSITION_EVENT = 'job.transition';
export const JOB_PROGRESS_EVENT = 'job.progress';
export const jobKey = (id: string): string => `jobs/${id}`;

/**
 * The jobs list as a fold over canvas events, the one every host uses (the job service, the
 * CLI, the VS Code jobs view): the last snapshot wins, and the latest progress stays on a job
 * until a snapshot brings its own.
 */
export function foldJobEvents(events: Iterable<EventBody>): JobRecord[] {
  const jobs = new Map<string, JobRecord>();
  for (const e of events) {
    if (e.kind === JOB_TRANSITION_EVENT) {
      const job = e.payload;
      const prior = jobs.get(job.id);
      jobs.set(job.id, { ...job, ...(job.progress === undefined && prior?.progress ? { progress: prior.progress } : {}) });
    } else if (e.kind === JOB_PROGRESS_EVENT) {
      const { id, progress } = e.payload;
      const job = jobs.get(id);
      if (job) jobs.set(id, { ...job, progress });
    }
  }
  return [...jobs.values()];
}

/** A store held in memory only: for unit tests of the state machine and service logic. */
export class MemoryJobStore implements JobStore {
  readonly events: EventBody<typeof JOB_TRANSITION_EVENT | typeof JOB_PROGRESS_EVENT>[] = [];
  async recordTransition(job: JobRecord): Promise<void> {
    this.events.push({ kind: JOB_TRANSITION_EVENT, payload: structuredClone(job) });
  }
  async recordProgress(id: string, progress: PwProgress): Promise<void> {
    this.events.push({ kind: JOB_PROGRESS_EVENT, payload: { id, progress } });
  }
  jobs(): JobRecord[] {
    return foldJobEvents(this.events);
  }
}
