/**
 * The i-PI wire protocol (the socket protocol of i-PI, spoken by pw.x --ipi, LAMMPS,
 * CP2K and ASE's SocketClient): 12-byte space-padded ASCII headers, then native-endian
 * int32 and float64 payloads in atomic units (bohr, hartree). The server asks STATUS,
 * the client answers READY, NEEDINIT or HAVEDATA; POSDATA carries the cell (lattice
 * vectors as columns), its inverse and the positions; GETFORCE is answered with
 * FORCEREADY, the energy, the forces, the virial and optional extra bytes.
 */
import type { Socket } from 'node:net';

export const HEADER_BYTES = 12;
export type ClientState = 'READY' | 'NEEDINIT' | 'HAVEDATA' | 'FORCEREADY';

export function header(msg: string): Buffer {
  return Buffer.from(msg.padEnd(HEADER_BYTES, ' '), 'ascii');
}

export const int32 = (x: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(x);
  return b;
};

export const float64s = (xs: number[]): Buffer => {
  const b = Buffer.alloc(8 * xs.length);
  xs.forEach((x, i) => b.writeDoubleLE(x, 8 * i));
  return b;
};

/** Reads exact byte counts from a socket, however the stream is chunked. */
export class SocketReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private waiting: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  private closed: Error | undefined;

  constructor(socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.chunks.push(d);
      this.buffered += d.length;
      this.pump();
    });
    const end = (why: string) => {
      this.closed ??= new Error(why);
      if (this.waiting) {
        this.waiting.reject(this.closed);
        this.waiting = undefined;
      }
    };
    socket.on('end', () => end('the i-PI client closed the connection'));
    socket.on('close', () => end('the i-PI client connection closed'));
    socket.on('error', (e) => end(`the i-PI connection failed: ${e.message}`));
  }

  private pump(): void {
    if (!this.waiting || this.buffered < this.waiting.n) return;
    const all = Buffer.concat(this.chunks);
    const out = all.subarray(0, this.waiting.n);
    const rest = all.subarray(this.waiting.n);
    this.chunks = rest.length ? [Buffer.from(rest)] : [];
    this.buffered = rest.length;
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve(Buffer.from(out));
  }

  read(n: number): Promise<Buffer> {
    if (this.waiting) return Promise.reject(new Error('i-PI reader: a read is already pending; reads must be sequential.'));
    return new Promise((resolve, reject) => {
      this.waiting = { n, resolve, reject };
      this.pump();
      if (this.waiting && this.closed) {
        this.waiting = undefined;
        reject(this.closed);
      }
    });
  }

  async header(): Promise<string> {
    return (await this.read(HEADER_BYTES)).toString('ascii').trim();
  }

  async int32(): Promise<number> {
    return (await this.read(4)).readInt32LE(0);
  }

  async float64s(n: number): Promise<number[]> {
    const b = await this.read(8 * n);
    return Array.from({ length: n }, (_, i) => b.readDoubleLE(8 * i));
  }
}
