/**
 * One line of the event log: how an event is written and how a line is checked.
 *
 * Line format: the event's JSON with `crc` as its last member, then "\n":
 *   {"v":1,"seq":7,"ts":"…","actor":{…},"kind":"key.write","key":"notes/a","payload":{…},"crc":"1a2b3c4d"}
 *
 * The checksum is CRC-32 (zlib polynomial, 8 lowercase hex digits) of the UTF-8 bytes
 * of the event's JSON without `crc`, exactly as written: the line with its trailing
 * `,"crc":"…"` cut out. Checking the bytes as written (not a re-serialisation) means a
 * reader never depends on how a JSON library orders keys or prints numbers.
 */
import zlib from 'node:zlib';
import { EVENT_FORMAT_VERSION, type Actor, type CanvasEvent, type RecoveryReport } from './types';

export type LineProblem = NonNullable<RecoveryReport['damage']>['problem'];

/** `,"crc":"` + 8 hex digits + `"}`. */
const CRC_SUFFIX_LENGTH = 18;
const CRC_SUFFIX = /^,"crc":"([0-9a-f]{8})"\}$/;
const ACTOR_KINDS: ReadonlySet<string> = new Set(['agent', 'judge', 'tool', 'user', 'framework']);
const CLOSING_BRACE = Buffer.from('}');

const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** An event before its checksum: the payload was checked against its kind where it was written. */
export interface UnsealedEvent {
  v: number;
  seq: number;
  ts: string;
  actor: Actor;
  /** Any kind: the codec writes lines; append (eventLog.ts) checks kind and payload against the catalogue. */
  kind: string;
  key?: string;
  payload: unknown;
}

/** The text of one log line (with its newline) for an event that has no crc yet. */
export function encodeEventLine(event: UnsealedEvent): { line: string; crc: string } {
  const { v, seq, ts, actor, kind, key, payload } = event;
  const json = JSON.stringify(key === undefined ? { v, seq, ts, actor, kind, payload } : { v, seq, ts, actor, kind, key, payload });
  const crc = hex8(zlib.crc32(json));
  return { line: `${json.slice(0, -1)},"crc":"${crc}"}\n`, crc };
}

export type LineCheck =
  | { ok: true; event: CanvasEvent }
  | { ok: false; problem: LineProblem; detail: string }
  /** A well-formed line written by a newer DREAMS: the whole log must be refused, not cut. */
  | { ok: false; problem: 'newer-format'; version: number };

/**
 * Check one line (without its newline) against the format and the expected sequence
 * number. Never throws.
 */
export function checkEventLine(line: Buffer, expectedSeq: number): LineCheck {
  if (line.length === 0) return { ok: false, problem: 'invalid-json', detail: 'blank line' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch (err) {
    return { ok: false, problem: 'invalid-json', detail: `not JSON (${(err as Error).message.slice(0, 120)})` };
  }
  const tail = line.length >= CRC_SUFFIX_LENGTH ? line.subarray(line.length - CRC_SUFFIX_LENGTH).toString('latin1') : '';
  const suffix = CRC_SUFFIX.exec(tail);
  if (!suffix) return { ok: false, problem: 'bad-checksum', detail: 'the line does not end with its "crc" member' };
  const computed = hex8(zlib.crc32(CLOSING_BRACE, zlib.crc32(line.subarray(0, line.length - CRC_SUFFIX_LENGTH))));
  if (computed !== suffix[1]) {
    return {
      ok: false,
      problem: 'bad-checksum',
      detail: `checksum ${suffix[1]} recorded, ${computed} computed: the line was changed after it was written`,
    };
  }
  const shapeProblem = describeShapeProblem(parsed);
  if (shapeProblem) return { ok: false, problem: 'bad-shape', detail: shapeProblem };
  const event = parsed as CanvasEvent;
  if (event.v > EVENT_FORMAT_VERSION) return { ok: false, problem: 'newer-format', version: event.v };
  if (event.seq !== expectedSeq) {
    const what =
      event.seq < expectedSeq ? `seq ${event.seq} again (a repeated or reordered line)` : `seq ${event.seq} (events are missing)`;
    return { ok: false, problem: 'sequence-gap', detail: `expected seq ${expectedSeq}, found ${what}` };
  }
  return { ok: true, event };
}

/** Why a parsed line is not a CanvasEvent, or undefined when it is one. */
function describeShapeProblem(x: unknown): string | undefined {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'the line is not a JSON object';
  const e = x as Record<string, unknown>;
  if (!Number.isInteger(e.v) || (e.v as number) < 1) return `"v" must be a positive integer, found ${JSON.stringify(e.v)}`;
  if (!Number.isInteger(e.seq) || (e.seq as number) < 1) return `"seq" must be a positive integer, found ${JSON.stringify(e.seq)}`;
  if (typeof e.ts !== 'string') return `"ts" must be a string, found ${JSON.stringify(e.ts)}`;
  const actor = e.actor as Record<string, unknown> | null;
  if (typeof actor !== 'object' || actor === null || !ACTOR_KINDS.has(actor.kind as string) || typeof actor.id !== 'string') {
    return `"actor" must be {kind: agent|judge|tool|user|framework, id: string}, found ${JSON.stringify(e.actor)?.slice(0, 80)}`;
  }
  if (typeof e.kind !== 'string' || e.kind === '') return `"kind" must be a non-empty string, found ${JSON.stringify(e.kind)}`;
  if (e.key !== undefined && typeof e.key !== 'string') return `"key" must be a string when present, found ${JSON.stringify(e.key)}`;
  if (!('payload' in e)) return 'the event has no "payload"';
  return undefined;
}
