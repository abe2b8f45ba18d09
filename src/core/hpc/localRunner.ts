/**
 * Local backend: pw.x (or `mpirun -np N pw.x`) as a child process in its own process
 * group, at most `maxConcurrent` at a time (the rest wait as 'queued'). Output goes
 * straight to a file, not through a pipe, so pw.x keeps running if this process ends;
 * a restart finds it by pid and carries on watching.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { JobBackend, JobUpdates } from './backend';
import { isTerminal } from './jobModel';
import { kSetsAtLeast, withKPools } from './kPools';
import { mpiRootEnvironment, parsePwCommand, programArgv } from './pwCommand';
import { copyParentScratch, matchesCollected } from './continuation';
import { describePwInputSize } from '../dft/qe/jobFacts';
import { PwProgressReader, readCrashBeside, readPwOutcome } from '../dft/qe/jobFacts';
import { sha256File } from './fileHash';
import { PW_DIRECTORY_MAX_BYTES } from './clusterProfile';
import { removeWavefunctions } from './wavefunctions';
import { UNWATCHED_EXIT, type JobFile, type JobRecord } from './types';
import { shortTempDir } from './shortTempDir';

export interface LocalRunnerOptions {
  /** e.g. "pw.x" or "mpirun -np 2 pw.x" (split into argv; no shell). */
  pwCommand: string;
  maxConcurrent?: number;
  env?: NodeJS.ProcessEnv;
  /** How long pw.x has to stop after SIGTERM before SIGKILL. */
  killGraceMs?: number;
  /** How often output and liveness are checked. */
  watchIntervalMs?: number;
}

export const outputNameFor = (input: string): string => `${input.replace(/\.(in|pwi)$/i, '')}.out`;
export const errorNameFor = (input: string): string => `${input.replace(/\.(in|pwi)$/i, '')}.err`;
export const LOCAL_PSEUDO_DIR = 'pseudo';

interface Watched {
  timer?: NodeJS.Timeout;
  reader: PwProgressReader;
  offset: number;
  child?: ChildProcess;
  cancelling?: boolean;
  done: Promise<void>;
  finish: () => void;
}

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * Job temporary directories still waiting for Open MPI's daemon when the process exits: removed
 * then if the daemon has emptied them (an empty directory only; one still in use is left).
 */
const removeAtExit = new Set<string>();
process.once('exit', () => {
  for (const d of removeAtExit) {
    try {
      fs.rmdirSync(d);
    } catch {
      // not empty yet: the daemon is still cleaning up there
    }
  }
});

export class LocalRunner implements JobBackend {
  readonly name = 'local';
  private readonly argv: string[];
  private readonly maxConcurrent: number;
  private readonly waiting: string[] = [];
  private readonly active = new Map<string, Watched>();
  private readonly starting = new Set<string>();
  /** Each running job's own temporary directory (its TMPDIR), removed when the job ends. */
  private readonly tmpDirs = new Map<string, string>();
  private disposed = false;

  constructor(
    private readonly updates: JobUpdates,
    private readonly options: LocalRunnerOptions,
  ) {
    this.argv = parsePwCommand(options.pwCommand);
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 1);
  }

  async submit(job: JobRecord): Promise<void> {
    // pw.x reads the pseudopotential directory (ESPRESSO_PSEUDO) only up to 255 characters and
    // stops with "input name too long": refused here with the reason, whichever route made the run.
    const pseudo = path.join(this.updates.localDir(job.id), LOCAL_PSEUDO_DIR);
    const bytes = Buffer.byteLength(pseudo);
    if (job.pseudopotentials.length > 0 && bytes > PW_DIRECTORY_MAX_BYTES) {
      throw new Error(
        `job ${job.id}: its pseudopotential directory ${pseudo} is ${bytes} bytes long, over the ${PW_DIRECTORY_MAX_BYTES} characters pw.x reads for a directory name ` +
          '(pw.x would stop with "input name too long"); nothing was started. Keep runs in a shorter directory (a shorter --runs-dir, or a canvas in a folder with a shorter path).',
      );
    }
    await this.updates.transition(job.id, 'submitted', { workDir: this.updates.localDir(job.id) });
    await this.enqueue(job.id);
  }

  async resume(job: JobRecord): Promise<void> {
    if (job.state === 'submitted' || job.state === 'queued') {
      // The process that started pw.x may have died between the spawn and recording 'running'
      // (a kill at that instant): the pw.x it started carries this job's id; follow it rather
      // than start a second one.
      const pid = findJobProcess(job.id);
      const dir = this.updates.localDir(job.id);
      if (pid !== undefined) {
        this.watch(await this.updates.transition(job.id, 'running', { pid, workDir: dir }), undefined);
        return;
      }
      // ...or that pw.x has ended meanwhile: its output is opened just before the spawn, so any
      // output at all is pw.x's, and it tells how the run went. Running it again would repeat it.
      const out = path.join(dir, outputNameFor(job.input));
      if (fs.existsSync(out) && fs.statSync(out).size > 0) {
        await this.finish(job.id, { code: null, signal: null, unobserved: true });
        return;
      }
      return this.enqueue(job.id);
    }
    if (job.state !== 'running') return;
    if (job.pid !== undefined && isOurProcess(job.pid, job.id)) {
      this.watch(job, undefined);
      return;
    }
    // pw.x ended while nobody watched: its output is all that tells how.
    await this.finish(job.id, { code: null, signal: null, unobserved: true });
  }

  async cancel(job: JobRecord): Promise<void> {
    const queuedAt = this.waiting.indexOf(job.id);
    if (queuedAt >= 0) {
      this.waiting.splice(queuedAt, 1);
      await this.updates.transition(job.id, 'cancelled', { error: 'cancelled before it started' });
      return;
    }
    const w = this.active.get(job.id);
    const pid = this.updates.get(job.id)?.pid;
    if (!w || pid === undefined) {
      if (!isTerminal(job.state)) await this.updates.transition(job.id, 'cancelled', { error: 'cancelled' });
      return;
    }
    w.cancelling = true;
    killGroup(pid, 'SIGTERM');
    const grace = setTimeout(() => killGroup(pid, 'SIGKILL'), this.options.killGraceMs ?? 5000);
    await w.done;
    clearTimeout(grace);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const w of this.active.values()) if (w.timer) clearInterval(w.timer);
  }

  /** Running jobs plus those between the capacity check and their spawn: each holds a slot. */
  private occupied(): number {
    return this.active.size + this.starting.size;
  }

  private async enqueue(id: string): Promise<void> {
    if (this.occupied() < this.maxConcurrent) {
      await this.start(id);
    } else {
      this.waiting.push(id);
      const job = this.updates.get(id);
      if (job?.state === 'submitted') await this.updates.transition(id, 'queued', { error: undefined });
    }
  }

  private async start(id: string): Promise<void> {
    // Reserve the slot before the first await: a job is only counted in `active` once it has
    // spawned, and jobs submitted together would otherwise all pass the capacity check.
    this.starting.add(id);
    let failed = false;
    try {
      failed = !(await this.spawnJob(id));
    } finally {
      this.starting.delete(id);
    }
    if (failed) this.next();
  }

  /** Spawns pw.x for the job and starts watching it; false when it could not be started. */
  private async spawnJob(id: string): Promise<boolean> {
    const job = this.updates.get(id)!;
    const dir = this.updates.localDir(id);
    let argv: string[];
    try {
      argv = this.argvFor(dir, job);
      if (job.parent) copyParentScratch(job.parent, this.updates.localDir(job.parent.job), dir);
    } catch (e) {
      await this.updates.transition(id, 'failed', { error: (e as Error).message });
      return false;
    }
    const out = fs.openSync(path.join(dir, outputNameFor(job.input)), 'w');
    const err = fs.openSync(path.join(dir, errorNameFor(job.input)), 'w');
    let child: ChildProcess;
    try {
      child = spawn(argv[0]!, [...argv.slice(1), '-in', job.input], {
        cwd: dir,
        detached: true, // own process group: cancel ends mpirun and every rank together
        stdio: ['ignore', out, err],
        env: this.environment(job, dir),
      });
    } finally {
      fs.closeSync(out);
      fs.closeSync(err);
    }
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (e) => resolve(e));
    });
    if (spawned || child.pid === undefined) {
      this.dropTmpDir(id);
      await this.updates.transition(id, 'failed', {
        error: `could not start "${argv.join(' ')}" (${spawned?.message ?? 'no pid'}); check that the program is installed and on PATH, or set the pw.x command to its full path.`,
      });
      return false;
    }
    // Listen for the exit now: a pw.x that fails at once may end while 'running' is being recorded.
    const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const running = await this.updates.transition(id, 'running', { pid: child.pid, workDir: dir });
    this.watch(running, { child, exited });
    return true;
  }

  /**
   * The command for this job: the configured one with its program (bands.x, dos.x, projwfc.x
   * beside pw.x); for pw.x under an MPI launcher with several processes, k-point pools (-nk) from its k-points.
   */
  private argvFor(dir: string, job: JobRecord): string[] {
    if (job.program !== 'pw.x') return programArgv(this.argv, job.program);
    const input = job.input;
    try {
      const size = describePwInputSize(fs.readFileSync(path.join(dir, input), 'utf8'));
      return withKPools(this.argv, kSetsAtLeast(size.kPoints, size.nspin));
    } catch {
      return [...this.argv]; // an input the sizer cannot read runs as configured
    }
  }

  private environment(job: JobRecord, dir: string): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { OMP_NUM_THREADS: '1', ...(this.options.env ?? process.env) };
    env.DREAMS_JOB_ID = job.id; // lets a restarted service recognise its own pw.x by pid
    // pw.x is an MPI program: even alone it makes Open MPI's session directory under TMPDIR, and two
    // started at the same instant with one TMPDIR can race to create it ("orte_init failed ... File
    // exists", pw.x exits 1 with an empty output: seen with two local jobs on a loaded machine). Each
    // job gets a directory of its own, short enough for the sockets Open MPI makes there.
    env.TMPDIR = this.ownTmpDir(job.id, env.TMPDIR);
    if (job.pseudopotentials.length > 0) env.ESPRESSO_PSEUDO = path.join(dir, LOCAL_PSEUDO_DIR);
    return { ...env, ...mpiRootEnvironment(this.argv) };
  }

  private ownTmpDir(id: string, given: string | undefined): string {
    const d = shortTempDir('dreams-pw-', given);
    this.tmpDirs.set(id, d);
    return d;
  }

  /**
   * Removes a job's temporary directory once nothing of the job runs. Open MPI's daemon (orted, in a
   * session of its own) outlives pw.x by a moment and cleans up there; removed under it, it prints a
   * PMIx error into the job's stderr. So the directory goes when no process carries the job's
   * DREAMS_JOB_ID any more, looked for once a second for at most a minute (at once without /proc).
   */
  private dropTmpDir(id: string): void {
    const d = this.tmpDirs.get(id);
    if (d === undefined) return;
    this.tmpDirs.delete(id);
    let tries = 0;
    const attempt = () => {
      if (findJobProcess(id) !== undefined && ++tries < 60) {
        removeAtExit.add(d);
        setTimeout(attempt, 1000).unref();
        return;
      }
      removeAtExit.delete(d);
      fs.rmSync(d, { recursive: true, force: true });
    };
    attempt();
  }

  /** Watch a job: one this runner spawned (its child and exit), or one found running after a restart (by pid). */
  private watch(job: JobRecord, spawned: { child: ChildProcess; exited: Promise<Exit> } | undefined): void {
    const child = spawned?.child;
    let finish!: () => void;
    const w: Watched = { reader: new PwProgressReader(), offset: 0, child, done: new Promise((r) => (finish = r)), finish };
    this.active.set(job.id, w);
    const outFile = path.join(this.updates.localDir(job.id), outputNameFor(job.input));
    const poll = () => this.readNew(job.id, outFile, w);
    w.timer = setInterval(poll, this.options.watchIntervalMs ?? 500);
    if (spawned) {
      // finish() fails only when the job's state cannot be recorded (the run's log is broken);
      // the run ends on that itself.
      spawned.exited.then((e) => this.finish(job.id, e)).catch(() => undefined);
    } else {
      const pid = job.pid!;
      const liveness = setInterval(() => {
        if (!isOurProcess(pid, job.id)) {
          clearInterval(liveness);
          this.finish(job.id, { code: null, signal: null, unobserved: true }).catch(() => undefined);
        }
      }, this.options.watchIntervalMs ?? 500);
      w.done.then(() => clearInterval(liveness));
    }
  }

  private readNew(id: string, file: string, w: Watched): void {
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, 'r');
      const size = fs.fstatSync(fd).size;
      if (size <= w.offset) return;
      const buf = Buffer.alloc(size - w.offset);
      fs.readSync(fd, buf, 0, buf.length, w.offset);
      w.offset = size;
      if (w.reader.feed(buf.toString('utf8')) && !this.disposed) this.updates.progress(id, w.reader.progress());
    } catch {
      // the output appears a moment after the process starts
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  private async finish(id: string, exit: { code: number | null; signal: NodeJS.Signals | null; unobserved?: boolean }): Promise<void> {
    const w = this.active.get(id);
    if (w?.timer) clearInterval(w.timer);
    this.active.delete(id);
    this.dropTmpDir(id); // the program has ended (a job adopted after a restart has none here)
    try {
      const job = this.updates.get(id)!;
      if (isTerminal(job.state) || this.disposed) return;
      const dir = this.updates.localDir(id);
      const outFile = path.join(dir, outputNameFor(job.input));
      if (w) {
        this.readNew(id, outFile, w); // the last lines may have landed after the last poll
      }
      const output = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
      const outcome = readPwOutcome(output, readCrashBeside(outFile));
      const collected = job.collect?.length
        ? fs
            .readdirSync(dir)
            .filter((n) => matchesCollected(n, job.collect!))
            .sort()
        : [];
      const outputs = await describeOutputs(dir, [outputNameFor(job.input), errorNameFor(job.input), ...collected]);
      const exitCode = exit.code ?? undefined;
      if (w?.cancelling) {
        await this.updates.transition(id, 'cancelled', {
          outputs,
          exitCode,
          error: `cancelled while running${exit.signal ? ` (pw.x ended by ${exit.signal})` : ''}`,
        });
      } else if (outcome.jobDone && !outcome.error && (exit.code === 0 || exit.unobserved)) {
        if (job.discardWavefunctions) {
          try {
            removeWavefunctions(dir, job.discardWavefunctions);
          } catch {
            // a file that cannot be removed costs disk, not the result
          }
        }
        await this.updates.transition(id, 'completed', {
          outputs,
          exitCode: exit.code ?? 0,
          progress: w ? w.reader.progress() : job.progress,
        });
      } else {
        await this.updates.transition(id, 'failed', { outputs, exitCode, error: explainFailure(outcome.error, exit, output, dir) });
      }
    } finally {
      w?.finish();
      this.next();
    }
  }

  private next(): void {
    if (this.disposed) return;
    while (this.occupied() < this.maxConcurrent && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.start(id).catch((e: Error) =>
        // a job that could not be started fails with the reason, if that can still be recorded
        this.updates.transition(id, 'failed', { error: `could not start pw.x for job ${id}: ${e.message}` }).then(
          () => this.next(),
          () => undefined,
        ),
      );
    }
  }
}

function explainFailure(
  pwError: string | undefined,
  exit: { code: number | null; signal: NodeJS.Signals | null; unobserved?: boolean },
  output: string,
  dir: string,
): string {
  if (pwError) return pwError;
  const tail = output.trimEnd().split('\n').slice(-5).join('\n');
  const how = exit.unobserved
    ? `${UNWATCHED_EXIT} and its output has no "JOB DONE"`
    : exit.signal
      ? `pw.x was ended by ${exit.signal}`
      : `pw.x exited with code ${exit.code} without printing an error block`;
  return `${how}. Last lines of the output (${dir}):\n${tail || '(empty)'}`;
}

async function describeOutputs(dir: string, names: string[]): Promise<JobFile[]> {
  const files: JobFile[] = [];
  for (const name of names) {
    const p = path.join(dir, name);
    if (!fs.existsSync(p) || fs.statSync(p).size === 0) continue;
    files.push({ name, sha256: await sha256File(p) });
  }
  return files;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * The live process started for `jobId` (pw.x, or the mpirun that runs it), found by the
 * DREAMS_JOB_ID in its environment: of the processes that carry it, the one whose parent does
 * not (ranks and Open MPI's helpers inherit it from the launch). Undefined when there is none,
 * or no /proc to look in.
 */
function findJobProcess(jobId: string): number | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  const carrying = new Map<number, number>(); // pid → parent pid
  for (const p of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      if (fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`DREAMS_JOB_ID=${jobId}`))
        carrying.set(Number(p), Number(ppid));
    } catch {
      // gone meanwhile, or another user's process
    }
  }
  return [...carrying]
    .filter(([, parent]) => !carrying.has(parent))
    .map(([pid]) => pid)
    .sort((a, b) => a - b)[0];
}

/** True when `pid` is alive and is the process started for `jobId` (not a reused pid). */
function isOurProcess(pid: number, jobId: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`DREAMS_JOB_ID=${jobId}`);
  } catch {
    // no /proc (macOS): a live pid is the best evidence there is
    return true;
  }
}
