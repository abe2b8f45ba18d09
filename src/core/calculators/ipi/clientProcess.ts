/**
 * A calculator the user names by command: DREAMS listens as the i-PI server, starts the
 * client process the command names (an argument list, never through a shell), tells it in
 * the environment which atoms to serve and where to connect, and stops it when the
 * calculator is closed. Each geometry is timed out; a client that exits or is killed fails
 * the calculation at once, with its exit and its last output, never a hang. The energies
 * carry the calculator's own name (the line the client prints, see
 * python/dreams_ase_ipi_client.py) and the sha256 of the command, and are never production
 * (DFT) numbers. Energies in eV, forces in eV/Å.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatExtxyz } from '../../dft/io/extxyz';
import type { Structure } from '../../dft/types';
import { CalculatorError, type CalculateOptions, type Calculator, type CalculatorResult, type CalculatorSettings } from '../types';
import { IpiServer } from './server';

/** What the user writes: `calculator: { kind: ipi, command: [python3, client.py, ase.calculators.emt:EMT] }`. */
export interface IpiClientSpec {
  command: string[];
  /** TCP port to listen on (default: a free one on 127.0.0.1). */
  port?: number;
  /** Listen on the UNIX socket /tmp/ipi_<name> instead of TCP. */
  unixSocket?: string;
  /** Longest one geometry may take, seconds (default 600). */
  timeoutSeconds?: number;
  /** Longest the client may take to start and connect, seconds (default 120: an ML model may load for a while). */
  startSeconds?: number;
}

/** The line the client prints before it connects. */
const NAME_LINE = /^DREAMS_IPI_CALCULATOR (\{.*\})\s*$/m;
const TAIL_BYTES = 2000;

/**
 * The name a run gives a calculator the user declared: sha256 of its argument list alone. A tool
 * call names the calculator by it and never carries a command (tools take no commands).
 */
export function ipiCalculatorKey(command: readonly string[]): string {
  return createHash('sha256').update(command.join('\0')).digest('hex');
}

/** sha256 of the argument list, with the content of each argument that names a file (a script) hashed in. */
export function commandSha256(command: readonly string[], cwd = process.cwd()): string {
  const h = createHash('sha256');
  for (const arg of command) {
    h.update(`${arg}\0`);
    const file = path.resolve(cwd, arg);
    try {
      if (arg.includes('/') && fs.statSync(file).isFile()) h.update(fs.readFileSync(file));
    } catch {
      // not a file: the argument alone
    }
  }
  return h.digest('hex');
}

export class IpiClientCalculator implements Calculator {
  readonly name: string;
  readonly settings: CalculatorSettings;
  #exited?: string;
  #exit: Promise<string>;
  #closed = false;

  private constructor(
    private readonly server: IpiServer,
    private readonly child: ChildProcess,
    private readonly spec: IpiClientSpec,
    private readonly symbols: readonly string[],
    readonly calculatorName: string,
    readonly sha256: string,
    private readonly output: () => string,
    exit: Promise<string>,
  ) {
    this.name = `i-PI client ${calculatorName}`;
    this.settings = {
      method: `ipi:${calculatorName}`,
      production: false,
      details: { calculator: calculatorName, command: spec.command.join(' '), commandSha256: sha256 },
    };
    this.#exit = exit.then((why) => (this.#exited = why));
  }

  /** The client's process id (while it runs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Listen, start the client for these atoms, and wait until it has named itself and connected. */
  static async start(
    spec: IpiClientSpec,
    structure: Structure,
    opts: { workDir?: string; signal?: AbortSignal } = {},
  ): Promise<IpiClientCalculator> {
    if (!Array.isArray(spec.command) || spec.command.length === 0 || spec.command.some((a) => typeof a !== 'string' || a === '')) {
      throw new CalculatorError(
        'i-PI',
        "calculator.command must be the client's argument list, e.g. [python3, dreams_ase_ipi_client.py, ase.calculators.emt:EMT]; it runs without a shell.",
      );
    }
    const workDir = opts.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-ipi-'));
    fs.mkdirSync(workDir, { recursive: true });
    const structureFile = path.join(workDir, 'ipi-structure.extxyz');
    fs.writeFileSync(structureFile, formatExtxyz({ structure: { ...structure, fixed: undefined } }));
    const server = await IpiServer.listen(
      spec.unixSocket
        ? { unixSocketName: spec.unixSocket, engine: spec.command.join(' ') }
        : { port: spec.port ?? 0, engine: spec.command.join(' ') },
    );
    const where =
      'port' in server.address
        ? { DREAMS_IPI_HOST: server.address.host, DREAMS_IPI_PORT: String(server.address.port) }
        : { DREAMS_IPI_UNIX: server.address.unixSocket.replace(/^\/tmp\/ipi_/, '') };
    let out = '';
    const keep = (d: Buffer) => {
      out = (out + d.toString()).slice(-TAIL_BYTES * 4);
    };
    let child: ChildProcess;
    try {
      child = spawn(spec.command[0]!, spec.command.slice(1), {
        cwd: workDir,
        env: { ...process.env, DREAMS_IPI_STRUCTURE: structureFile, ...where },
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: false,
      });
    } catch (e) {
      await server.close();
      throw new CalculatorError('i-PI', `could not start ${spec.command[0]} (${(e as Error).message}).`);
    }
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exit = new Promise<string>((resolve) => {
      child.once('error', (e) => resolve(`could not be started (${e.message}): is ${spec.command[0]} installed and on PATH?`));
      child.once('exit', (code, signal) => resolve(signal ? `was killed (${signal})` : `exited with code ${code}`));
    });
    const tail = () => out.trim().slice(-TAIL_BYTES);
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await server.close().catch(() => undefined);
    };
    const startMs = (spec.startSeconds ?? 120) * 1000;
    let starting = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      const named = await Promise.race([
        (async () => {
          while (starting && !NAME_LINE.test(out)) await new Promise((r) => setTimeout(r, 20));
          if (!starting) throw new CalculatorError('i-PI', 'the client did not start');
          await server.waitForClient(startMs);
          return JSON.parse(NAME_LINE.exec(out)![1]!) as { name?: string; package?: string; version?: string };
        })(),
        exit.then((why) => {
          throw new CalculatorError(
            'i-PI',
            `the client ${JSON.stringify(spec.command)} ${why} before it connected. Its output:\n${tail() || '(none)'}`,
          );
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new CalculatorError(
                  'i-PI',
                  `the client ${JSON.stringify(spec.command)} did not name its calculator and connect within ${startMs / 1000} s (it prints "DREAMS_IPI_CALCULATOR {...}" first, as dreams_ase_ipi_client.py does). Its output:\n${tail() || '(none)'}`,
                ),
              ),
            startMs,
          );
        }),
      ]);
      const label = [named.name ?? 'unnamed', named.package && named.version ? `(${named.package} ${named.version})` : '']
        .filter(Boolean)
        .join(' ');
      return new IpiClientCalculator(server, child, spec, structure.symbols, label, commandSha256(spec.command), tail, exit);
    } catch (e) {
      await stop();
      throw e;
    } finally {
      starting = false;
      clearTimeout(timer);
    }
  }

  /** Whether this client serves these atoms (the same elements in the same order). */
  serves(s: Structure): boolean {
    return !this.#exited && !this.#closed && s.symbols.length === this.symbols.length && s.symbols.every((x, i) => x === this.symbols[i]);
  }

  async calculate(structure: Structure, opts: CalculateOptions = {}): Promise<CalculatorResult> {
    if (this.#exited) throw this.died();
    if (structure.symbols.length !== this.symbols.length || structure.symbols.some((s, i) => s !== this.symbols[i])) {
      throw new CalculatorError(
        this.name,
        `this client serves ${this.symbols.length} atoms (${[...new Set(this.symbols)].join(', ')}) in a fixed order; start a client for each structure.`,
      );
    }
    const ms = (this.spec.timeoutSeconds ?? 600) * 1000;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.server.calculate(structure, opts),
        this.#exit.then(() => {
          throw this.died();
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new CalculatorError(
                  this.name,
                  `no answer for ${structure.symbols.length} atoms within ${ms / 1000} s; the client is stopped. Raise calculator.timeoutSeconds if one geometry takes that long.`,
                ),
              ),
            ms,
          );
        }),
      ]);
    } catch (e) {
      // A closed connection is usually the process ending: say so, with its exit, once it has.
      if (!this.#exited) await Promise.race([this.#exit, new Promise((r) => setTimeout(r, 2000).unref())]);
      if (this.#exited) throw this.died();
      if (e instanceof CalculatorError && /within \d+ s/.test(e.message)) await this.close();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private died(): CalculatorError {
    return new CalculatorError(
      this.name,
      `the client ${JSON.stringify(this.spec.command)} ${this.#exited} during the calculation; no energy was recorded for it. Its last output:\n${this.output() || '(none)'}`,
    );
  }

  /** Send EXIT, stop listening, and end the process (killed if it does not leave within 5 s). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // The server closes once the client's connection ends: a client busy with a geometry (the
    // one a timeout gave up on) reads EXIT only when it is done, so the kill must not wait for it.
    const closing = this.server.close().catch(() => undefined);
    if (!this.#exited) {
      const left = await Promise.race([this.#exit.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref())]);
      if (!left) {
        this.child.kill('SIGKILL');
        await this.#exit;
      }
    }
    await closing;
  }
}

/**
 * The calculator a relaxation or search names by command: the client is started for the
 * first structure it is asked about and started again when the atoms change (i-PI sends
 * no species, so one client serves one list of atoms). Close it when done.
 */
export class IpiCommandCalculator implements Calculator {
  readonly name: string;
  #client?: IpiClientCalculator;
  #starting?: Promise<IpiClientCalculator>;
  #reported?: string;

  constructor(private readonly spec: IpiClientSpec) {
    this.name = `i-PI client ${spec.command.join(' ')}`;
  }

  get settings(): CalculatorSettings {
    return (
      this.#client?.settings ?? {
        method: 'ipi',
        production: false,
        details: { command: this.spec.command.join(' '), commandSha256: commandSha256(this.spec.command) },
      }
    );
  }

  /** What this calculator is, for the energies it gives: its own name (once a client said it), the command and its sha256. */
  identity(): { name?: string; command: string; commandSha256: string } {
    return {
      ...(this.#reported ? { name: this.#reported } : {}),
      command: this.spec.command.join(' '),
      commandSha256: commandSha256(this.spec.command),
    };
  }

  /** The calculator's own name, once a client has said it (kept after the client stopped). */
  get calculatorName(): string | undefined {
    return this.#reported;
  }

  async calculate(structure: Structure, opts: CalculateOptions = {}): Promise<CalculatorResult> {
    const client = await this.clientFor(structure, opts.signal);
    return client.calculate(structure, opts);
  }

  private async clientFor(s: Structure, signal?: AbortSignal): Promise<IpiClientCalculator> {
    if (this.#starting) await this.#starting.catch(() => undefined);
    const c = this.#client;
    if (c && c.serves(s)) return c;
    if (c) await c.close();
    this.#client = undefined;
    this.#starting = IpiClientCalculator.start(this.spec, s, signal ? { signal } : {});
    this.#client = await this.#starting;
    this.#reported = this.#client.calculatorName;
    return this.#client;
  }

  async close(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    await this.#client?.close();
    this.#client = undefined;
  }
}
