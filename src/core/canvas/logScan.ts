/**
 * Reading a log file from a byte offset: complete lines are checked one by one and the
 * scan stops at the first line that is not a good event. A line ends with LF or CR LF (a
 * log copied through Windows is read, not treated as damage). Reading is chunked, so an
 * absurdly long line costs at most `maxLineBytes` of memory before it is reported.
 */
import fs from 'node:fs';
import { checkEventLine, type LineProblem } from './eventLine';
import type { CanvasEvent } from './types';

const CHUNK_BYTES = 4 * 1024 * 1024;

export interface ScanStart {
  /** Byte offset of the first line to read (the end of the last good line). */
  offset: number;
  /** 1-based line number at `offset`. */
  line: number;
  /** Sequence number the first line must carry. */
  seq: number;
}

export interface ScanDamage {
  line: number;
  byteOffset: number;
  problem: LineProblem;
  detail: string;
}

export interface ScanResult {
  events: CanvasEvent[];
  /** Where the next scan starts. */
  next: ScanStart;
  /** Bytes after the last complete line (a line still being written, or torn). */
  partialBytes: number;
  damage?: ScanDamage;
  /** A good line of a newer format was found: the log must be refused. */
  newerFormat?: { version: number; line: number };
  /** A good line whose kind or payload the check refused: the log must be refused, not cut. */
  undecodable?: { line: number; detail: string };
}

/**
 * The check a well-formed event must pass (its kind is known and its payload has that kind's
 * shape): the problem, or undefined. The run supplies it (run/eventCatalogue.ts eventProblem).
 */
export type EventCheck = (event: { kind: string; payload: unknown }) => string | undefined;

/**
 * Scan `path` from `start` to its current end. A trailing line without "\n" is not an
 * event: it is reported through `partialBytes` (a writer is still writing it, or it was
 * torn by a crash; the caller decides which).
 */
export function scanLog(path: string, start: ScanStart, maxLineBytes: number, check?: EventCheck): ScanResult {
  const fd = fs.openSync(path, 'r');
  try {
    return scanOpenLog(fd, start, maxLineBytes, check);
  } finally {
    fs.closeSync(fd);
  }
}

function scanOpenLog(fd: number, start: ScanStart, maxLineBytes: number, checkEvent: EventCheck | undefined): ScanResult {
  const size = fs.fstatSync(fd).size;
  const events: CanvasEvent[] = [];
  let { offset, line, seq } = start;
  let readPos = offset;
  let pending: Buffer = Buffer.alloc(0);
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const result = (extra: Partial<ScanResult> = {}): ScanResult => ({
    events,
    next: { offset, line, seq },
    partialBytes: size - offset,
    ...extra,
  });

  while (readPos < size) {
    const n = fs.readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - readPos), readPos);
    if (n === 0) break;
    readPos += n;
    const data = pending.length ? Buffer.concat([pending, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    let from = 0;
    for (let nl = data.indexOf(10, from); nl !== -1; nl = data.indexOf(10, from)) {
      if (nl - from > maxLineBytes) return result({ damage: oversized(line, offset, nl - from, maxLineBytes) });
      // A log copied through Windows ends its lines with CR LF: the CR is part of the line end.
      const end = nl > from && data[nl - 1] === 13 ? nl - 1 : nl;
      const check = checkEventLine(data.subarray(from, end), seq);
      if (!check.ok) {
        if (check.problem === 'newer-format') return result({ newerFormat: { version: check.version, line } });
        return result({ damage: { line, byteOffset: offset, problem: check.problem, detail: check.detail } });
      }
      const refused = checkEvent?.(check.event);
      if (refused) return result({ undecodable: { line, detail: refused } });
      events.push(check.event);
      offset += nl - from + 1;
      line += 1;
      seq += 1;
      from = nl + 1;
    }
    // Copy the unfinished line out of the reused chunk buffer.
    pending = Buffer.from(data.subarray(from));
    if (pending.length > maxLineBytes) return result({ damage: oversized(line, offset, pending.length, maxLineBytes) });
  }
  return result();
}

function oversized(line: number, byteOffset: number, length: number, maxLineBytes: number): ScanDamage {
  return {
    line,
    byteOffset,
    problem: 'oversized-line',
    detail: `line is longer than ${maxLineBytes} bytes (${length} bytes read without a line end); no event is that large`,
  };
}

/** How many lines start at or after `offset` (a last line without "\n" counts). */
export function countLinesFrom(path: string, offset: number): number {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let lines = 0;
    let last = -1;
    for (let pos = offset; pos < size; ) {
      const n = fs.readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - pos), pos);
      if (n === 0) break;
      for (let i = chunk.indexOf(10, 0); i !== -1 && i < n; i = chunk.indexOf(10, i + 1)) lines++;
      last = chunk[n - 1]!;
      pos += n;
    }
    return lines + (size > offset && last !== 10 ? 1 : 0);
  } finally {
    fs.closeSync(fd);
  }
}
