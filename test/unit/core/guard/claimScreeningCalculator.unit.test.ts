// A report claim of a DFT quantity built on a screening energy is refused, and the refusal
// names the calculator the energy came from: EMT, or the user's own calculator over i-PI
// (a MACE energy is not called an EMT energy). Stated as a screening energy it passes.
import assert from 'node:assert/strict';
import { checkClaim } from '../../../../src/core/guard/claimChecks';
import type { ArtifactRecord, ToolCallRecord } from '../../../../src/core/provenance/types';
import type { ProvenanceView } from '../../../../src/core/provenance/view';

/** A total energy of `calculator` (its meta as the calculator records it) and the adsorption energy made from it. */
function view(meta: Record<string, unknown>): ProvenanceView {
  const artifacts = [
    { id: 'a-1', name: 'total_energy', creator: 'c-1', inputs: [], value: -3.21, unit: 'eV', status: 'final', meta },
    { id: 'a-2', name: 'adsorption_energy', creator: 'c-2', inputs: ['a-1'], value: -1.457, unit: 'eV', status: 'final' },
  ] as unknown as ArtifactRecord[];
  const calls = [
    { id: 'c-1', tool: 'relax_structure', status: 'ok', args: {} },
    { id: 'c-2', tool: 'adsorption_energy', status: 'ok', args: {} },
  ] as unknown as ToolCallRecord[];
  return {
    artifact: (id) => artifacts.find((a) => a.id === id),
    call: (id) => calls.find((c) => c.id === id),
    artifacts: () => artifacts,
  };
}

const calculatorVerdict = (quantity: string, v: ProvenanceView) =>
  checkClaim({ quantity, value: -1.457, unit: 'eV', cites: 'a-2' }, 0, v).find((x) => x.rule === 'claim-calculator');

describe('a DFT claim on a screening energy', () => {
  const mace = view({
    settings: { code: 'ipi', functional: 'i-PI calculator 0123456789ab' },
    calculator: {
      method: 'ipi',
      production: false,
      name: 'MACE-MP-0 medium (mace 0.3.6)',
      command: 'python3 client.py',
      commandSha256: 'f'.repeat(64),
    },
  });

  it("is refused for the user's i-PI calculator, naming that calculator, not EMT", () => {
    const v = calculatorVerdict('adsorption_energy', mace)!;
    assert.equal(v.level, 'fail');
    const reason = v.reasons.join(' ');
    assert.match(reason, /an energy of the i-PI calculator MACE-MP-0 medium \(mace 0\.3\.6\), a screening calculator/);
    assert.match(reason, /state it as screening_adsorption_energy/);
    assert.doesNotMatch(reason, /EMT/);
  });

  it('is refused for EMT with the words it had', () => {
    const v = calculatorVerdict('adsorption_energy', view({ settings: { code: 'emt' } }))!;
    assert.equal(v.level, 'fail');
    assert.match(v.reasons.join(' '), /an EMT energy: EMT is fine for testing the search, not for final numbers/);
  });

  it('passes as a screening adsorption energy', () => {
    const vs = checkClaim({ quantity: 'screening_adsorption_energy', value: -1.457, unit: 'eV', cites: 'a-2' }, 0, mace);
    assert.equal(
      vs.find((x) => x.level === 'fail'),
      undefined,
      JSON.stringify(vs),
    );
  });
});
