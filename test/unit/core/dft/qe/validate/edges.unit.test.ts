// Every validation rule at the edges of its domain: each variable of every namelist, in every
// QE version, set to negative, zero, huge, tiny, empty, blank and NaN-like values (and its
// indices to 0, -1 and far out of range), and card fields replaced by such values, with
// pseudopotential headers supplied so that the rules needing them run too. No rule may
// throw (a "validator-internal" diagnostic), and every message must name real values.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { qeDefinitions, QE_VERSIONS, type QeVariable, type QeVersion } from '../../../../../../src/core/dft/qe/definitions';
import { readUpfHeader, type UpfHeader } from '../../../../../../src/core/dft/qe/upf';
import { validatePwInput, type ValidationResult } from '../../../../../../src/core/dft/qe/validate';
import { FIXTURES, QE_TEST_SUITE, qeTestSuiteInputs } from '../fixtures';

const BASE = fs.readFileSync(path.join(FIXTURES, 'al-fcc-scf.in'), 'utf8');
/** The base made a vc-relax with every namelist present, so that pw.x (and the rules) read all of them. */
const VC_RELAX = BASE.replace("calculation = 'scf'", "calculation = 'vc-relax'\n  lfcp = .true.\n  trism = .true.").replace(
  '&ELECTRONS\n  conv_thr = 1.0d-8\n/\n',
  '&ELECTRONS\n  conv_thr = 1.0d-8\n/\n&IONS\n/\n&CELL\n/\n&FCP\n/\n&RISM\n/\n',
);

const HEADERS: Record<string, UpfHeader> = Object.fromEntries(
  fs
    .readdirSync(path.join(FIXTURES, 'upf'))
    .filter((f) => f.endsWith('.UPF'))
    .map((f) => [f, readUpfHeader(fs.readFileSync(path.join(FIXTURES, 'upf', f), 'utf8'), f)]),
);
/** Every file name an input may reference gets a header: the pseudopotential rules run on every input. */
function headersFor(text: string): Record<string, UpfHeader> {
  const all = Object.values(HEADERS);
  const names = [...text.matchAll(/^\s*\S+\s+\S+\s+(\S+\.(?:UPF|upf|van|RRKJ3|pz-vbc|vdb)\S*)\s*$/gm)].map((m) => m[1]!);
  return { ...HEADERS, ...Object.fromEntries(names.map((n, i) => [n, all[i % all.length]!])) };
}

const NUMBERS = ['-1', '0', '-0.0', '1d300', '-1d300', '1e-320', '2147483647', '-2147483648', '3'];
const STRINGS = ["''", "' '", "'-1'", "'NaN'", `'${'x'.repeat(300)}'`];
const OTHERS = ['.true.', '.false.', 'NaN', "'0'"];

function valuesFor(v: QeVariable): string[] {
  if (v.type === 'CHARACTER')
    return [
      ...STRINGS,
      ...v.options
        .flatMap((o) => o.values)
        .slice(0, 3)
        .map((x) => `'${x}'`),
      'NaN',
    ];
  if (v.type === 'LOGICAL') return OTHERS;
  return [...NUMBERS, ...OTHERS];
}

function check(r: ValidationResult, text: string, what: string): void {
  const lines = text.split(/\r\n|\n|\r/).length;
  for (const d of r.diagnostics) {
    assert.notEqual(d.code, 'validator-internal', `${what}: ${d.message}`);
    assert.ok(d.message.length > 10, `${what}: empty message for ${d.code}`);
    assert.ok(!/\bundefined\b|\[object Object\]/.test(d.message), `${what}: ${d.code} says "${d.message}"`);
    if (!/nan/i.test(text)) assert.ok(!/\bNaN\b/.test(d.message), `${what}: ${d.code} says "${d.message}"`);
    assert.ok(d.range.start.line >= 0 && d.range.end.line < lines + 1, `${what}: ${d.code} outside the text`);
  }
}

/** The text with `line` added as the last assignment of namelist `nl`. */
function assign(text: string, nl: string, line: string): string {
  const at = text.search(new RegExp(`^&${nl}\\b`, 'mi'));
  const end = text.indexOf('\n/', at);
  return `${text.slice(0, end + 1)}  ${line}\n${text.slice(end + 1)}`;
}

describe('validation rules at the edges of their domain', function () {
  this.timeout(300_000);

  for (const version of QE_VERSIONS) {
    it(`QE ${version}: every variable at negative, zero, huge, tiny, empty and NaN-like values, no rule throws`, () => {
      const defs = qeDefinitions(version as QeVersion);
      let runs = 0;
      for (const nl of defs.defs.namelists) {
        for (const v of nl.variables) {
          const index = v.dimensions.length
            ? [`(${v.dimensions.map(() => '1').join(',')})`, '(0)', '(-1)', `(${v.dimensions.map(() => '99999').join(',')})`]
            : [''];
          for (const ix of index) {
            for (const value of ix === '' || ix.startsWith('(1') ? valuesFor(v) : ['1']) {
              const text = assign(VC_RELAX, nl.name, `${v.name}${ix} = ${value}`);
              check(
                validatePwInput(text, { qeVersion: version as QeVersion, upfHeaders: headersFor(text) }),
                text,
                `${nl.name} ${v.name}${ix} = ${value.slice(0, 20)}`,
              );
              runs++;
            }
          }
        }
      }
      assert.ok(runs > 2000, `only ${runs} inputs were tried`);
    });
  }

  it("card fields replaced by edge values in QE's test-suite inputs: no rule throws, in any version", () => {
    const sources = qeTestSuiteInputs().map((f) => fs.readFileSync(path.join(QE_TEST_SUITE, f), 'utf8'));
    const EDGE = fc.constantFrom(
      '-1',
      '0',
      '-0',
      '1e400',
      '-1e400',
      'NaN',
      '',
      '\t',
      '1/0',
      '0/0',
      '-',
      '99999999999999999999',
      '1e-400',
      'Xx',
      '{}',
      '(',
    );
    const fieldEdit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), text: EDGE });
    const lineCut = fc.record({ cut: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.array(fc.oneof(fieldEdit, lineCut), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(...QE_VERSIONS),
        (source, edits, version) => {
          let text = source;
          for (const e of edits) {
            const lines = text.split('\n');
            const cards = lines
              .map((l, i) => ({ l, i }))
              .filter(({ l, i }) => i > 0 && /^\s*[A-Za-z0-9.+\-/]/.test(l) && !/[=&]|^\s*\//.test(l));
            if (!cards.length) continue;
            if ('cut' in e) {
              lines.splice(cards[Math.floor(e.cut * cards.length) % cards.length]!.i, 1);
            } else {
              const target = cards[Math.floor(e.at * cards.length) % cards.length]!;
              const fields = target.l.trim().split(/\s+/);
              fields[Math.floor(e.at * 997) % fields.length] = e.text;
              lines[target.i] = `  ${fields.join(' ')}`;
            }
            text = lines.join('\n');
          }
          check(validatePwInput(text, { qeVersion: version, upfHeaders: headersFor(text) }), text, 'card edit');
        },
      ),
      { numRuns: 400, seed: 20261204 },
    );
  });
});
