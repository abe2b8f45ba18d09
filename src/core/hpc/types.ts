/**
 * The job contract: one model for every backend (local pw.x, SLURM over SSH, later
 * PBS/LSF), persisted through the canvas so a restart resumes without resubmitting.
 * Implementation: jobModel.ts, localRunner.ts, ssh/*.ts, schedulers/*.ts, jobService.ts.
 */
import type { PwProgress } from '../dft/qe/jobFacts';
export type JobState = 'draft' | 'validated' | 'submitted' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** How a job's error begins when its pw.x ended while no DREAMS process was watching it (the advisor reads it as interrupted). */
export const UNWATCHED_EXIT = 'pw.x ended while DREAMS was not watching';

export const TERMINAL_JOB_STATES: ReadonlySet<JobState> = new Set(['completed', 'failed', 'cancelled']);

export interface JobResources {
  ntasks: number;
  nodes: number;
  walltimeMinutes: number;
  memoryMb?: number;
  partition?: string;
  account?: string;
  qos?: string;
  /** Why these numbers: suggested, or overridden by an agent with a reason. */
  reason: string;
  /** What resources.ts suggested, kept when an override replaced it. */
  suggested?: Omit<JobResources, 'suggested'>;
}

/** Live progress parsed from pw.x output. */
/** pw.x's live progress, as its output is read (dft/qe/jobFacts.ts). */
export type { PwProgress } from '../dft/qe/jobFacts';

export interface JobFile {
  /** File name inside the job directory (no path separators). */
  name: string;
  /** Artifact holding the content (inputs) or created from it (outputs). */
  artifact?: string;
  sha256?: string;
  /** Local path the content is read from (pseudopotentials in the user's pseudo dir). */
  source?: string;
}

/** The Quantum ESPRESSO programs a job runs: pw.x, or a post-processing program on an earlier job's files. */
export const JOB_PROGRAMS = ['pw.x', 'bands.x', 'dos.x', 'projwfc.x'] as const;
export type JobProgram = (typeof JOB_PROGRAMS)[number];

/**
 * The earlier job whose QE scratch a job continues (an NSCF or bands run after its SCF, bands.x,
 * dos.x or projwfc.x after those): its <outdir>/<prefix>.save is copied into this job's own
 * directory before the program starts, so the earlier job's files are never changed.
 */
export interface JobParent {
  job: string;
  /** The save directory, relative to the parent's job directory ("out/si.save"). */
  save: string;
  /** Where the copy goes, relative to this job's directory. */
  into: string;
  /** The parent's directory where it ran (a remote path for a cluster job), at the time this job was created. */
  workDir?: string;
}

export interface JobRecord {
  /** Stable id, carried into the scheduler (job name / comment) so a retry finds it. */
  id: string;
  /** 'local' or a cluster profile name. */
  backend: string;
  state: JobState;
  program: JobProgram;
  /** Main input file name within the job directory. */
  input: string;
  /** Input files (the pw.x input) and pseudopotentials, by name. */
  files: JobFile[];
  pseudopotentials: JobFile[];
  outputs: JobFile[];
  resources?: JobResources;
  schedulerId?: string;
  /** Where the job runs: local directory or remote path. */
  workDir?: string;
  progress?: PwProgress;
  /** pw.x's own error text, or the scheduler's reason, when failed. */
  error?: string;
  exitCode?: number;
  createdAt: string;
  updatedAt: string;
  submittedAt?: string;
  startedAt?: string;
  endedAt?: string;
  /** Tool call that asked for the job. */
  call?: string;
  /** Local runs: process id (also the process group) of pw.x or its launcher. */
  pid?: number;
  /** Set before the scheduler is asked, so a restart retries (idempotently) a submission cut short. */
  submitRequestedAt?: string;
  /**
   * Remove the run's wavefunction files here once pw.x succeeds (a convergence test's are never
   * read again): the local runner does it, or the batch script on a cluster. See wavefunctions.ts.
   */
  discardWavefunctions?: WavefunctionPlace;
  /** The earlier job whose scratch this one continues. */
  parent?: JobParent;
  /**
   * Output files the program writes besides its standard output, brought back and hashed with
   * it: names, or patterns where '*' stands for any run of characters ("al.pdos_*").
   */
  collect?: string[];
}

/** Where a pw.x run in a job directory writes its wavefunctions. */
export interface WavefunctionPlace {
  /** outdir relative to the job directory, normalized ('.' for the directory itself). */
  outdir: string;
  prefix: string;
  /** The input leaves outdir to pw.x (./ unless ESPRESSO_TMPDIR is set where pw.x runs). */
  outdirDefaulted: boolean;
}

/** A cluster as the user configures it (settings / CLI config). */
export interface ClusterProfile {
  name: string;
  /** An ~/.ssh/config Host alias, or explicit host/port/user. */
  sshHost: string;
  port?: number;
  user?: string;
  identityFile?: string;
  scheduler: 'slurm' | 'pbs' | 'lsf';
  /** Remote directory under which job directories are made. */
  workRoot: string;
  partition?: string;
  account?: string;
  qos?: string;
  /** Lines run before pw.x in the batch script (module loads, environment). */
  prelude?: string[];
  pwCommand: string;
  remotePseudoDir?: string;
  limits?: { maxNtasks?: number; maxNodes?: number; maxWalltimeMinutes?: number; maxMemoryMb?: number; coresPerNode?: number };
  /** Seconds between status polls. */
  pollSeconds?: number;
  /** Further scheduler options, one per batch-script directive line (e.g. "--constraint=haswell"). */
  batchOptions?: string[];
}

/** A job's state as its scheduler reports it. */
export interface SchedulerStatus {
  state: JobState;
  reason?: string;
  exitCode?: number;
  /**
   * Set on a pending job the scheduler will not start as it was asked for (its request is
   * beyond a limit of the partition, QOS or account, or names an invalid account): what the
   * scheduler said, what it means and what to change. Waiting does not help such a job.
   */
  neverStarts?: string;
}

/** A scheduler as the remote runner drives it (SLURM now; PBS and LSF slot in). */
export interface SchedulerAdapter {
  readonly name: 'slurm' | 'pbs' | 'lsf';
  batchScript(job: JobRecord, profile: ClusterProfile): string;
  /** Command that submits the script in `dir` and prints the scheduler id. */
  submitCommand(dir: string, scriptName: string): string;
  parseSubmitOutput(stdout: string): string;
  /** One command for the state of every listed job (one call per poll cycle). */
  statusCommand(schedulerIds: string[]): string;
  parseStatus(stdout: string): Map<string, SchedulerStatus>;
  /** Command for jobs the queue no longer lists (accounting). */
  finishedCommand(schedulerIds: string[]): string;
  parseFinished(stdout: string): Map<string, SchedulerStatus>;
  /** Command that finds a job by our stable id (idempotent submission). */
  findByNameCommand(jobId: string): string;
  parseFindByName(stdout: string): string | undefined;
  cancelCommand(schedulerId: string): string;
  /** Command listing the partitions (queues) with their per-job limits; optional. */
  partitionsCommand?(): string;
  parsePartitions?(stdout: string): PartitionLimits[];
}

/** A partition's per-job limits as the scheduler states them (absent: unlimited or unknown). */
export interface PartitionLimits {
  name: string;
  isDefault: boolean;
  maxWalltimeMinutes?: number;
  maxNodes?: number;
}
