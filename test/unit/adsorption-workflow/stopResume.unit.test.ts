// A search stopped between hypotheses (the user's stop, or a budget) leaves its call open;
// the resumed run picks the search up under the same call and takes the evaluations it had
// recorded from the canvas, so no relaxation is made twice.
import assert from 'node:assert/strict';
import { RunController } from '../../../src/core/agents/runController';
import type { SearchResultValue } from '../../../src/core/agents/tools/adsorptionSearch/searchOutputs';
import type { ConfigurationValue } from '../../../src/core/agents/tools/adsorptionSearch/searchArtifacts';
import type { ToolCallRecord } from '../../../src/core/provenance/types';
import { byName, callsOf, emtSearchSettings, freshDir } from './support';

describe('adsorption search stopped and resumed (offline, EMT)', function () {
  this.timeout(120_000);

  it('stops between hypotheses with the search call open, and the resumed run finishes it without relaxing a hypothesis twice', async () => {
    const settings = emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'CO' });
    const c = await RunController.start({ runsDir: freshDir('dreams-adsearch-stop-'), settings });
    let evaluations = 0;
    c.session.run.log.subscribe((e) => {
      if (e.kind === 'provenance.call' && (e.payload as ToolCallRecord).tool === 'evaluate_adsorption_hypothesis' && ++evaluations === 2) c.stop('stopped by the test after the second hypothesis');
    });
    const first = await c.run();
    const dir = c.runDir;
    assert.equal(first.state, 'stopped', first.reason);
    const search = callsOf(c.session.run.registry, 'adsorption_search')[0]!;
    assert.equal(search.status, 'running', 'the search is open, not failed');
    assert.equal(callsOf(c.session.run.registry, 'evaluate_adsorption_hypothesis').filter((x) => x.status === 'ok').length, 2);
    await c.close();

    const again = await RunController.resume(dir, {});
    try {
      const second = await again.run();
      assert.equal(second.state, 'completed', second.reason);
      const reg = again.session.run.registry;
      const recovered = again.session.run.log.events().find((e) => e.kind === 'run.recovered')!.payload as { reattached: string[] };
      assert.deepEqual(recovered.reattached, [search.id]);
      assert.equal(reg.call(search.id)!.status, 'ok');
      const keys = byName(reg, 'adsorption_configuration').map((a) => (a.value as ConfigurationValue).key);
      assert.equal(new Set(keys).size, keys.length, 'no hypothesis relaxed twice');
      const value = byName(reg, 'adsorption_search_result').at(-1)!.value as SearchResultValue;
      assert.equal(value.relaxations, keys.length);
      assert.deepEqual(value.iterations.slice(0, 2).map((i) => i.refs.adopted), [true, true]);
      assert.ok(value.iterations.slice(2).every((i) => !i.refs.adopted));
    } finally {
      await again.close();
    }
  });
});
