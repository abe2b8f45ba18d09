/**
 * The configured local pw.x command (`pw.x`, `mpirun -np 2 pw.x`) split into argv so it
 * runs without a shell: nothing in it is expanded, piped or chained.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'shell-quote';
import { pwBannerVersion } from '../dft/qe/jobFacts';

export function parsePwCommand(command: string): string[] {
  const variables: string[] = [];
  const tokens = parse(command, (name) => {
    variables.push(name);
    return '';
  });
  if (variables.length > 0) {
    throw new Error(
      `the pw.x command "${command}" uses the shell variable(s) ${variables.map((v) => '$' + v).join(', ')}; it runs without a shell, so write the value itself (e.g. "mpirun -np 4 pw.x").`,
    );
  }
  const argv: string[] = [];
  for (const t of tokens) {
    if (typeof t === 'string') {
      argv.push(t);
      continue;
    }
    const what =
      'op' in t ? (t.op === 'glob' ? `the pattern "${(t as { pattern: string }).pattern}"` : `the operator "${t.op}"`) : 'a comment';
    throw new Error(
      `the pw.x command "${command}" contains ${what}; it runs without a shell, so give only the program and its arguments (e.g. "mpirun -np 2 pw.x").`,
    );
  }
  if (argv.length === 0) throw new Error('the pw.x command is empty; set it to "pw.x" or e.g. "mpirun -np 2 pw.x".');
  return argv;
}

const MPI_LAUNCHERS = new Set(['mpirun', 'mpiexec', 'orterun']);

/**
 * The configured pw.x command with pw.x replaced by another program of the same QE
 * installation (bands.x, dos.x, projwfc.x): the same launcher and directory
 * ("mpirun -np 2 /opt/qe/bin/pw.x" → "mpirun -np 2 /opt/qe/bin/dos.x").
 */
export function programArgv(argv: readonly string[], program: string): string[] {
  if (program === 'pw.x') return [...argv];
  const at = argv.findIndex((t) => path.posix.basename(t) === 'pw.x');
  if (at < 0) {
    throw new Error(
      `the pw.x command "${argv.join(' ')}" does not name pw.x, so the ${program} of the same installation cannot be found from it; ` +
        'set the pw.x command to one that names pw.x (e.g. "mpirun -np 2 /opt/qe/bin/pw.x"), with the other QE programs beside it.',
    );
  }
  const out = [...argv];
  out[at] = argv[at]!.slice(0, argv[at]!.length - 'pw.x'.length) + program;
  return out;
}

/** programArgv on a command line as a cluster profile writes it (run by the batch script's shell): the pw.x word replaced. */
export function programCommandLine(command: string, program: string): string {
  if (program === 'pw.x') return command;
  const re = /(^|[\s/'"])pw\.x(?=[\s'"]|$)/;
  if (!re.test(command)) {
    throw new Error(
      `the cluster's pw.x command "${command}" does not name pw.x, so the ${program} of the same installation cannot be found from it; ` +
        'set pwCommand in the cluster profile to one that names pw.x (e.g. "srun pw.x"), with the other QE programs beside it.',
    );
  }
  return command.replace(re, `$1${program}`);
}

/**
 * Open MPI refuses to start as root unless both variables are set. They are set only when
 * this process is root and the command is an MPI launcher, never for ordinary users.
 */
export function mpiRootEnvironment(argv: readonly string[]): Record<string, string> {
  if (process.getuid?.() === 0 && argv[0] !== undefined && MPI_LAUNCHERS.has(path.basename(argv[0]))) {
    return { OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' };
  }
  return {};
}

/**
 * The local pw.x's version from its banner ("Program PWSCF v.6.7MaX starts"), or undefined
 * when the command does not run. pw.x started without an input stops with an error and
 * writes CRASH (and input_tmp.in) into its working directory, so it runs in a scratch
 * directory that is removed afterwards, never in the user's.
 */
export function localPwVersion(command: string): string | undefined {
  let argv: string[];
  try {
    argv = parsePwCommand(command);
  } catch {
    return undefined;
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pw-version-'));
  try {
    const r = spawnSync(argv[0]!, argv.slice(1), {
      cwd: scratch,
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, OMP_NUM_THREADS: '1', ...mpiRootEnvironment(argv) },
    });
    return pwBannerVersion(`${r.stdout ?? ''}${r.stderr ?? ''}`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * localPwVersion without blocking the process (the extension host, a run's other jobs): the
 * same probe in a scratch directory, undefined when the command does not run or prints no
 * banner within 20 s.
 */
export function probeLocalPwVersion(command: string): Promise<string | undefined> {
  let argv: string[];
  try {
    argv = parsePwCommand(command);
  } catch {
    return Promise.resolve(undefined);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-pw-version-'));
  return new Promise<string | undefined>((resolve) => {
    let text = '';
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: scratch,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, OMP_NUM_THREADS: '1', ...mpiRootEnvironment(argv) },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.stdin.end();
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fs.rmSync(scratch, { recursive: true, force: true });
      resolve(pwBannerVersion(text));
    };
    child.on('error', () => done());
    child.on('close', () => done());
  });
}
