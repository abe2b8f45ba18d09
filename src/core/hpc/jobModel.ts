/**
 * The job state machine. Every backend moves a job through the same states; a move the
 * table does not allow is refused, so a late or duplicated scheduler report can never
 * resurrect a finished job or skip it backwards.
 */
import { DreamsError } from '../errors';
import crypto from 'node:crypto';
import { TERMINAL_JOB_STATES, type JobRecord, type JobState } from './types';

/**
 * Allowed moves. A fast job may be seen for the first time already running or finished,
 * so a state may skip forward; nothing moves backwards and terminal states are final.
 */
export const JOB_TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  draft: ['validated', 'cancelled'],
  validated: ['submitted', 'failed', 'cancelled'],
  submitted: ['queued', 'running', 'completed', 'failed', 'cancelled'],
  queued: ['running', 'completed', 'failed', 'cancelled'],
  running: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export class IllegalJobTransitionError extends DreamsError<'illegal-transition'> {
  constructor(
    readonly jobId: string,
    readonly from: JobState,
    readonly to: JobState,
  ) {
    const allowed = JOB_TRANSITIONS[from];
    super(
      'illegal-transition',
      `job ${jobId} cannot go from '${from}' to '${to}': ` +
        (allowed.length === 0
          ? `'${from}' is final. Create a new job to run it again.`
          : `from '${from}' it may only go to ${allowed.map((s) => `'${s}'`).join(', ')}.`),
    );
    this.name = 'IllegalJobTransitionError';
  }
}

export const isTerminal = (state: JobState): boolean => TERMINAL_JOB_STATES.has(state);

export function canTransition(from: JobState, to: JobState): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

/** Fields a transition may not change: they identify the job. */
type Identity = 'id' | 'backend' | 'program' | 'createdAt' | 'state';

/**
 * The job after moving to `to`, with `patch` applied and the matching timestamp set.
 * Throws IllegalJobTransitionError for a move the table does not allow.
 */
export function transitionJob(job: JobRecord, to: JobState, patch: Partial<Omit<JobRecord, Identity>> = {}, now = new Date()): JobRecord {
  if (!canTransition(job.state, to)) throw new IllegalJobTransitionError(job.id, job.state, to);
  const at = now.toISOString();
  const next: JobRecord = { ...job, ...patch, state: to, updatedAt: at };
  if (to === 'submitted' && !next.submittedAt) next.submittedAt = at;
  if (to === 'running' && !next.startedAt) next.startedAt = at;
  if (isTerminal(to) && !next.endedAt) next.endedAt = at;
  return next;
}

/** The job with `patch` applied and no change of state (resources, scheduler id, outputs). */
export function updateJob(job: JobRecord, patch: Partial<Omit<JobRecord, Identity>>, now = new Date()): JobRecord {
  if (isTerminal(job.state)) {
    throw new Error(`job ${job.id} is '${job.state}' and can no longer change; create a new job instead.`);
  }
  return { ...job, ...patch, updatedAt: now.toISOString() };
}

/**
 * A stable job id. It becomes the scheduler's job name and the job's directory name,
 * so it uses only characters every scheduler and file system accept.
 */
export function newJobId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `job-${stamp}-${crypto.randomBytes(4).toString('hex')}`;
}

export const JOB_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A job file name: one path component, no separators, not `.` or `..`. */
export function checkJobFileName(name: string, what: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new Error(
      `${what} ${JSON.stringify(name)} is not a plain file name; give a name without '/', '\\' or NUL (it is placed inside the job directory).`,
    );
  }
}
