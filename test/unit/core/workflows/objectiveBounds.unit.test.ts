// Objectives bounded by what a study needs: the bound in the message, the file named, NaN and
// Inf named as such, bytes that are not UTF-8 refused with their offset, an alias bomb refused.
import assert from 'node:assert/strict';
import { boundProblems, firstInvalidUtf8, MAX_OBJECTIVE_FILE_BYTES } from '../../../../src/core/workflows/objectiveBounds';
import { parseObjectiveBytes, parseObjectiveFile, parseObjectiveText } from '../../../../src/core/workflows/objective';
import { ObjectiveError } from '../../../../src/core/workflows/types';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ObjectiveError, `expected an ObjectiveError, got ${(e as Error).name}: ${(e as Error).message}`);
    return e.message;
  }
  assert.fail('expected the objective to be refused');
};

const al = (extra: string): string =>
  `workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\n${extra}`;

describe('objective sanity bounds', () => {
  it('refuses a cutoff and a k-spacing no study needs, with the bound and the file in the message', () => {
    const m = refusal(() => parseObjectiveFile(al('  cutoffsRy: [20, 25, 1e12]\n  kSpacingsPerAngstrom: [0.3, 0.2, 1e-9]\n'), 'al.yaml'));
    assert.match(m, /^al\.yaml: the inputs of workflow lattice-constant need fixing/);
    assert.match(m, /inputs\.cutoffsRy\[2\] = 1000000000000 Ry is above 400 Ry, more than any study needs/);
    assert.match(m, /inputs\.kSpacingsPerAngstrom\[2\] = 1e-9 1\/Å is below 0\.02 1\/Å, finer than any study needs/);
  });

  it('holds each bound exactly: at the bound passes, beyond it fails', () => {
    assert.deepEqual(boundProblems({ cutoffsRy: [400], kSpacingsPerAngstrom: [0.02], vacuumAngstrom: 100, toleranceMevPerAtom: 0.01 }), []);
    assert.equal(boundProblems({ cutoffsRy: [400.5] }).length, 1);
    assert.equal(boundProblems({ kSpacingsPerAngstrom: [0.0199] }).length, 1);
    assert.equal(boundProblems({ vacuumAngstrom: 100.1 }).length, 1);
    assert.equal(boundProblems({ toleranceMevPerAtom: 0.0099 }).length, 1);
    assert.match(boundProblems({ slab: { layers: 2e7 } })[0]!, /inputs\.slab\.layers = 20000000 is beyond ±1000000/);
    assert.deepEqual(boundProblems({ fmaxEvPerAngstrom: 0.05, heightAngstrom: 1.8 }), [], 'forces are not k-spacings; heights are lengths');
  });

  it('names NaN and Inf as such, wherever they are (not "got null")', () => {
    const m = refusal(() =>
      parseObjectiveFile(al('  cutoffsRy: [20, 25, .inf]\n  toleranceMevPerAtom: .nan\nrun:\n  budget: { maxCostUsd: .nan }\n'), 'al.yaml'),
    );
    assert.match(m, /^al\.yaml has numbers that are not numbers/);
    assert.match(m, /inputs\.cutoffsRy\[2\]: \.inf is infinite/);
    assert.match(m, /inputs\.toleranceMevPerAtom: \.nan is not a number \(NaN\)/);
    assert.match(m, /run\.budget\.maxCostUsd: \.nan is not a number/);
    assert.doesNotMatch(m, /null/);
  });

  it('refuses bytes that are not UTF-8 with their offset, line and column, instead of replacing them', () => {
    const bytes = Buffer.concat([
      Buffer.from('workflow: lattice-constant\nobjective: "Al '),
      Buffer.from([0xe9]),
      Buffer.from('t"\ninputs: {}\n'),
    ]);
    assert.match(
      refusal(() => parseObjectiveBytes(bytes, 'al.yaml')),
      /^al\.yaml is not UTF-8 text: byte 42 \(0xe9, line 2, column 16\) is not valid UTF-8/,
    );
    assert.equal(firstInvalidUtf8(Buffer.from('Å ☃ 𝛼 ok', 'utf8')), undefined);
    assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 1, 'a UTF-16 surrogate is not UTF-8');
    assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x82])), 2, 'a character cut at the end of the file');
  });

  it('refuses an alias bomb quickly, as an objective problem naming the file', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const n of 'bcdefgh')
      levels.push(
        `${n}: &${n} [${Array(9)
          .fill(`*${String.fromCharCode(n.charCodeAt(0) - 1)}`)
          .join(', ')}]`,
      );
    const started = Date.now();
    const m = refusal(() => parseObjectiveFile(`workflow: lattice-constant\n${levels.join('\n')}\ninputs: {}\n`, 'bomb.yaml'));
    assert.match(m, /^bomb\.yaml: its YAML could not be read: .*alias/);
    assert.ok(Date.now() - started < 5000);
  });

  it('refuses an objective file over 256 KiB and a sentence over 10,000 characters, so neither is stored whole', () => {
    assert.match(
      refusal(() => parseObjectiveBytes(Buffer.alloc(MAX_OBJECTIVE_FILE_BYTES + 1, 0x20), 'big.yaml')),
      /^big\.yaml is 262145 bytes, over the 262144 bytes \(256 KiB\) an objective file may have/,
    );
    assert.match(
      refusal(() => parseObjectiveText('lattice constant '.repeat(700))),
      /the objective is 11899 characters long, over the 10000/,
    );
  });
});
