// A sweep is not extended past its extension budget without the user: a model's generate_series
// that extends the sweep of a provisional selection whose next run is predicted over the budget is
// refused, as the offline planner stops there.
import assert from 'node:assert/strict';
import { TIER_ONE_RULES } from '../../../../../src/core/guard/rules';
import { extensionWithinBudget } from '../../../../../src/core/guard/rules/extensionWithinBudget';
import { generateSeriesTool } from '../../../../../src/core/tools/qeTools';
import { MemoryProvenance, type SeedArtifact } from '../support/memoryProvenance';
import { proposed } from '../support/domain';

/** A k sweep generated from template a-3 (inputs a-4..a-6, energies a-7..a-9) and its provisional selection a-10; another template a-11. */
function registry(withinBudget: boolean, status: 'provisional' | 'final' = 'provisional'): MemoryProvenance {
  const input = (id: string): SeedArtifact => ({ id, kind: 'file', name: 'pw_input', creatorTool: 'generate_series', inputs: ['a-3'] });
  const energy = (id: string, from: string): SeedArtifact => ({
    id,
    kind: 'scalar',
    name: 'total_energy',
    value: -57.2,
    unit: 'eV',
    creatorTool: 'run_pw',
    inputs: [from],
  });
  return new MemoryProvenance([
    { id: 'a-3', kind: 'file', name: 'pw_input', creatorTool: 'make_pw_input' },
    input('a-4'),
    input('a-5'),
    input('a-6'),
    energy('a-7', 'a-4'),
    energy('a-8', 'a-5'),
    energy('a-9', 'a-6'),
    {
      id: 'a-10',
      kind: 'table',
      name: 'converged_settings',
      creatorTool: 'select_converged_settings',
      status,
      inputs: ['a-7', 'a-8', 'a-9'],
      value: {
        parameter: 'kspacing',
        tested: [],
        chosenValue: 0.084,
        chosen: { kSpacingPerAngstrom: 0.084 },
        converged: false,
        extension: {
          value: 0.063,
          kMesh: [36, 36, 36],
          predictedSeconds: 5400,
          predictedFrom: '2.4 × the 2250 s of the run at 40 Ry',
          budgetSeconds: 1800,
          withinBudget,
        },
      },
    },
    { id: 'a-11', kind: 'file', name: 'pw_input', creatorTool: 'make_pw_input' },
  ]);
}

const series = (template: string, values: number[]) =>
  proposed('generate_series', { template, kind: 'kspacing', values }, {}, { values: 'the next value the selection names' });

describe('tier 1: a sweep extension within its budget', () => {
  it('refuses extending a sweep to the value its provisional selection predicts over the budget, or finer, saying the cost and how to allow it', () => {
    const p = registry(false);
    for (const values of [[0.063], [0.05]]) {
      const v = extensionWithinBudget({ call: series('a-3', values), schema: {}, provenance: p });
      assert.equal(v.length, 1, JSON.stringify(values));
      assert.equal(v[0]!.level, 'fail');
      assert.match(
        v[0]!.reasons[0]!,
        /a-10 \(provisional\) says extending the kspacing sweep to 0\.063 1\/Å \(36×36×36\) is predicted to take ~5400 s of pw\.x .* over the extension budget of 1800 s/,
      );
      assert.match(v[0]!.reasons[0]!, /not run without asking the user.*extensionBudgetSeconds.*--reuse-from/);
    }
    assert.ok(generateSeriesTool.rules?.includes('extension-within-budget'), 'generate_series is checked by it');
    assert.equal(TIER_ONE_RULES['extension-within-budget'], extensionWithinBudget);
  });

  it('lets an extension within the budget, a coarser value, another sweep and a settled selection pass', () => {
    assert.deepEqual(extensionWithinBudget({ call: series('a-3', [0.063]), schema: {}, provenance: registry(true) }), []);
    assert.deepEqual(extensionWithinBudget({ call: series('a-3', [0.1]), schema: {}, provenance: registry(false) }), []);
    assert.deepEqual(extensionWithinBudget({ call: series('a-11', [0.063]), schema: {}, provenance: registry(false) }), []);
    assert.deepEqual(extensionWithinBudget({ call: series('a-3', [0.063]), schema: {}, provenance: registry(false, 'final') }), []);
    const cutoffs = proposed('generate_series', { template: 'a-3', kind: 'ecutwfc', values: [80] });
    assert.deepEqual(extensionWithinBudget({ call: cutoffs, schema: {}, provenance: registry(false) }), []);
  });
});
