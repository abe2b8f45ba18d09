// Loosened AdsMind standards (a thin vacuum, a loose force threshold) are warnings a person
// answers: the report waits for the answer, and an approved warning no longer holds it back.
// A force threshold that leaves relaxations far from a minimum is refused outright.
import assert from 'node:assert/strict';
import { RunController } from '../../../../src/core/run/controller';
import { judgeReport } from '../../../../src/core/guard/reportJudge';
import { byName, callsOf, emtSearchSettings, freshDir } from './support/adsorptionSearch';

const inputs = (over: Record<string, unknown>) => ({
  slab: { generate: { metal: 'Cu', size: [3, 3], layers: 3 } },
  adsorbate: 'O',
  maxRelaxations: 2,
  ...over,
});

describe('adsorption-search standards (offline, EMT)', function () {
  this.timeout(120_000);

  it('a thin vacuum is warned about; the report is held back until the warning is approved, then accepted', async () => {
    const c = await RunController.start({
      runsDir: freshDir('dreams-adsearch-std-'),
      settings: emtSearchSettings(inputs({ standardisation: { minVacuumAngstrom: 10 } })),
    });
    try {
      assert.equal((await c.run()).state, 'completed');
      const rt = c.session.runtime;
      const [request] = rt.approvals.pending();
      assert.ok(request, 'an approval request is open');
      assert.equal(request.tool, 'prepare_adsorption_surface');
      assert.match(
        request.verdicts.map((v) => v.reasons.join(' ')).join(' '),
        /minVacuumAngstrom = 10 Å: below 15 Å the two surfaces of the slab interact/,
      );
      const judged = [...c.session.run.log.events()].reverse().find((e) => e.kind === 'report.judged')!.payload as {
        accepted: boolean;
        level: string;
      };
      assert.deepEqual([judged.accepted, judged.level], [false, 'warn']);

      await rt.approvals.answer(request.id, 'approve', 'user@test', 'a test slab');
      const report = byName(c.session.run.registry, 'report').at(-1)!;
      const claims = (report.value as { claims: Parameters<typeof judgeReport>[0] }).claims;
      const again = await judgeReport(claims, {
        provenance: c.session.run.registry,
        approvals: rt.approvals,
        specOf: (t) => rt.registry.get(t),
      });
      assert.ok(again.accepted, again.summary);
      const settled = again.calls
        .find((x) => x.tool === 'prepare_adsorption_surface')!
        .reportTime.find((v) => v.rule === 'adsorption-search-standards')!;
      assert.equal(settled.level, 'pass');
      assert.match(settled.reasons.join(' '), new RegExp(`approved in ${request.id} by user@test`));
    } finally {
      await c.close();
    }
  });

  it('a force threshold looser than 0.10 eV/Å is warned about; above 0.5 eV/Å the call is refused', async () => {
    const c = await RunController.start({
      runsDir: freshDir('dreams-adsearch-std-'),
      settings: emtSearchSettings(inputs({ relaxation: { fmaxEvPerAngstrom: 0.5 } })),
    });
    try {
      // 0.5 eV/Å is the largest the objective accepts: a warning, and the run goes on.
      assert.equal((await c.run()).state, 'completed');
      const relax = callsOf(c.session.run.registry, 'relax_structure')[0]!;
      assert.equal(relax.verdicts.find((v) => v.rule === 'adsorption-search-standards')!.level, 'warn');
      const rt = c.session.runtime;
      const args = { ...Object.fromEntries(Object.entries(relax.args).map(([k, a]) => [k, a.value])), fmaxEvPerAngstrom: 0.6 };
      const refused = await rt.registry.callProposed(
        rt.registry.get('relax_structure')!,
        { tool: 'relax_structure', args, refs: {}, reasons: {}, context: 'test', agent: { role: 'dft' } },
        {
          provenance: c.session.run.registry,
          approvals: rt.approvals,
          policy: 'continue',
          run: { runId: c.runId, runDir: c.runDir, signal: new AbortController().signal, progress: () => undefined, services: rt.services },
        },
      );
      assert.equal(refused.status, 'refused');
      assert.match((refused as { message: string }).message, /fmaxEvPerAngstrom = 0\.6 eV\/Å stops relaxations far from a minimum/);
    } finally {
      await c.close();
    }
  });
});
