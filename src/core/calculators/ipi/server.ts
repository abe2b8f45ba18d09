/**
 * An i-PI server: it listens on TCP or a UNIX socket, an external engine (pw.x --ipi,
 * ASE's SocketClient around MACE, LAMMPS, ...) connects as the client, and each
 * calculate() sends one geometry and reads back energy, forces and virial.
 *
 * pw.x as a client: it reads its own input first and builds its plane-wave basis for
 * that cell, so send structures in the input's orientation and never shrink the cell
 * below the first geometry (the basis would no longer fit).
 */
import net from 'node:net';
import fs from 'node:fs';
import type { Structure, Vec3 } from '../../dft/types';
import { BOHR_IN_ANGSTROM, HARTREE_IN_EV } from '../../units';
import { volume } from '../cellMath';
import { CalculatorError, type CalculateOptions, type Calculator, type CalculatorResult, type CalculatorSettings } from '../types';
import { float64s, header, int32, SocketReader } from './protocol';

export type IpiAddress = { host: string; port: number } | { unixSocket: string };

export interface IpiServerOptions {
  /** TCP: host (default 127.0.0.1) and port (0 picks a free one). */
  host?: string;
  port?: number;
  /** UNIX socket name: the server listens on /tmp/ipi_<name>, where i-PI clients look (pw.x --ipi <name>:UNIX). */
  unixSocketName?: string;
  /** Names the engine in settings and errors, e.g. "pw.x 6.7 PBE 30 Ry". */
  engine?: string;
}

function invert3(m: number[][]): number[][] {
  const [a, b, c] = m as [number[], number[], number[]];
  const det = a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) - a[1]! * (b[0]! * c[2]! - b[2]! * c[0]!) + a[2]! * (b[0]! * c[1]! - b[1]! * c[0]!);
  if (Math.abs(det) < 1e-12) throw new Error('singular cell');
  const cof = (r: number, k: number) => {
    const rows = [0, 1, 2].filter((x) => x !== r);
    const cols = [0, 1, 2].filter((x) => x !== k);
    const minor = m[rows[0]!]![cols[0]!]! * m[rows[1]!]![cols[1]!]! - m[rows[0]!]![cols[1]!]! * m[rows[1]!]![cols[0]!]!;
    return ((r + k) % 2 ? -1 : 1) * minor;
  };
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => cof(j, i) / det));
}

export class IpiServer implements Calculator {
  readonly name: string;
  readonly settings: CalculatorSettings;
  private client: net.Socket | undefined;
  private reader: SocketReader | undefined;
  private waiters: ((s: net.Socket) => void)[] = [];
  private busy = false;
  /** Geometries served so far. */
  evaluations = 0;

  private constructor(
    private readonly server: net.Server,
    readonly address: IpiAddress,
    engine: string,
  ) {
    this.name = `i-PI (${engine})`;
    this.settings = {
      method: `ipi:${engine}`,
      production: true,
      details: { engine, address: 'port' in address ? `${address.host}:${address.port}` : address.unixSocket },
    };
    server.on('connection', (socket) => {
      if (this.client) {
        socket.end();
        return;
      }
      socket.setNoDelay(true);
      this.client = socket;
      this.reader = new SocketReader(socket);
      socket.on('close', () => {
        if (this.client === socket) {
          this.client = undefined;
          this.reader = undefined;
        }
      });
      for (const w of this.waiters.splice(0)) w(socket);
    });
  }

  static listen(opts: IpiServerOptions = {}): Promise<IpiServer> {
    const engine = opts.engine ?? 'external engine';
    return new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (e) =>
        reject(new CalculatorError('i-PI', `could not listen (${e.message}); pick another port or socket name.`)),
      );
      if (opts.unixSocketName !== undefined) {
        if (!/^[\w.-]+$/.test(opts.unixSocketName)) {
          reject(new CalculatorError('i-PI', `UNIX socket name "${opts.unixSocketName}" may hold only letters, digits, ".", "_" and "-".`));
          return;
        }
        const file = `/tmp/ipi_${opts.unixSocketName}`;
        if (fs.existsSync(file)) fs.rmSync(file);
        server.listen(file, () => resolve(new IpiServer(server, { unixSocket: file }, engine)));
      } else {
        const host = opts.host ?? '127.0.0.1';
        server.listen(opts.port ?? 0, host, () => {
          const a = server.address() as net.AddressInfo;
          resolve(new IpiServer(server, { host, port: a.port }, engine));
        });
      }
    });
  }

  /** The argument pw.x takes to connect here: `pw.x --ipi <this>`. */
  get pwIpiArgument(): string {
    return 'port' in this.address
      ? `${this.address.host}:${this.address.port}`
      : `${this.address.unixSocket.replace(/^\/tmp\/ipi_/, '')}:UNIX`;
  }

  /** Resolves when a client is connected (immediately if one is). */
  waitForClient(timeoutMs = 60_000): Promise<void> {
    if (this.client) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== onConnect);
        reject(
          new CalculatorError(
            'i-PI',
            `no engine connected to ${this.pwIpiArgument} within ${timeoutMs / 1000} s; start it with e.g. pw.x --ipi ${this.pwIpiArgument} -in <input>.`,
          ),
        );
      }, timeoutMs);
      const onConnect = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(onConnect);
    });
  }

  async calculate(structure: Structure, opts: CalculateOptions = {}): Promise<CalculatorResult> {
    // The wire carries the cell, never the periodicity: a client keeps the pbc of the atoms it
    // started with (a slab's [true, true, false]); the cell must still have three vectors.
    const [a, b, c] = structure.cell;
    const volume = Math.abs(a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]));
    if (!(volume > 1e-6)) {
      throw new CalculatorError(
        this.name,
        'the i-PI protocol sends a full 3D cell; give the structure three lattice vectors that span a volume (a gas-phase molecule needs a box, a slab its vacuum).',
      );
    }
    if (this.busy)
      throw new CalculatorError(this.name, 'a calculation is already running on this connection; i-PI serves one geometry at a time.');
    await this.waitForClient();
    this.busy = true;
    const abort = () => this.client?.destroy(new Error('cancelled'));
    opts.signal?.addEventListener('abort', abort, { once: true });
    try {
      return await this.exchange(structure, opts.stress ?? false);
    } catch (e) {
      throw e instanceof CalculatorError
        ? e
        : new CalculatorError(
            this.name,
            `${(e as Error).message} while computing ${structure.symbols.length} atoms; check the engine's own output.`,
          );
    } finally {
      this.busy = false;
      opts.signal?.removeEventListener('abort', abort);
    }
  }

  private async status(): Promise<string> {
    this.client!.write(header('STATUS'));
    return this.reader!.header();
  }

  private async exchange(s: Structure, withStress: boolean): Promise<CalculatorResult> {
    const n = s.symbols.length;
    let state = await this.status();
    if (state === 'NEEDINIT') {
      // Engines ignore the initialisation string, but some refuse an empty one.
      this.client!.write(Buffer.concat([header('INIT'), int32(0), int32(1), Buffer.from([0])]));
      state = await this.status();
    }
    if (state !== 'READY') throw new CalculatorError(this.name, `the engine answered "${state}" to STATUS where READY was expected.`);
    const toBohr = 1 / BOHR_IN_ANGSTROM;
    // As ASE sends it: the matrix h with the lattice vectors in columns, then the inverse of
    // the row-vector cell (h⁻¹ transposed), both row-major.
    const h = [0, 1, 2].map((i) => [0, 1, 2].map((j) => s.cell[j]![i]! * toBohr));
    const cellInverse = invert3(s.cell.map((v) => v.map((x) => x * toBohr)));
    this.client!.write(
      Buffer.concat([
        header('POSDATA'),
        float64s(h.flat()),
        float64s(cellInverse.flat()),
        int32(n),
        float64s(s.positions.flatMap((p) => p.map((x) => x * toBohr))),
      ]),
    );
    state = await this.status();
    if (state !== 'HAVEDATA')
      throw new CalculatorError(this.name, `the engine answered "${state}" after POSDATA where HAVEDATA was expected.`);
    this.client!.write(header('GETFORCE'));
    const reply = await this.reader!.header();
    if (reply !== 'FORCEREADY')
      throw new CalculatorError(this.name, `the engine answered "${reply}" to GETFORCE where FORCEREADY was expected.`);
    const [energyHa] = await this.reader!.float64s(1);
    const count = await this.reader!.int32();
    if (count !== n)
      throw new CalculatorError(
        this.name,
        `the engine returned forces for ${count} atoms for a structure of ${n}; the engine's input must describe the same atoms in the same order.`,
      );
    const forces = await this.reader!.float64s(3 * n);
    const virial = await this.reader!.float64s(9);
    const extra = await this.reader!.int32();
    if (extra > 0) await this.reader!.read(extra);
    this.evaluations++;
    const forceUnit = HARTREE_IN_EV / BOHR_IN_ANGSTROM;
    const result: CalculatorResult = {
      energyEv: energyHa! * HARTREE_IN_EV,
      forcesEvPerAngstrom: Array.from(
        { length: n },
        (_, i) => [forces[3 * i]! * forceUnit, forces[3 * i + 1]! * forceUnit, forces[3 * i + 2]! * forceUnit] as Vec3,
      ),
    };
    if (withStress) {
      const v = volume(s.cell);
      // Sent transposed; the virial is symmetric for any engine that conserves angular momentum.
      result.stressEvPerAngstrom3 = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (-virial[3 * j + i]! * HARTREE_IN_EV) / v)) as [
        Vec3,
        Vec3,
        Vec3,
      ];
    }
    return result;
  }

  /** Tell the engine to stop, and stop listening. */
  async close(): Promise<void> {
    if (this.client && !this.client.destroyed) {
      await new Promise<void>((resolve) => this.client!.write(header('EXIT'), () => resolve()));
      this.client.end();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if ('unixSocket' in this.address && fs.existsSync(this.address.unixSocket)) fs.rmSync(this.address.unixSocket);
  }
}
