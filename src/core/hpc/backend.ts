/**
 * What the job service asks of a backend (local pw.x, a cluster over SSH), and how a
 * backend reports back. A backend never writes job state itself: every change goes
 * through JobUpdates, which checks the state machine and persists before returning.
 */
import type { JobRecord, JobState, PwProgress } from './types';

export type JobPatch = Partial<Omit<JobRecord, 'id' | 'backend' | 'program' | 'createdAt' | 'state'>>;

export interface JobUpdates {
  transition(id: string, to: JobState, patch?: JobPatch): Promise<JobRecord>;
  update(id: string, patch: JobPatch): Promise<JobRecord>;
  progress(id: string, progress: PwProgress): void;
  get(id: string): JobRecord | undefined;
  /** Local directory holding the job's inputs and, once finished, its outputs. */
  localDir(id: string): string;
}

export interface JobBackend {
  readonly name: string;
  /** Take a validated job; resolves once the backend has accepted it (not when it ends). */
  submit(job: JobRecord): Promise<void>;
  /** Pick a job up again after a restart, without starting it twice. */
  resume(job: JobRecord): Promise<void>;
  cancel(job: JobRecord): Promise<void>;
  dispose(): Promise<void>;
}
