// Malformed inputs and outputs, generated from the real fixtures by fast-check: every one
// must give a result (diagnostics with line numbers, or a parsed output), never an
// unhandled exception. Seeds are fixed so a failure reproduces.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fc from 'fast-check';
import { parsePwInput, serializePwInput } from '../../../../../src/core/dft/qe/input';
import { completionsAt, hoverAt } from '../../../../../src/core/dft/qe/language';
import { parsePwOutput, PwProgressParser, type PwOutput } from '../../../../../src/core/dft/qe/output';
import { physicalSettingsOf } from '../../../../../src/core/dft/qe/settings';
import { validatePwInput } from '../../../../../src/core/dft/qe/validate';
import { fixtureInputs, fixtureOutputs } from './fixtures';

const RUNS = 1000;
const INPUTS = fixtureInputs().map((f) => fs.readFileSync(f, 'utf8'));
const OUTPUTS = fixtureOutputs()
  .map((f) => fs.readFileSync(f, 'utf8'))
  .map((t) => t.split('\n').slice(0, 600).join('\n'));

const JUNK = fc.oneof(
  fc.constantFrom('&', '/', '!', '#', "'", '"', '=', ',', '(', ')', '{', '}', '\n', '\r\n', '\t', ' ', '*', '-', '.', 'd', 'E', '%'),
  fc.constantFrom(
    '&SYSTEM',
    '&end',
    'ATOMIC_POSITIONS',
    'K_POINTS automatic',
    'CELL_PARAMETERS {alat}',
    'HUBBARD',
    "'scf'",
    '.true.',
    'celldm(',
    'nat = ',
    'ntyp=3',
    '1.0d-',
    '3*',
    'crystal_sg',
    '\u00e9',
    '\u0000',
    '99999999999999999999',
    'NaN',
    '-0',
  ),
  fc.string({ maxLength: 8 }),
);

/** One edit of a text: delete, insert, duplicate or move lines, or truncate. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.nat(40) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: JUNK }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('swap-lines' as const),
    a: fc.double({ min: 0, max: 1, noNaN: true }),
    b: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('garble-number' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    text: fc.constantFrom('*****', '-', 'NaN', '1e999', ''),
  }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function apply(text: string, m: Mutation): string {
  const pos = (x: number) => Math.min(text.length, Math.floor(x * text.length));
  const lines = text.split('\n');
  const line = (x: number) => Math.min(lines.length - 1, Math.floor(x * lines.length));
  switch (m.kind) {
    case 'delete':
      return text.slice(0, pos(m.at)) + text.slice(pos(m.at) + m.length);
    case 'insert':
      return text.slice(0, pos(m.at)) + m.text + text.slice(pos(m.at));
    case 'duplicate-line': {
      const i = line(m.at);
      lines.splice(i, 0, lines[i]!);
      return lines.join('\n');
    }
    case 'swap-lines': {
      const i = line(m.a);
      const j = line(m.b);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return lines.join('\n');
    }
    case 'truncate':
      return text.slice(0, pos(m.at));
    case 'garble-number': {
      const re = /-?\d+\.\d+/g;
      const found = [...text.matchAll(re)];
      if (!found.length) return text;
      const hit = found[Math.min(found.length - 1, Math.floor(m.at * found.length))]!;
      return text.slice(0, hit.index) + m.text + text.slice(hit.index! + hit[0].length);
    }
  }
}

const malformed = (sources: string[]) =>
  fc.tuple(fc.constantFrom(...sources), fc.array(mutation, { minLength: 1, maxLength: 6 })).map(([t, ms]) => ms.reduce(apply, t));

function checkOutput(o: PwOutput): void {
  assert.equal(typeof o.scfConverged, 'boolean');
  assert.equal(typeof o.jobDone, 'boolean');
  for (const x of [o.totalEnergyRy, o.fermiEnergyEv, o.pressureKbar, o.wallTimeSeconds, o.totalMagnetization]) {
    assert.ok(x === undefined || typeof x === 'number', `not a number: ${String(x)}`);
  }
  assert.ok(Array.isArray(o.warnings) && Array.isArray(o.scfCycles) && Array.isArray(o.ionicSteps));
  for (const s of o.ionicSteps) assert.equal(s.positionsAngstrom.length, s.symbols.length);
}

describe('fuzz: malformed pw.x inputs and outputs', function () {
  this.timeout(240_000);

  it(`${RUNS} malformed inputs: parsed losslessly and validated with in-range diagnostics, never an exception`, () => {
    assert.ok(INPUTS.length >= 5);
    let withErrors = 0;
    fc.assert(
      fc.property(malformed(INPUTS), fc.nat(), (text, seed) => {
        const input = parsePwInput(text);
        assert.equal(serializePwInput(input), text);
        const r = validatePwInput(input);
        const lineCount = text.split(/\r\n|\n|\r/).length;
        for (const d of r.diagnostics) {
          assert.notEqual(d.code, 'validator-internal', d.message);
          assert.ok(d.message.length > 10, `empty message for ${d.code}`);
          assert.ok(
            d.range.start.line >= 0 && d.range.start.line < lineCount,
            `${d.code} starts on line ${d.range.start.line} of ${lineCount}`,
          );
          assert.ok(d.range.end.line >= d.range.start.line && d.range.end.line <= lineCount);
        }
        if (r.errorCount) withErrors++;
        try {
          physicalSettingsOf(input);
        } catch (e) {
          assert.match((e as Error).message, /ecutwfc/);
        }
        const line = seed % lineCount;
        const lineText = text.split(/\r\n|\n|\r/)[line] ?? '';
        const position = { line, character: lineText.length ? seed % (lineText.length + 1) : 0 };
        completionsAt(text, position);
        hoverAt(text, position);
      }),
      { numRuns: RUNS, seed: 20261130 },
    );
    assert.ok(withErrors > RUNS / 4, `only ${withErrors} of ${RUNS} mutated inputs had errors: the mutations are too gentle`);
  });

  it(`${RUNS} malformed outputs: parsed to a result by the batch and the streaming parser, never an exception`, () => {
    assert.ok(OUTPUTS.length >= 5);
    fc.assert(
      fc.property(malformed(OUTPUTS), fc.array(fc.nat(4000), { maxLength: 6 }), (text, cuts) => {
        checkOutput(parsePwOutput(text));
        const live = new PwProgressParser();
        let at = 0;
        for (const c of [...cuts.sort((a, b) => a - b), text.length]) {
          live.push(text.slice(at, Math.max(at, c)));
          at = Math.max(at, c);
        }
        checkOutput(live.end());
      }),
      { numRuns: RUNS, seed: 20261130 },
    );
  });
});
