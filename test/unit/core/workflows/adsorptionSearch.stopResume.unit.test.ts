// A search stopped between hypotheses (the user's stop, or a budget) leaves its call open;
// the resumed run picks the search up under the same call and takes the evaluations it had
// recorded from the canvas, so no relaxation is made twice.
import assert from 'node:assert/strict';
import { RunController } from '../../../../src/core/run/controller';
import type { SearchResultValue } from '../../../../src/core/tools/adsorptionSearch/searchOutputs';
import type { ConfigurationValue } from '../../../../src/core/artifacts/adsorptionSearch';
import type { ToolCallRecord } from '../../../../src/core/provenance/types';
import { byName, callsOf, emtSearchSettings, freshDir } from './support/adsorptionSearch';

describe('adsorption search stopped and resumed (offline, EMT)', function () {
  this.timeout(120_000);

  it('stops between hypotheses with the search call open, and the resumed run finishes it without relaxing a hypothesis twice', async () => {
    const settings = emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'CO' });
    const c = await RunController.start({ runsDir: freshDir('dreams-adsearch-stop-'), settings });
    let evaluations = 0;
    c.session.run.log.subscribe((e) => {
      if (e.kind === 'provenance.call' && (e.payload as ToolCallRecord).tool === 'evaluate_adsorption_hypothesis' && ++evaluations === 2)
        c.stop('stopped by the test after the second hypothesis');
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
      assert.deepEqual(
        value.iterations.slice(0, 2).map((i) => i.refs.adopted),
        [true, true],
      );
      assert.ok(value.iterations.slice(2).every((i) => !i.refs.adopted));
    } finally {
      await again.close();
    }
  });

  it('a log that can no longer be written (disk full) ends the run with what to do, raises no unhandled rejection, and the run resumes from its last saved event', async () => {
    const c = await RunController.start({
      runsDir: freshDir('dreams-adsearch-broken-'),
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'CO' }),
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let evaluations = 0;
    c.session.run.log.subscribe((e) => {
      if (e.kind === 'provenance.call' && (e.payload as ToolCallRecord).tool === 'evaluate_adsorption_hypothesis' && ++evaluations === 2) {
        // the disk fails under the log: its file goes away, as a write refused with ENOSPC does
        void (c.session.run.log as unknown as { file: { close(): Promise<void> } }).file.close();
      }
    });
    let dir: string;
    try {
      const first = await c.run();
      dir = c.runDir;
      assert.equal(first.state, 'failed');
      assert.match(
        first.reason!,
        /could not write .*events\.jsonl .*no further events are accepted.*recovers to the last saved event.*dreams resume/,
      );
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await c.close().catch(() => undefined);
    }
    const again = await RunController.resume(dir, {});
    try {
      const second = await again.run();
      assert.equal(second.state, 'completed', second.reason);
      const keys = byName(again.session.run.registry, 'adsorption_configuration').map((a) => (a.value as ConfigurationValue).key);
      assert.ok(keys.length >= 2, 'the hypotheses evaluated before the failure are kept');
      assert.equal(new Set(keys).size, keys.length, 'none relaxed twice');
    } finally {
      await again.close();
    }
  });

  it('a call whose results were registered when the process died is ended, not run again (no result twice)', async () => {
    const c = await RunController.start({
      runsDir: freshDir('dreams-adsearch-stop-'),
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'O', maxRelaxations: 1 }),
    });
    assert.equal((await c.run()).state, 'completed');
    const reg = c.session.run.registry;
    const done = callsOf(reg, 'relax_structure')[1]!;
    // What a process killed between registering a call's results and ending the call leaves behind.
    const open = await reg.recordCall({
      tool: done.tool,
      args: done.args,
      reasons: done.reasons,
      context: done.context,
      verdicts: done.verdicts,
      agent: done.agent,
    });
    await reg.registerArtifacts(
      open.id,
      done.outputs
        .map((id) => reg.artifact(id)!)
        .map((a) => ({
          kind: a.kind,
          name: a.name,
          value: a.value,
          ...(a.unit ? { unit: a.unit } : {}),
          ...(a.meta ? { meta: a.meta } : {}),
        })),
      [],
    );
    const dir = c.runDir;
    await c.close();
    const again = await RunController.resume(dir, {});
    try {
      await again.run();
      const r = again.session.run.registry;
      const recovered = again.session.run.log.events().find((e) => e.kind === 'run.recovered')!.payload as {
        finished?: string[];
        reattached: string[];
      };
      assert.deepEqual(recovered.finished, [open.id]);
      assert.equal(r.call(open.id)!.status, 'ok');
      assert.equal(r.artifacts().filter((a) => a.creator === open.id).length, done.outputs.length, 'its results once');
    } finally {
      await again.close();
    }
  });
});
