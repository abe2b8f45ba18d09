/**
 * Cluster backend: stages a job over one SSH connection (inputs by SFTP, pseudopotentials
 * into a content-addressed store so an unchanged file is never sent twice), submits it
 * idempotently, and polls every job of the cluster with one scheduler command per cycle.
 *
 * Idempotent submission: the scheduler id is written next to the job on the cluster in
 * the same shell that ran the submit command, and the job's stable id is its scheduler
 * job name; a retry (after a dropped link or a crash) finds either and submits nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JobBackend, JobUpdates } from './backend';
import { sha256File } from './fileHash';
import { canTransition, isTerminal } from './jobModel';
import { errorNameFor, outputNameFor } from './localRunner';
import { describePwInputSize, readCrashBeside, readPwOutcome } from '../dft/qe/jobFacts';
import { beyondLimits, suggestResourcesWithin } from './resources';
import { workRootProblem } from './clusterProfile';
import { SCHEDULER_ID_FILE } from './schedulers/slurm';
import { schedulerFor } from './schedulers';
import type { ClusterProfile, JobFile, JobRecord, PartitionLimits, SchedulerAdapter, SchedulerStatus } from './types';
import { shellQuote } from './shellQuote';
import { matchesCollected } from './continuation';
import { ConnectionLostError, SshRefusedError, type ClusterConnection } from './ssh/connection';
import { silentLogger, type Logger } from '../logger';

export const BATCH_SCRIPT_NAME = 'dreams-job.sh';
const REMOTE_PSEUDO_LINKS = 'pseudo';
/** The file pw.x writes its error to in its working directory (the job's directory on the cluster). */
const PW_CRASH_FILE = 'CRASH';

export interface RemoteRunnerOptions {
  profile: ClusterProfile;
  connection: ClusterConnection;
  scheduler?: SchedulerAdapter;
  /** Overrides profile.pollSeconds (default 30 s). */
  pollSeconds?: number;
  /** Poll cycles that failed (the connection logs its own commands). */
  logger?: Logger;
}

export interface RemoteRunnerStats {
  pollCycles: number;
  statusCommands: number;
  finishedCommands: number;
  submitCommands: number;
  filesUploaded: number;
  filesSkipped: number;
}

export class RemoteRunner implements JobBackend {
  readonly name: string;
  readonly stats: RemoteRunnerStats = {
    pollCycles: 0,
    statusCommands: 0,
    finishedCommands: 0,
    submitCommands: 0,
    filesUploaded: 0,
    filesSkipped: 0,
  };
  private readonly scheduler: SchedulerAdapter;
  private readonly watched = new Set<string>();
  private readonly finalizing = new Set<string>();
  private root: Promise<{ work: string; pseudo: string }> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private disposed = false;
  private partitions: Promise<PartitionLimits[] | undefined> | undefined;

  private readonly log: Logger;

  constructor(
    private readonly updates: JobUpdates,
    private readonly options: RemoteRunnerOptions,
  ) {
    this.name = options.profile.name;
    this.log = (options.logger ?? silentLogger).scoped(`jobs ${options.profile.name}`);
    this.scheduler = options.scheduler ?? schedulerFor(options.profile.scheduler);
  }

  private get connection(): ClusterConnection {
    return this.options.connection;
  }

  async submit(job: JobRecord): Promise<void> {
    let current = job;
    if (!current.resources) {
      const input = fs.readFileSync(path.join(this.updates.localDir(job.id), job.input), 'utf8');
      const partition = await this.partition(this.options.profile.partition);
      const sizedLike = job.parent ? this.updates.get(job.parent.job)?.resources : undefined;
      current = await this.updates.update(job.id, {
        resources:
          job.program !== 'pw.x'
            ? // a post-processing program works on the run it continues: sized like it (or one task)
              sizedLike
              ? { ...sizedLike, reason: `sized like job ${job.parent!.job}, whose files it reads` }
              : { ntasks: 1, nodes: 1, walltimeMinutes: 30, reason: `${job.program} on one task` }
            : suggestResourcesWithin(describePwInputSize(input), this.options.profile, partition),
      });
    }
    // Whoever sized the job, the profile's limits hold: a request beyond them is refused here
    // with the limit, not sent to be refused by the scheduler in its own words.
    const over = current.resources ? beyondLimits(current.resources, this.options.profile) : [];
    if (over.length > 0) {
      throw new Error(
        `job ${job.id} asks for more than cluster profile "${this.name}" allows (${over.join(', ')}); nothing was submitted. ` +
          "Size it within the profile's limits, or raise them in the profile if the cluster allows it.",
      );
    }
    // The work root as the cluster resolves it (~ is the login home there), whoever wrote the
    // profile (a profiles file is checked when read, VS Code settings are not): a root SLURM or
    // pw.x cannot use is refused here with the reason, not left to fail as "JobLaunchFailure".
    const { work } = await this.roots();
    const rootProblem = workRootProblem({ workRoot: work, scheduler: this.options.profile.scheduler });
    if (rootProblem) {
      throw new Error(
        `job ${job.id} cannot run under the work root of cluster profile "${this.name}" (${this.options.profile.workRoot} on the cluster): ${rootProblem} Nothing was submitted.`,
      );
    }
    if (!current.submitRequestedAt) current = await this.updates.update(job.id, { submitRequestedAt: new Date().toISOString() });
    const dir = `${work}/${job.id}`;
    const schedulerId = await this.retrying(async () => {
      await this.stage(current, dir);
      return this.submitOnce(current, dir);
    });
    await this.updates.transition(job.id, 'submitted', { schedulerId, workDir: dir });
    this.watch(job.id);
  }

  async resume(job: JobRecord): Promise<void> {
    if (job.state === 'validated') return this.submit(job);
    if (!isTerminal(job.state) && job.schedulerId) this.watch(job.id);
  }

  async cancel(job: JobRecord): Promise<void> {
    const current = this.updates.get(job.id) ?? job;
    let sid = current.schedulerId;
    if (!sid) {
      const found = await this.connection.exec(this.scheduler.findByNameCommand(job.id));
      sid = this.scheduler.parseFindByName(found.stdout);
    }
    if (sid) {
      const r = await this.connection.exec(this.scheduler.cancelCommand(sid));
      if (r.code !== 0) {
        if (/already completing or completed|Invalid job id/i.test(r.stderr)) {
          await this.pollOnce(); // it ended on its own first: report what really happened
          return;
        }
        throw new Error(
          `could not cancel job ${job.id} (scheduler id ${sid}) on ${this.name}: ${r.stderr.trim() || `exit ${r.code}`}. Try again, or cancel it on the cluster with ${this.scheduler.cancelCommand(sid)}.`,
        );
      }
    }
    const outputs = current.workDir ? await this.download(current, current.workDir, sid).catch(() => []) : [];
    this.watched.delete(job.id);
    await this.updates.transition(job.id, 'cancelled', {
      error: `cancelled${sid ? ` (${this.scheduler.cancelCommand(sid)})` : ' before the scheduler accepted it'}`,
      outputs,
      ...(sid ? { schedulerId: sid } : {}),
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
  }

  /** One poll cycle: one status command for every watched job, plus accounting for jobs the queue forgot. */
  async pollOnce(): Promise<void> {
    if (this.polling) return this.polling;
    this.polling = this.poll().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async poll(): Promise<void> {
    const jobs = [...this.watched]
      .map((id) => this.updates.get(id))
      .filter((j): j is JobRecord => !!j && !isTerminal(j.state) && !!j.schedulerId);
    if (jobs.length === 0) return;
    this.stats.pollCycles++;
    const ids = jobs.map((j) => j.schedulerId!);
    this.stats.statusCommands++;
    // polls recur every cycle: logged at debug, a failure at warn
    const status = await this.connection.exec(this.scheduler.statusCommand(ids), undefined, 'debug');
    const states = this.scheduler.parseStatus(status.stdout);
    const missing = ids.filter((id) => !states.has(id));
    if (missing.length > 0) {
      this.stats.finishedCommands++;
      const finished = await this.connection.exec(this.scheduler.finishedCommand(missing), undefined, 'debug');
      for (const [id, s] of this.scheduler.parseFinished(finished.stdout)) states.set(id, s);
    }
    for (const job of jobs) {
      const s = states.get(job.schedulerId!);
      if (!s) continue; // neither the queue nor accounting knows it yet: ask again next cycle
      if (isTerminal(s.state)) await this.finalize(job, s);
      else if (s.neverStarts) await this.withdraw(job, s.neverStarts);
      else if (s.state !== job.state && canTransition(job.state, s.state)) {
        await this.updates.transition(job.id, s.state, { error: s.state === 'queued' ? s.reason : undefined });
      }
    }
  }

  private watch(id: string): void {
    this.watched.add(id);
    if (!this.timer && !this.disposed) this.schedulePoll();
  }

  private schedulePoll(): void {
    const seconds = this.options.pollSeconds ?? this.options.profile.pollSeconds ?? 30;
    this.timer = setTimeout(async () => {
      try {
        await this.pollOnce();
      } catch (e) {
        if (e instanceof SshRefusedError) await this.abandonRefused(e);
        // a dropped link or a scheduler hiccup: the jobs keep their state until the next cycle
        else this.log.warn(`polling the jobs of ${this.name} failed (${(e as Error).message}); trying again in ${seconds} s`);
      }
      this.timer = undefined;
      const active = [...this.watched].some((id) => !isTerminal(this.updates.get(id)?.state ?? 'completed'));
      if (active && !this.disposed) this.schedulePoll();
    }, seconds * 1000);
  }

  /**
   * The cluster refused the connection for good (its host key changed, the login is no longer
   * accepted): no job of it can be followed, so each fails with the refusal, which says what
   * changed (the fingerprints) and what to do (ssh-keygen -R). Polling on would wait forever.
   */
  private async abandonRefused(refusal: SshRefusedError): Promise<void> {
    for (const id of [...this.watched]) {
      const job = this.updates.get(id);
      this.watched.delete(id);
      if (!job || isTerminal(job.state)) continue;
      const sid = job.schedulerId;
      await this.updates
        .transition(id, 'failed', {
          error:
            `${this.name} refused the connection, so this job can no longer be followed: ${refusal.message}` +
            (sid
              ? ` The job (${this.scheduler.name.toUpperCase()} id ${sid}) may still be running there: once you can log in again, check it and cancel it if it is not needed (${this.scheduler.cancelCommand(sid)}).`
              : ''),
        })
        .catch((e: Error) => this.log.error(`could not record job ${id} as failed: ${e.message}`));
    }
  }

  /**
   * The per-job limits of a partition (the default one when none is named), read from the
   * scheduler once per runner; undefined when the scheduler cannot say.
   */
  async partition(name: string | undefined): Promise<PartitionLimits | undefined> {
    if (!this.scheduler.partitionsCommand || !this.scheduler.parsePartitions) return undefined;
    // Limits are a refinement: a scheduler that cannot list them (exit status, odd output)
    // is not asked again, and nothing here stops a submission. A dropped link asks again later.
    this.partitions ??= this.connection.exec(this.scheduler.partitionsCommand()).then(
      (r) => {
        try {
          return r.code === 0 ? this.scheduler.parsePartitions!(r.stdout) : [];
        } catch {
          return [];
        }
      },
      () => {
        this.partitions = undefined;
        return undefined;
      },
    );
    const list = await this.partitions;
    return list?.find((p) => (name ? p.name === name : p.isDefault));
  }

  /**
   * A pending job the scheduler will not start as submitted: cancel it, so it holds no place in
   * the queue and cannot start later unseen, and fail it with the scheduler's reason and what
   * to change. Waiting would hold the run forever; nothing ran, so no core-hour is spent.
   */
  private async withdraw(job: JobRecord, why: string): Promise<void> {
    if (this.finalizing.has(job.id)) return;
    this.finalizing.add(job.id);
    try {
      const sid = job.schedulerId!;
      const r = await this.connection.exec(this.scheduler.cancelCommand(sid));
      if (r.code !== 0) return; // it started or ended meanwhile: the next cycle reports what really happened
      this.watched.delete(job.id);
      const part = await this.partition(job.resources?.partition ?? this.options.profile.partition).catch(() => undefined);
      const asked = job.resources ? ` The job asked for ${job.resources.walltimeMinutes} min on ${job.resources.nodes} node(s)` : '';
      const allowed = part
        ? `; partition "${part.name}" allows a job ${part.maxWalltimeMinutes !== undefined ? `${part.maxWalltimeMinutes} min` : 'unlimited time'}${part.maxNodes !== undefined ? ` on up to ${part.maxNodes} node(s)` : ''}.`
        : asked
          ? '.'
          : '';
      await this.updates.transition(job.id, 'failed', {
        error: `${this.scheduler.name.toUpperCase()} will not start this job as it was asked for (${why}).${asked}${allowed} Nothing ran; the job was withdrawn (${this.scheduler.cancelCommand(sid)}) so it does not wait in the queue forever.`,
      });
    } finally {
      this.finalizing.delete(job.id);
    }
  }

  private async finalize(job: JobRecord, s: SchedulerStatus): Promise<void> {
    if (this.finalizing.has(job.id)) return;
    this.finalizing.add(job.id);
    try {
      const outputs = await this.download(job, job.workDir!, job.schedulerId);
      await this.downloadCrash(job.id, job.workDir!);
      const local = path.join(this.updates.localDir(job.id), outputNameFor(job.input));
      // pw.x's error is read from its CRASH file when the output lacks it, as the local runner does
      const outcome = readPwOutcome(fs.existsSync(local) ? fs.readFileSync(local, 'utf8') : '', readCrashBeside(local));
      const exit = s.exitCode !== undefined ? { exitCode: s.exitCode } : {};
      if (s.state === 'cancelled') {
        await this.updates.transition(job.id, 'cancelled', { outputs, ...exit, error: 'cancelled on the cluster' });
      } else if (s.state === 'completed' && outcome.jobDone && !outcome.error) {
        await this.updates.transition(job.id, 'completed', {
          outputs,
          ...exit,
          ...(outcome.totalEnergyRy !== undefined
            ? { progress: { totalEnergyRy: outcome.totalEnergyRy, updatedAt: new Date().toISOString() } }
            : {}),
        });
      } else {
        const why =
          outcome.error ??
          s.reason ??
          (s.state === 'completed' ? 'the batch job ended but pw.x did not print JOB DONE' : `the scheduler reports ${s.state}`);
        await this.updates.transition(job.id, 'failed', {
          outputs,
          ...exit,
          error: outcome.error
            ? why
            : `${why}; see ${outputs.map((o) => o.name).join(', ') || 'the job directory'} in ${this.updates.localDir(job.id)}`,
        });
      }
      this.watched.delete(job.id);
    } finally {
      this.finalizing.delete(job.id);
    }
  }

  /** Copy the job's outputs (those that exist) back into its local directory. */
  private async download(job: JobRecord, dir: string, schedulerId: string | undefined): Promise<JobFile[]> {
    const collected = job.collect?.length
      ? await this.connection.sftp(async (sftp) =>
          (await sftp.exists(dir))
            ? (await sftp.list(dir))
                .map((e) => e.name)
                .filter((n) => matchesCollected(n, job.collect!))
                .sort()
            : [],
        )
      : [];
    const names = [outputNameFor(job.input), errorNameFor(job.input), ...(schedulerId ? [`slurm-${schedulerId}.out`] : []), ...collected];
    const localDir = this.updates.localDir(job.id);
    fs.mkdirSync(localDir, { recursive: true });
    const files: JobFile[] = [];
    for (const name of names) {
      const target = path.join(localDir, name);
      const got = await this.connection.sftp(async (sftp) => {
        if (!(await sftp.exists(`${dir}/${name}`))) return false;
        await sftp.fastGet(`${dir}/${name}`, target);
        return true;
      });
      if (got && fs.statSync(target).size > 0) files.push({ name, sha256: await sha256File(target) });
    }
    return files;
  }

  /**
   * Copy the CRASH file pw.x leaves in the job's directory when it stops with an error (its
   * working directory on the cluster) beside the local output; none there is no error. The path
   * goes to SFTP as it is (no shell reads it).
   */
  private async downloadCrash(id: string, dir: string): Promise<void> {
    const target = path.join(this.updates.localDir(id), PW_CRASH_FILE);
    await this.connection.sftp(async (sftp) => {
      if (await sftp.exists(`${dir}/${PW_CRASH_FILE}`)) await sftp.fastGet(`${dir}/${PW_CRASH_FILE}`, target);
    });
  }

  /** Upload what the cluster lacks: one command to hash what is there, SFTP for the rest. */
  private async stage(job: JobRecord, dir: string): Promise<void> {
    const { pseudo } = await this.roots();
    const localDir = this.updates.localDir(job.id);
    const script = this.scheduler.batchScript(job, this.options.profile);
    fs.writeFileSync(path.join(localDir, BATCH_SCRIPT_NAME), script);
    const files = [
      { local: path.join(localDir, job.input), remote: `${dir}/${job.input}`, sha256: job.files[0]!.sha256! },
      {
        local: path.join(localDir, BATCH_SCRIPT_NAME),
        remote: `${dir}/${BATCH_SCRIPT_NAME}`,
        sha256: await sha256File(path.join(localDir, BATCH_SCRIPT_NAME)),
      },
      ...job.pseudopotentials.map((p) => ({
        local: p.source!,
        remote: `${pseudo}/${p.sha256}/${p.name}`,
        sha256: p.sha256!,
        shared: true,
      })),
    ];
    const dirs = [
      dir,
      ...(job.pseudopotentials.length > 0 ? [`${dir}/${REMOTE_PSEUDO_LINKS}`] : []),
      ...job.pseudopotentials.map((p) => `${pseudo}/${p.sha256}`),
    ];
    const links = job.pseudopotentials.map(
      (p) => `ln -sfn -- ${shellQuote(`${pseudo}/${p.sha256}/${p.name}`)} ${shellQuote(`${dir}/${REMOTE_PSEUDO_LINKS}/${p.name}`)}`,
    );
    const command = [
      `mkdir -p -- ${dirs.map(shellQuote).join(' ')}`,
      ...links,
      `for f in ${files.map((f) => shellQuote(f.remote)).join(' ')}; do if [ -f "$f" ]; then sha256sum < "$f" | cut -c1-64; else echo -; fi; done`,
    ].join(' && ');
    const r = await this.connection.exec(command);
    if (r.code !== 0)
      throw new Error(
        `could not prepare ${dir} on ${this.name}: ${r.stderr.trim() || `exit ${r.code}`}. Check that the profile's workRoot is writable.`,
      );
    const remoteHashes = r.stdout.trim().split('\n');
    for (const [i, f] of files.entries()) {
      if (remoteHashes[i] === f.sha256) {
        this.stats.filesSkipped++;
        continue;
      }
      // Jobs staged side by side share pseudopotentials: each upload needs its own partial name.
      const partial = `${f.remote}.part-${process.pid}-${Date.now()}-${crypto.randomBytes(4).toString('hex')}`;
      await this.connection.sftp(async (sftp) => {
        await sftp.fastPut(f.local, partial);
        await sftp.posixRename(partial, f.remote);
      });
      this.stats.filesUploaded++;
    }
  }

  private async submitOnce(job: JobRecord, dir: string): Promise<string> {
    const marker = shellQuote(SCHEDULER_ID_FILE);
    const command = [
      `cd -- ${shellQuote(dir)} || exit 90`,
      `if [ -s ${marker} ]; then printf 'known\\n'; cat -- ${marker}; exit 0; fi`,
      `found=$(${this.scheduler.findByNameCommand(job.id)})`,
      `if [ -n "$found" ]; then printf 'found\\n%s\\n' "$found"; exit 0; fi`,
      `(${this.scheduler.submitCommand(dir, BATCH_SCRIPT_NAME)}) > ${marker}.part || { rm -f -- ${marker}.part; exit 91; }`,
      `mv -f -- ${marker}.part ${marker}`,
      `printf 'submitted\\n'; cat -- ${marker}`,
    ].join('\n');
    this.stats.submitCommands++;
    const r = await this.connection.exec(command);
    if (r.code !== 0) {
      throw new Error(
        `the scheduler on ${this.name} refused job ${job.id}: ${r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`}. Check the partition, account and limits in the cluster profile.`,
      );
    }
    const [how, ...rest] = r.stdout.split('\n');
    const body = rest.join('\n');
    const id = how === 'found' ? this.scheduler.parseFindByName(body) : this.scheduler.parseSubmitOutput(body);
    if (!id) throw new Error(`could not read the scheduler id for job ${job.id} from: ${r.stdout.trim()}`);
    return id;
  }

  private async retrying<T>(fn: () => Promise<T>, attempts = 6): Promise<T> {
    for (let i = 1; ; i++) {
      try {
        return await fn();
      } catch (e) {
        if (!(e instanceof ConnectionLostError) || i >= attempts || this.disposed) throw e;
        // the link dropped mid-way; every step is safe to repeat, so repeat it
      }
    }
  }

  private roots(): Promise<{ work: string; pseudo: string }> {
    if (!this.root) {
      this.root = this.connection
        .sftp((sftp) => sftp.realPath('.'))
        .then((home) => {
          const abs = (p: string) =>
            p === '~' ? home : p.startsWith('~/') ? `${home}/${p.slice(2)}` : p.startsWith('/') ? p : `${home}/${p}`;
          const work = abs(this.options.profile.workRoot).replace(/\/+$/, '');
          const pseudo = this.options.profile.remotePseudoDir
            ? abs(this.options.profile.remotePseudoDir).replace(/\/+$/, '')
            : `${work}/.pseudo`;
          return { work, pseudo };
        });
      this.root.catch(() => (this.root = undefined));
    }
    return this.root;
  }
}
