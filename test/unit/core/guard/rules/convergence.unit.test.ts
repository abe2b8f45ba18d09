import assert from 'node:assert/strict';
import { convergenceChoiceInRange } from '../../../../../src/core/guard/rules/convergenceChoiceInRange';
import { testsRedoneAfterCutoffChange } from '../../../../../src/core/guard/rules/testsRedoneAfterCutoffChange';
import { cutoffAbovePseudopotentialSuggestion } from '../../../../../src/core/guard/rules/cutoffAbovePseudopotentialSuggestion';
import { artifactRefSchema, quantitySchema } from '../../../../../src/core/guard/schemaAnnotations';
import { MemoryProvenance } from '../support/memoryProvenance';
import { cutoffSelection, kSelection, proposed, pseudoTable } from '../support/domain';

const schema = {
  type: 'object',
  properties: {
    ecutwfcRy: quantitySchema('c', 'Ry'),
    ecutrhoRy: quantitySchema('c', 'Ry'),
    kSpacingPerAngstrom: quantitySchema('k', '1/Å'),
    pseudopotentials: artifactRefSchema('p', { names: ['pseudopotentials'] }),
  },
};

describe('tier-1 rule convergence-choice-in-range', () => {
  const p = () => new MemoryProvenance([cutoffSelection('a-1', [20, 25, 30, 35, 40], 30)]);
  it('passes a tested value below the finest', () => {
    const vs = convergenceChoiceInRange({
      call: proposed('t', { ecutwfcRy: 30 }, { ecutwfcRy: 'a-1.chosen.ecutwfcRy' }),
      schema,
      provenance: p(),
    });
    assert.deepEqual(
      vs.map((v) => v.level),
      ['pass'],
    );
  });
  it('fails the finest value tested', () => {
    const [v] = convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 40 }), schema, provenance: p() });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /40 Ry is the finest value tested in a-1/);
  });
  it('fails a value outside the tested range, even as a literal', () => {
    const [v] = convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 60 }), schema, provenance: p() });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /outside the range tested in a-1 \(20–40 Ry/);
  });
  it('treats the smallest spacing as the finest k-sampling', () => {
    const q = new MemoryProvenance([kSelection('a-1', [0.4, 0.3, 0.2, 0.15], 0.2, 30)]);
    assert.equal(convergenceChoiceInRange({ call: proposed('t', { kSpacingPerAngstrom: 0.2 }), schema, provenance: q })[0]!.level, 'pass');
    assert.equal(convergenceChoiceInRange({ call: proposed('t', { kSpacingPerAngstrom: 0.15 }), schema, provenance: q })[0]!.level, 'fail');
  });
  it("fails a tested value coarser than the one the selection chose, by the selection's own criterion", () => {
    // 25 Ry is inside the range and not the finest, but the energy criterion put it 1.5 meV/atom off
    const [v] = convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 25 }), schema, provenance: p() });
    assert.equal(v!.level, 'fail');
    assert.match(
      v!.reasons[0]!,
      /25 Ry is coarser than 30 Ry, the cheapest value a-1 found within 1 meV\/atom of the finest \(25 is 1\.500 meV\/atom from the finest\)/,
    );
    assert.equal(
      convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 35 }), schema, provenance: p() })[0]!.level,
      'pass',
      'a finer tested value is fine',
    );
    // judged by pressure: the message speaks of the shift of a
    const sel = kSelection('a-1', [0.3, 0.25, 0.2, 0.15], 0.2, 30);
    const value = sel.value as { tested: { latticeShiftPercent?: number }[]; criterion?: unknown };
    value.criterion = { kind: 'pressure', toleranceLatticePercent: 0.05, bulkModulusGPa: 348 };
    value.tested.forEach((t, i) => (t.latticeShiftPercent = [0.016, 0.063, 0.015, 0][i]));
    const [k] = convergenceChoiceInRange({
      call: proposed('t', { kSpacingPerAngstrom: 0.25 }),
      schema,
      provenance: new MemoryProvenance([sel]),
    });
    assert.equal(k!.level, 'fail');
    assert.match(
      k!.reasons[0]!,
      /0\.25 1\/Å is coarser than 0\.2 1\/Å, the cheapest value a-1 found within 0\.05 % of a by pressure \(\|ΔP\| ≤ 5\.22 kbar at B ≈ 348 GPa\) of the finest \(0\.25 is 0\.063 % of a from the finest\)/,
    );
  });
  it('names the magnetization change when the selection judged the moment beside the energy', () => {
    // hcp Co's k sweep at 60 Ry (bench:moments): 0.3 1/Å is 2.2 meV/atom and 0.05 μB/atom from the finest
    const sel = kSelection('a-1', [0.3, 0.25, 0.2, 0.15], 0.25, 30);
    const value = sel.value as { tested: { deltaMevPerAtom: number; deltaMomentMuBPerAtom?: number }[]; criterion?: unknown };
    value.criterion = { kind: 'energy', toleranceMevPerAtom: 5, toleranceMomentMuBPerAtom: 0.02 };
    value.tested.forEach((t, i) => {
      t.deltaMevPerAtom = [2.233, 1.813, 0.823, 0][i]!;
      t.deltaMomentMuBPerAtom = [0.05, 0.015, 0.015, 0][i]!;
    });
    const [k] = convergenceChoiceInRange({
      call: proposed('t', { kSpacingPerAngstrom: 0.3 }),
      schema,
      provenance: new MemoryProvenance([sel]),
    });
    assert.equal(k!.level, 'fail');
    assert.match(
      k!.reasons[0]!,
      /0\.3 1\/Å is coarser than 0\.25 1\/Å, the cheapest value a-1 found within 5 meV\/atom and within 0\.02 μB\/atom in the magnetization of the finest \(0\.3 is 2\.233 meV\/atom and 0\.050 μB\/atom in the magnetization from the finest\)/,
    );
  });
  it('ignores a provisional selection when no reference names it (an unconverged sweep is being extended)', () => {
    const q = new MemoryProvenance([cutoffSelection('a-1', [20, 25, 30], 30, { status: 'provisional' })]);
    assert.equal(convergenceChoiceInRange({ call: proposed('t', { ecutwfcRy: 45 }), schema, provenance: q })[0]!.level, 'pass');
  });
});

describe('tier-1 rule tests-redone-after-cutoff-change', () => {
  it('passes a spacing tested at the cutoff in use', () => {
    const q = new MemoryProvenance([kSelection('a-1', [0.4, 0.3, 0.2, 0.15], 0.2, 30)]);
    assert.equal(
      testsRedoneAfterCutoffChange({ call: proposed('t', { ecutwfcRy: 30, kSpacingPerAngstrom: 0.2 }), schema, provenance: q })[0]!.level,
      'pass',
    );
  });
  it('fails a spacing whose test ran at another cutoff, and says to redo it', () => {
    const q = new MemoryProvenance([kSelection('a-1', [0.4, 0.3, 0.2, 0.15], 0.2, 25)]);
    const [v] = testsRedoneAfterCutoffChange({ call: proposed('t', { ecutwfcRy: 35, kSpacingPerAngstrom: 0.2 }), schema, provenance: q });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /tested at ecutwfc 25 Ry but this call uses 35 Ry\. Redo the k-point sweep at 35 Ry/);
  });
});

describe('tier-1 rule cutoff-above-pseudopotential-suggestion', () => {
  it('passes cutoffs at or above the UPF suggestion', () => {
    const q = new MemoryProvenance([pseudoTable('a-1', 30, 240)]);
    const vs = cutoffAbovePseudopotentialSuggestion({
      call: proposed('t', { pseudopotentials: 'a-1', ecutwfcRy: 30, ecutrhoRy: 240 }),
      schema,
      provenance: q,
    });
    assert.deepEqual(
      vs.map((v) => v.level),
      ['pass', 'pass'],
    );
  });
  it('fails a cutoff below the suggestion, naming the file and the suggested value', () => {
    const q = new MemoryProvenance([pseudoTable('a-1', 30, 240)]);
    const vs = cutoffAbovePseudopotentialSuggestion({
      call: proposed('t', { pseudopotentials: 'a-1', ecutwfcRy: 25, ecutrhoRy: 240 }),
      schema,
      provenance: q,
    });
    assert.deepEqual(
      vs.map((v) => v.level),
      ['fail', 'pass'],
    );
    assert.match(vs[0]!.reasons[0]!, /25 Ry is below the 30 Ry suggested in the header of Al\.pbe-nl-rrkjus_psl\.1\.0\.0\.UPF/);
  });
  it('has nothing to check when the headers suggest no cutoff', () => {
    const q = new MemoryProvenance([pseudoTable('a-1')]);
    assert.equal(
      cutoffAbovePseudopotentialSuggestion({ call: proposed('t', { pseudopotentials: 'a-1', ecutwfcRy: 5 }), schema, provenance: q })[0]!
        .level,
      'pass',
    );
  });
});
