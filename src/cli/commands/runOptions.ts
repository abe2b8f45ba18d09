/**
 * What `dreams run` and `dreams resume` share: reading the objective, budgets, cluster
 * profiles, the pseudopotential directory, the local pw.x's version, and finding a run
 * directory from what the user typed.
 */
import { DreamsError } from '../../core/errors';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadClusterProfiles, PW_DIRECTORY_MAX_BYTES } from '../../core/hpc/clusterProfile';
import { autoLocalJobs } from '../../core/hpc/kPools';
import { parsePwCommand } from '../../core/hpc/pwCommand';
import { loadSshConfig, type SshConfigSource } from '../../core/hpc/ssh/sshConfig';
import type { ClusterProfile } from '../../core/hpc/types';
import { parseObjectiveBytes, parseObjectiveText, type Objective, type RunPreferences } from '../../core/workflows/objective';

export class UsageError extends DreamsError<'usage'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

export type Budget = NonNullable<RunPreferences['budget']>;

const BUDGET_KEYS: Record<string, keyof Budget> = { tokens: 'maxTokens', cost: 'maxCostUsd', jobs: 'maxJobs', wall: 'maxWallMinutes' };

/** `--local-jobs N|auto` (absent: 1; auto: one per core this process may use). */
export function parseLocalJobs(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return autoLocalJobs();
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--local-jobs must be a whole number ≥ 1 or auto (got "${value}").`);
  return Number(value);
}

/** "tokens=2000000,cost=5,jobs=40,wall=90m" (wall in minutes; "2h" and "45m" also read). */
export function parseBudget(text: string): Budget {
  const out: Budget = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)=(.+)$/.exec(part);
    const key = m && BUDGET_KEYS[m[1]!];
    if (!m || !key) {
      throw new UsageError(
        `--budget: "${part}" is not a limit; write tokens=N, cost=USD, jobs=N or wall=MINUTES, separated by commas (e.g. --budget cost=5,jobs=40,wall=90m).`,
      );
    }
    let raw = m[2]!.replace(/^\$/, '');
    let factor = 1;
    if (key === 'maxWallMinutes' && /[hm]$/.test(raw)) {
      factor = raw.endsWith('h') ? 60 : 1;
      raw = raw.slice(0, -1);
    }
    const n = Number(raw) * factor;
    if (!Number.isFinite(n) || n <= 0 || ((key === 'maxTokens' || key === 'maxJobs') && !Number.isInteger(n))) {
      throw new UsageError(
        `--budget: ${m[1]} must be a positive ${key === 'maxTokens' || key === 'maxJobs' ? 'whole number' : 'number'} (got "${m[2]}").`,
      );
    }
    out[key] = n;
  }
  return out;
}

/** An objective file (YAML/JSON) when the argument names one, else the objective sentence. */
export function readObjective(arg: string, opts: { forModel?: boolean } = {}): Objective {
  // a structure file a sentence names is relative to the working directory
  if (/\.(ya?ml|json)$/i.test(arg)) {
    if (!fs.existsSync(arg))
      throw new UsageError(
        `no objective file ${arg}; give the path of a YAML objective (see examples/) or the objective as a sentence in quotes.`,
      );
    return parseObjectiveBytes(fs.readFileSync(arg), arg);
  }
  return parseObjectiveText(arg, { ...opts, baseDir: process.cwd() });
}

/** Where pw.x looks by default, and Debian's package directory. */
export function defaultPseudoDir(): string {
  const candidates = [
    process.env.DREAMS_PSEUDO_DIR,
    process.env.ESPRESSO_PSEUDO,
    '/usr/share/espresso/pseudo',
    path.join(os.homedir(), 'espresso', 'pseudo'),
  ];
  return candidates.find((d): d is string => !!d && fs.existsSync(d)) ?? candidates.find((d): d is string => !!d)!;
}

/** Cluster profiles from --clusters, $DREAMS_CLUSTERS, or ~/.config/dreams/clusters.json. */
export function loadClusters(file?: string): ClusterProfile[] {
  const chosen = file ?? process.env.DREAMS_CLUSTERS ?? path.join(os.homedir(), '.config', 'dreams', 'clusters.json');
  if (!fs.existsSync(chosen)) {
    if (file)
      throw new UsageError(
        `no cluster profiles file ${file}; write one as in the README ("clusters": [{ "name", "sshHost", "scheduler", "workRoot", "pwCommand" }]).`,
      );
    return [];
  }
  try {
    return loadClusterProfiles(chosen);
  } catch (e) {
    throw new UsageError((e as Error).message); // a profile to fix (exit 2), with its file and field named
  }
}

/** An ssh config other than ~/.ssh/config, for the session environment. */
export function sshConfigOption(file: string | undefined): { sshConfig?: SshConfigSource } {
  if (!file) return {};
  if (!fs.existsSync(file))
    throw new UsageError(
      `no ssh config ${file}; give the path of an OpenSSH client config (Host entries), or leave --ssh-config out to use ~/.ssh/config.`,
    );
  return { sshConfig: loadSshConfig(file) };
}

export { localPwVersion } from '../../core/hpc/pwCommand';

/**
 * A local pw.x command split into its program and arguments, or the parser's own reason it
 * cannot be (an operator such as ";", a "$VARIABLE"): it runs without a shell.
 */
export function pwCommandArgv(command: string): string[] {
  try {
    return parsePwCommand(command);
  } catch (e) {
    throw new UsageError(`--pw-command: ${(e as Error).message}`);
  }
}

/** Why the program of a pw.x command cannot run here (not on PATH, not executable), or undefined when it is there. */
export function pwProgramMissing(command: string, program: string): string | undefined {
  const executable = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/'))
    return executable(path.resolve(program)) ? undefined : `${program}, which "${command}" runs, is not an executable file`;
  const found = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((d) => executable(path.join(d, program)));
  return found ? undefined : `"${program}", which "${command}" runs, is not on PATH`;
}

/** Bytes a local job adds under the runs directory: "/<runId>/jobs/<jobId>/pseudo" at their longest. */
const LOCAL_JOB_PSEUDO_SUFFIX_BYTES = '/'.length + 60 + '/jobs/'.length + 40 + '/pseudo'.length;

/**
 * Why pw.x could not run under this runs directory, or undefined: it reads a job's
 * pseudopotential directory (<runs>/<run>/jobs/<job>/pseudo) only up to 255 characters
 * (trimcheck, "input name too long"), so a longer runs directory fails every job.
 */
export function runsDirProblem(runsDir: string): string | undefined {
  const bytes = Buffer.byteLength(path.resolve(runsDir));
  if (bytes + LOCAL_JOB_PSEUDO_SUFFIX_BYTES <= PW_DIRECTORY_MAX_BYTES) return undefined;
  return (
    `the runs directory ${path.resolve(runsDir)} is ${bytes} bytes long: a pw.x job's pseudopotential directory under it (<runs>/<run>/jobs/<job>/pseudo, ` +
    `up to ${bytes + LOCAL_JOB_PSEUDO_SUFFIX_BYTES} bytes) would be over the ${PW_DIRECTORY_MAX_BYTES} characters pw.x reads for a directory name. ` +
    `Use a runs directory of at most ${PW_DIRECTORY_MAX_BYTES - LOCAL_JOB_PSEUDO_SUFFIX_BYTES} bytes (--runs-dir).`
  );
}

/** QE definitions the validator checks inputs against, for a pw.x version. */
export function qeVersionFor(pwVersion: string | undefined): string | undefined {
  if (!pwVersion) return undefined;
  return pwVersion.startsWith('6.') ? '6.7' : pwVersion.startsWith('7.') ? '7.2' : undefined;
}

/** A run directory from a path, a run id (or its unique prefix) under the runs directory, or "latest". */
export function resolveRunDir(arg: string | undefined, runsDir: string): string {
  if (!arg) throw new UsageError('name the run: its directory, its id (e.g. 20261130-101500-al-lattice) or "latest".');
  if (fs.existsSync(path.join(arg, 'events.jsonl'))) return arg;
  const runs = fs.existsSync(runsDir)
    ? fs
        .readdirSync(runsDir)
        .filter((d) => fs.existsSync(path.join(runsDir, d, 'events.jsonl')))
        .sort()
    : [];
  if (arg === 'latest') {
    if (!runs.length) throw new UsageError(`there are no runs under ${runsDir}; start one with dreams run, or pass --runs-dir.`);
    return path.join(runsDir, runs.at(-1)!);
  }
  const matches = runs.filter((r) => r.startsWith(arg) || r.endsWith(arg));
  if (matches.length === 1) return path.join(runsDir, matches[0]!);
  if (matches.length > 1)
    throw new UsageError(`"${arg}" matches ${matches.length} runs (${matches.slice(0, 5).join(', ')}); give more of the id.`);
  throw new UsageError(`no run "${arg}" (not a run directory, and no run under ${runsDir} has that id). List runs with: ls ${runsDir}`);
}

export const exitCodeOf = (state: string): number => (state === 'completed' ? 0 : state === 'stopped' ? 3 : 1);
