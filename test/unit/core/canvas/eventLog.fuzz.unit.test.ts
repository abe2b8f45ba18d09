// Generated damage to real log files: truncation, changed bytes, reordered, duplicated
// and deleted lines, huge lines, lines of the wrong types with valid checksums, garbage,
// and combinations. Whatever the damage, opening keeps every good event before the first
// damaged line, cuts exactly the rest, and says where — except a file with no good event that
// does not even begin like an event line (or with the zeros of a block lost in a power cut), which
// is refused as not a DREAMS log, untouched.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { encodeEventLine } from '../../../../src/core/canvas/eventLine';
import { openEventLog } from '../../../../src/core/canvas/eventLog';
import { EventLogError } from '../../../../src/core/canvas/eventLogError';
import type { Actor, CanvasEvent } from '../../../../src/core/canvas/types';
import { useTempDirs } from './tempDir';

const MAX_LINE = 64 * 1024;
const tempDir = useTempDirs();

const actorArb: fc.Arbitrary<Actor> = fc.record(
  {
    kind: fc.constantFrom('agent', 'judge', 'tool', 'user', 'framework'),
    id: fc.string({ maxLength: 12 }),
  },
  { requiredKeys: ['kind', 'id'] },
) as fc.Arbitrary<Actor>;

const eventBodyArb = fc.record({
  actor: actorArb,
  kind: fc.constantFrom('key.write', 'provenance.artifact', 'job.transition', 'llm.usage', 'x.custom'),
  key: fc.option(fc.constantFrom('notes/a', 'plan', 'jobs/j-1', 'artifacts/a-3', 'notes/ü-☃'), { nil: undefined }),
  payload: fc.jsonValue({ maxDepth: 3 }),
});

/** Lines of a good log with `n` events, each ending in "\n". */
function goodLog(bodies: { actor: Actor; kind: string; key?: string; payload: unknown }[]): { lines: Buffer[]; events: CanvasEvent[] } {
  const lines: Buffer[] = [];
  const events: CanvasEvent[] = [];
  bodies.forEach((b, i) => {
    const { line } = encodeEventLine({ v: 1, seq: i + 1, ts: new Date(1_700_000_000_000 + i).toISOString(), ...b });
    lines.push(Buffer.from(line));
    events.push(JSON.parse(line) as CanvasEvent);
  });
  return { lines, events };
}

function withCrc(obj: Record<string, unknown>): Buffer {
  const json = JSON.stringify(obj);
  return Buffer.from(`${json.slice(0, -1)},"crc":"${zlib.crc32(json).toString(16).padStart(8, '0')}"}\n`);
}

const WRONG_TYPES: [string, unknown][] = [
  ['v', '1'],
  ['v', 0],
  ['v', 1.5],
  ['v', null],
  ['seq', 'x'],
  ['seq', -1],
  ['seq', 2.5],
  ['ts', 5],
  ['ts', null],
  ['actor', null],
  ['actor', 'dft'],
  ['actor', { kind: 'robot', id: 'x' }],
  ['actor', { kind: 'agent' }],
  ['kind', ''],
  ['kind', 7],
  ['kind', null],
  ['key', 5],
  ['key', []],
  ['payload', undefined],
];

type Damage =
  | { op: 'truncate'; at: number }
  | { op: 'corrupt'; at: number; byte: number }
  | { op: 'swap'; i: number; j: number }
  | { op: 'duplicate'; i: number; at: number }
  | { op: 'delete'; i: number }
  | { op: 'huge'; at: number; length: number; newline: boolean }
  | { op: 'wrong-type'; i: number; which: number }
  | { op: 'garbage'; bytes: number[] }
  | { op: 'not-json'; at: number; text: string };

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fraction }),
  fc.record({ op: fc.constant('corrupt' as const), at: fraction, byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('swap' as const), i: fraction, j: fraction }),
  fc.record({ op: fc.constant('duplicate' as const), i: fraction, at: fraction }),
  fc.record({ op: fc.constant('delete' as const), i: fraction }),
  fc.record({
    op: fc.constant('huge' as const),
    at: fraction,
    length: fc.integer({ min: MAX_LINE + 1, max: 3 * MAX_LINE }),
    newline: fc.boolean(),
  }),
  fc.record({ op: fc.constant('wrong-type' as const), i: fraction, which: fc.integer({ min: 0, max: WRONG_TYPES.length - 1 }) }),
  fc.record({ op: fc.constant('garbage' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 40 }) }),
  fc.record({ op: fc.constant('not-json' as const), at: fraction, text: fc.string({ maxLength: 30 }) }),
);

const pick = (f: number, n: number): number => Math.min(n - 1, Math.floor(f * n));

/** Apply one damage to the file's lines (the last may lack its "\n" after a truncation). */
function damage(lines: Buffer[], d: Damage): Buffer[] {
  const out = [...lines];
  const bytes = Buffer.concat(out);
  switch (d.op) {
    case 'truncate':
      return splitLines(bytes.subarray(0, Math.floor(d.at * bytes.length)));
    case 'corrupt': {
      if (bytes.length === 0) return out;
      const copy = Buffer.from(bytes);
      copy[pick(d.at, copy.length)] = d.byte;
      return splitLines(copy);
    }
    case 'swap': {
      if (out.length < 2) return out;
      const i = pick(d.i, out.length);
      const j = pick(d.j, out.length);
      [out[i], out[j]] = [out[j]!, out[i]!];
      return out;
    }
    case 'duplicate':
      if (out.length === 0) return out;
      out.splice(pick(d.at, out.length + 1), 0, out[pick(d.i, out.length)]!);
      return out;
    case 'delete':
      if (out.length) out.splice(pick(d.i, out.length), 1);
      return out;
    case 'huge':
      out.splice(pick(d.at, out.length + 1), 0, Buffer.from('x'.repeat(d.length) + (d.newline ? '\n' : '')));
      return out;
    case 'wrong-type': {
      if (out.length === 0) return out;
      const i = pick(d.i, out.length);
      let obj: Record<string, unknown>;
      try {
        obj = JSON.parse(out[i]!.toString()) as Record<string, unknown>;
      } catch {
        return out; // an earlier damage already broke this line
      }
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return out;
      delete obj.crc;
      const [field, value] = WRONG_TYPES[d.which]!;
      obj[field] = value;
      out[i] = withCrc(obj);
      return out;
    }
    case 'garbage':
      return [...out, Buffer.from(d.bytes)];
    case 'not-json':
      out.splice(pick(d.at, out.length + 1), 0, Buffer.from(`{${d.text}\n`));
      return out;
  }
}

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let from = 0;
  for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, from)) {
    lines.push(bytes.subarray(from, nl + 1));
    from = nl + 1;
  }
  if (from < bytes.length) lines.push(bytes.subarray(from));
  return lines;
}

/** How many original lines the damaged file still starts with, intact and in order. */
function intactPrefix(original: Buffer[], damaged: Buffer): { lines: number; bytes: number } {
  let bytes = 0;
  let lines = 0;
  for (const l of original) {
    if (bytes + l.length > damaged.length || !damaged.subarray(bytes, bytes + l.length).equals(l)) break;
    bytes += l.length;
    lines++;
  }
  return { lines, bytes };
}

const linesIn = (b: Buffer): number => splitLines(b).length;

let runNumber = 0;

describe('event log: fuzzed damage', function () {
  this.timeout(300_000);

  it('a writer opening any of 1,000 damaged logs keeps every good event before the damage and reports exactly what it cut', async () => {
    const root = tempDir();
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventBodyArb, { minLength: 0, maxLength: 25 }),
        fc.array(damageArb, { minLength: 1, maxLength: 3 }),
        async (bodies, damages) => {
          const { lines, events } = goodLog(bodies);
          const damagedLines = damages.reduce(damage, lines);
          const damaged = Buffer.concat(damagedLines);
          const dir = path.join(root, String(++runNumber));
          fs.mkdirSync(dir);
          const file = path.join(dir, 'events.jsonl');
          fs.writeFileSync(file, damaged);
          const expected = intactPrefix(lines, damaged);
          const start = Buffer.from('{"v":');
          const head = damaged.subarray(0, Math.min(start.length, damaged.length));
          if (expected.lines === 0 && head[0] !== 0 && !head.equals(start.subarray(0, head.length))) {
            // Nothing good and not even the start of an event line: not a DREAMS log, refused untouched.
            await assert.rejects(
              openEventLog(file, { mode: 'writer', maxLineBytes: MAX_LINE }),
              (e: unknown) => e instanceof EventLogError && e.code === 'not-a-log',
            );
            assert.deepEqual(fs.readFileSync(file), damaged, 'a refused file is not changed');
            assert.deepEqual(fs.readdirSync(dir), ['events.jsonl'], 'no copy made and no lock left');
            refused++;
            fs.rmSync(dir, { recursive: true, force: true });
            return;
          }

          const { log, recovery } = await openEventLog(file, { mode: 'writer', maxLineBytes: MAX_LINE });
          try {
            assert.deepEqual(log.events(), events.slice(0, expected.lines), 'every good event before the damage is kept');
            assert.equal(recovery.eventsRead, expected.lines);
            if (expected.bytes === damaged.length) {
              assert.equal(recovery.damage, undefined, 'an undamaged prefix is not reported');
            } else {
              const d = recovery.damage;
              assert.ok(d, 'damage is reported');
              assert.equal(d.line, expected.lines + 1);
              assert.equal(d.byteOffset, expected.bytes);
              assert.equal(d.linesDropped, linesIn(damaged.subarray(expected.bytes)));
              assert.ok(d.detail.length > 0);
              assert.deepEqual(fs.readFileSync(d.backup), damaged, 'the damaged file was kept whole');
            }
            assert.deepEqual(fs.readFileSync(file), damaged.subarray(0, expected.bytes), 'cut exactly at the damage');
          } finally {
            await log.close();
          }
          const again = await openEventLog(file, { mode: 'reader', maxLineBytes: MAX_LINE });
          assert.equal(again.recovery.damage, undefined);
          assert.equal(again.log.lastSeq(), expected.lines);
          fs.rmSync(dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 1000 },
    );
    assert.ok(refused < 500, `${refused} of 1,000 damaged logs were refused as not logs: the property hardly reaches the cut`);
  });

  it('a reader of a damaged log sees the same good events, reports the damage and changes nothing (300 logs)', async () => {
    const root = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventBodyArb, { minLength: 1, maxLength: 25 }),
        fc.array(damageArb, { minLength: 1, maxLength: 3 }),
        async (bodies, damages) => {
          const { lines, events } = goodLog(bodies);
          const damaged = Buffer.concat(damages.reduce(damage, lines));
          const file = path.join(root, `${++runNumber}.jsonl`);
          fs.writeFileSync(file, damaged);
          const expected = intactPrefix(lines, damaged);
          const { log, recovery } = await openEventLog(file, { mode: 'reader', maxLineBytes: MAX_LINE });
          assert.deepEqual(log.events(), events.slice(0, expected.lines));
          const tail = damaged.subarray(expected.bytes);
          // A reader cannot tell a last line still being written from a torn one: it waits.
          const onlyPartialTail = tail.length > 0 && !tail.includes(10) && tail.length <= MAX_LINE;
          assert.equal(recovery.damage === undefined, tail.length === 0 || onlyPartialTail);
          if (recovery.damage) assert.equal(recovery.damage.line, expected.lines + 1);
          assert.deepEqual(fs.readFileSync(file), damaged);
          assert.equal(fs.readdirSync(root).filter((f) => f.startsWith(`${runNumber}.`)).length, 1, 'no lock, no backup');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a tailing reader sees exactly the complete lines, however the writes are split (200 logs)', async () => {
    const root = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventBodyArb, { minLength: 1, maxLength: 15 }),
        fc.array(fraction, { minLength: 1, maxLength: 8 }),
        async (bodies, cuts) => {
          const { lines, events } = goodLog(bodies);
          const all = Buffer.concat(lines);
          const file = path.join(root, `${++runNumber}.jsonl`);
          fs.writeFileSync(file, '');
          const { log } = await openEventLog(file, { mode: 'reader' });
          const points = [...new Set(cuts.map((f) => Math.floor(f * all.length))), all.length].sort((a, b) => a - b);
          let written = 0;
          for (const p of points) {
            fs.appendFileSync(file, all.subarray(written, p));
            written = p;
            const r = log.refresh();
            assert.equal(r.damage, undefined);
            const complete = intactPrefix(lines, all.subarray(0, p)).lines;
            assert.deepEqual(log.events(), events.slice(0, complete));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
