/**
 * The one job service the CLI, the HPC agent's tools and the VS Code jobs view share.
 * It owns the jobs list (a fold over the run's log), the state machine, staging of
 * input files under <run>/jobs/<id>/, and hands jobs to backends. Opening it on an
 * existing run resumes every unfinished job without submitting anything twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JobBackend, JobPatch, JobUpdates } from './backend';
import { sha256File, sha256Text } from './fileHash';
import type { JobStore } from './jobStore';
import { checkJobFileName, isTerminal, JOB_ID_PATTERN, newJobId, transitionJob, updateJob } from './jobModel';
import { LOCAL_PSEUDO_DIR } from './localRunner';
import { checkPwInputForJob } from './inputChecks';
import { wavefunctionPlace } from './wavefunctions';
import { continuation } from './continuation';
import { JOB_PROGRAMS, type JobFile, type JobProgram, type JobRecord, type JobResources, type JobState, type PwProgress } from './types';

export interface JobSpec {
  /** 'local' or a cluster profile name. */
  backend: string;
  input: { name: string; text: string; artifact?: string };
  pseudopotentials?: { name: string; path: string; artifact?: string }[];
  resources?: JobResources;
  /** Tool call that asked for the job. */
  call?: string;
  /** A caller-chosen stable id: creating it again returns the existing job. */
  id?: string;
  /**
   * Remove the run's wavefunction files once pw.x succeeds (a convergence test). Ignored, and
   * said so by `discardWavefunctions` staying unset on the record, when the input's outdir is
   * outside the job directory.
   */
  discardWavefunctions?: boolean;
  /** The program to run (default pw.x). */
  program?: JobProgram;
  /**
   * Continue a completed job of the same backend: its <outdir>/<prefix>.save is copied into
   * this job's outdir before the program runs (the prefix must be the same).
   */
  parent?: { job: string };
  /** Further output files to bring back: names or patterns with '*' ("al.pdos_*"). */
  collect?: string[];
}

export interface JobServiceOptions {
  store: JobStore;
  /** The run directory; local job directories are <runDir>/jobs/<id>/. */
  runDir: string;
  /** Makes the backend for 'local' or a cluster profile name. */
  backend: (name: string, updates: JobUpdates) => JobBackend;
  /** Least time between two persisted progress events of one job. */
  progressIntervalMs?: number;
}

export type JobListener = (job: JobRecord) => void;

export class JobService {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly backends = new Map<string, JobBackend>();
  private readonly listeners = new Set<JobListener>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly lastProgressWrite = new Map<string, number>();
  private readonly updates: JobUpdates;

  private constructor(private readonly options: JobServiceOptions) {
    for (const job of options.store.jobs()) this.jobs.set(job.id, job);
    this.updates = {
      // Several observers report the end of a job (a cancel, the scheduler poll, the process
      // exit); once a job is final the first final state stands and later reports change nothing.
      transition: (id, to, patch) =>
        this.serial(id, async () => {
          const current = this.require(id);
          if (isTerminal(current.state) && isTerminal(to)) return current;
          return this.apply(id, (j) => transitionJob(j, to, patch));
        }),
      update: (id, patch) => this.serial(id, () => this.apply(id, (j) => updateJob(j, patch))),
      progress: (id, progress) => this.onProgress(id, progress),
      get: (id) => this.jobs.get(id),
      localDir: (id) => this.jobDir(id),
    };
  }

  /** Open the service on a run's store and resume every job that had not finished. */
  static async open(options: JobServiceOptions): Promise<JobService> {
    const service = new JobService(options);
    await service.resumeAll();
    return service;
  }

  list(): JobRecord[] {
    return [...this.jobs.values()];
  }

  get(id: string): JobRecord | undefined {
    return this.jobs.get(id);
  }

  onDidChange(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  jobDir(id: string): string {
    return path.join(this.options.runDir, 'jobs', id);
  }

  /** A new draft job with its input written to the job directory. */
  async create(spec: JobSpec): Promise<JobRecord> {
    checkJobFileName(spec.input.name, 'input file name');
    const pseudos = spec.pseudopotentials ?? [];
    for (const p of pseudos) checkJobFileName(p.name, 'pseudopotential name');
    if (spec.id !== undefined) {
      if (!JOB_ID_PATTERN.test(spec.id)) {
        throw new Error(
          `job id ${JSON.stringify(spec.id)} is not usable as a scheduler job name; use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit).`,
        );
      }
      const existing = this.jobs.get(spec.id);
      if (existing) {
        if (existing.files[0]?.sha256 === sha256Text(spec.input.text)) return existing;
        throw new Error(`job ${spec.id} already exists with a different input; choose another id, or read the existing job.`);
      }
    }
    const id = spec.id ?? newJobId();
    const dir = this.jobDir(id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, spec.input.name), spec.input.text);
    const pseudopotentials: JobFile[] = [];
    if (pseudos.length > 0) fs.mkdirSync(path.join(dir, LOCAL_PSEUDO_DIR), { recursive: true });
    for (const p of pseudos) {
      const source = path.resolve(p.path);
      if (!fs.existsSync(source)) {
        throw new Error(`pseudopotential ${p.name}: ${source} does not exist; check the pseudopotential directory setting.`);
      }
      const link = path.join(dir, LOCAL_PSEUDO_DIR, p.name);
      fs.rmSync(link, { force: true });
      fs.symlinkSync(source, link);
      pseudopotentials.push({ name: p.name, source, sha256: await sha256File(source), ...(p.artifact ? { artifact: p.artifact } : {}) });
    }
    const program = spec.program ?? 'pw.x';
    if (!JOB_PROGRAMS.includes(program))
      throw new Error(`job program ${JSON.stringify(program)} is not one DREAMS runs; use one of ${JOB_PROGRAMS.join(', ')}.`);
    for (const c of spec.collect ?? []) checkJobFileName(c.replace(/\*/g, 'x'), 'collected output pattern');
    const parent = spec.parent
      ? continuation(this.require(spec.parent.job), program, spec.input.text, spec.backend, (id) => this.jobDir(id))
      : undefined;
    const discard = spec.discardWavefunctions && program === 'pw.x' ? wavefunctionPlace(spec.input.text) : undefined;
    const now = new Date().toISOString();
    const job: JobRecord = {
      id,
      backend: spec.backend,
      state: 'draft',
      program,
      input: spec.input.name,
      files: [
        { name: spec.input.name, sha256: sha256Text(spec.input.text), ...(spec.input.artifact ? { artifact: spec.input.artifact } : {}) },
      ],
      pseudopotentials,
      outputs: [],
      createdAt: now,
      updatedAt: now,
      ...(spec.resources ? { resources: spec.resources } : {}),
      ...(spec.call ? { call: spec.call } : {}),
      ...(discard ? { discardWavefunctions: discard } : {}),
      ...(parent ? { parent } : {}),
      ...(spec.collect?.length ? { collect: [...spec.collect] } : {}),
    };
    await this.serial(id, async () => {
      await this.options.store.recordTransition(job);
      this.set(job);
    });
    return job;
  }

  /** Check the job can run as staged; moves draft → validated or explains what to fix. */
  async validate(id: string): Promise<JobRecord> {
    const job = this.require(id);
    if (job.state !== 'draft') return job;
    const dir = this.jobDir(id);
    const inputPath = path.join(dir, job.input);
    if (!fs.existsSync(inputPath)) throw new Error(`job ${id}: its input ${inputPath} is missing; create the job again.`);
    const inputHash = await sha256File(inputPath);
    if (inputHash !== job.files[0]?.sha256) {
      throw new Error(
        `job ${id}: the input ${inputPath} changed after the job was created (sha256 ${inputHash.slice(0, 12)}… ≠ ${job.files[0]?.sha256?.slice(0, 12)}…); create a new job from the changed input.`,
      );
    }
    for (const p of job.pseudopotentials) {
      const now = p.source && fs.existsSync(p.source) ? await sha256File(p.source) : undefined;
      if (now !== p.sha256) {
        throw new Error(
          `job ${id}: pseudopotential ${p.name} (${p.source}) ${now ? 'changed' : 'disappeared'} after the job was created; create a new job so the recorded hash matches what runs.`,
        );
      }
    }
    checkPwInputForJob(fs.readFileSync(inputPath, 'utf8'), job);
    this.backendFor(job); // an unknown backend is refused here, before anything is recorded
    return this.updates.transition(id, 'validated');
  }

  /** Validate if needed and hand the job to its backend. Resolves once accepted. */
  async submit(id: string): Promise<JobRecord> {
    let job = this.require(id);
    if (job.state === 'draft') job = await this.validate(id);
    if (job.state !== 'validated') return job; // already submitted: submitting again is a no-op
    await this.backendFor(job).submit(job);
    return this.require(id);
  }

  async cancel(id: string): Promise<JobRecord> {
    const job = this.require(id);
    if (isTerminal(job.state)) return job;
    if (job.state === 'draft' || (job.state === 'validated' && !job.submitRequestedAt)) {
      return this.updates.transition(id, 'cancelled', { error: 'cancelled before submission' });
    }
    await this.backendFor(job).cancel(job);
    return this.require(id);
  }

  /** Resolves with the job once it reaches a final state. */
  waitFor(id: string): Promise<JobRecord> {
    const job = this.require(id);
    if (isTerminal(job.state)) return Promise.resolve(job);
    return new Promise((resolve) => {
      const off = this.onDidChange((j) => {
        if (j.id === id && isTerminal(j.state)) {
          off();
          resolve(j);
        }
      });
    });
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.backends.values()].map((b) => b.dispose()));
    await Promise.allSettled([...this.queues.values()]);
  }

  private async resumeAll(): Promise<void> {
    for (const job of this.list()) {
      if (isTerminal(job.state) || job.state === 'draft') continue;
      if (job.state === 'validated' && !job.submitRequestedAt) continue;
      await this.backendFor(job).resume(job);
    }
  }

  private backendFor(job: JobRecord): JobBackend {
    let b = this.backends.get(job.backend);
    if (!b) {
      b = this.options.backend(job.backend, this.updates);
      this.backends.set(job.backend, b);
    }
    return b;
  }

  private require(id: string): JobRecord {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no job ${JSON.stringify(id)} in this run; list the run's jobs to find its id.`);
    return job;
  }

  /** Changes to one job are applied one at a time, in order. */
  private serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prior = this.queues.get(id) ?? Promise.resolve();
    const next = prior.then(fn, fn);
    this.queues.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  }

  private async apply(id: string, change: (job: JobRecord) => JobRecord): Promise<JobRecord> {
    const next = change(this.require(id));
    await this.options.store.recordTransition(next);
    this.set(next);
    return next;
  }

  private set(job: JobRecord): void {
    this.jobs.set(job.id, job);
    for (const l of this.listeners) l(job);
  }

  private onProgress(id: string, progress: PwProgress): void {
    const job = this.jobs.get(id);
    if (!job || isTerminal(job.state)) return;
    this.set({ ...job, progress });
    const now = Date.now();
    if (now - (this.lastProgressWrite.get(id) ?? 0) < (this.options.progressIntervalMs ?? 2000)) return;
    this.lastProgressWrite.set(id, now);
    void this.serial(id, () => this.options.store.recordProgress(id, progress));
  }
}

export type { JobPatch, JobState };
