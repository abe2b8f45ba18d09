// The words of an adsorption search with the user's own calculator over i-PI: the objective
// line (the plan's and the report's title) and the report's one claim name the i-PI calculator,
// never EMT, and the claim is a screening energy, not a DFT adsorption energy.
import assert from 'node:assert/strict';
import type { ComposeContextOf } from '../../../../src/core/workflows/defineWorkflow';
import {
  resolveSearchInputs,
  type AdsorptionSearchInputs,
  type SearchObjectiveInputs,
} from '../../../../src/core/workflows/adsorptionSearch/inputs';
import { ADSORPTION_SEARCH_COMPOSERS } from '../../../../src/core/workflows/adsorptionSearch/report';
import { searchObjective } from '../../../../src/core/workflows/adsorptionSearch/objectiveText';

const IPI: SearchObjectiveInputs['calculator'] = {
  kind: 'ipi',
  command: ['/usr/bin/python3', 'dreams_ase_ipi_client.py', 'mace.calculators:mace_mp'],
};
const inputs = (calculator: SearchObjectiveInputs['calculator']): SearchObjectiveInputs => ({
  slab: { generate: { metal: 'Pt', facet: 'fcc111', latticeConstantAngstrom: 3.92 } },
  adsorbate: 'CO',
  calculator,
});

function context(calculator: SearchObjectiveInputs['calculator']): ComposeContextOf<AdsorptionSearchInputs> {
  const best = { iteration: 2, adsorptionEnergyEv: -1.4567, relaxedSite: 'fcc', refs: { adsorptionEnergy: 'a-9' } };
  return {
    provenance: {} as ComposeContextOf<AdsorptionSearchInputs>['provenance'],
    inputs: resolveSearchInputs(inputs(calculator), {}),
    ref: (step, name) => (step === 'search' && name === 'adsorption_search_result' ? 'a-12' : undefined),
    refs: () => [],
    value: (ref) => (ref === 'a-12' ? { best } : undefined),
  };
}

describe('the words of an adsorption search with an i-PI calculator', () => {
  it('names the i-PI calculator in the objective line, where an EMT or pw.x search names its own', () => {
    assert.equal(
      searchObjective(inputs(IPI)),
      'Most stable adsorption configuration of CO on Pt(111) (AdsMind closed loop, i-PI calculator)',
    );
    assert.equal(
      searchObjective(inputs({ kind: 'emt' })),
      'Most stable adsorption configuration of CO on Pt(111) (AdsMind closed loop, EMT)',
    );
    assert.equal(
      searchObjective(inputs({ kind: 'pw.x', functional: 'PBE' })),
      'Most stable adsorption configuration of CO on Pt(111) (AdsMind closed loop, pw.x PBE)',
    );
  });

  it('claims an i-PI screening energy, not an EMT one and not a DFT adsorption energy', () => {
    const [claim] = ADSORPTION_SEARCH_COMPOSERS.claims!(context(IPI)) as { quantity: string; statement: string; cites: string }[];
    assert.deepEqual([claim!.quantity, claim!.cites], ['screening_adsorption_energy', 'a-9']);
    assert.equal(claim!.statement, 'E_ads(CO, fcc) = -1.457 eV (i-PI screening energy)');
    const [emt] = ADSORPTION_SEARCH_COMPOSERS.claims!(context({ kind: 'emt' })) as { statement: string }[];
    assert.equal(emt!.statement, 'E_ads(CO, fcc) = -1.457 eV (EMT screening energy)');
  });
});
