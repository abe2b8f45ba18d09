/**
 * Jobs persisted in the run's canvas event log: each transition is a `job.transition`
 * event under the key jobs/<id> carrying the whole JobRecord, progress is a throttled
 * `job.progress` event. The jobs list is a fold over the log, so a restarted process
 * (or a second reader such as the VS Code jobs view) rebuilds exactly the same list.
 */
import type { Actor, EventWriter } from '../canvas/types';
import { foldJobEvents, JOB_PROGRESS_EVENT, JOB_TRANSITION_EVENT, jobKey, type JobStore } from './jobStore';
import type { JobRecord, PwProgress } from './types';

/** The part of the canvas EventLog (canvas/eventLog.ts) the job store uses. */
export type JobEventLog = EventWriter;

export const HPC_ACTOR: Actor = { kind: 'framework', id: 'hpc' };

export class CanvasJobStore implements JobStore {
  constructor(private readonly log: JobEventLog) {}

  async recordTransition(job: JobRecord): Promise<void> {
    await this.log.append({ kind: JOB_TRANSITION_EVENT, key: jobKey(job.id), payload: job, actor: HPC_ACTOR });
  }

  async recordProgress(id: string, progress: PwProgress): Promise<void> {
    await this.log.append({ kind: JOB_PROGRESS_EVENT, key: jobKey(id), payload: { id, progress }, actor: HPC_ACTOR });
  }

  jobs(): JobRecord[] {
    return foldJobEvents(this.log.events());
  }
}
