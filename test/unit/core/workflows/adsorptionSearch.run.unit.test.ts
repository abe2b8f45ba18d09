// The adsorption-search workflow end to end, offline with EMT, through the real run
// controller, registry, guard and provenance: what a user notices in the record.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { RunController } from '../../../../src/core/run/controller';
import type { SearchResultValue } from '../../../../src/core/tools/adsorptionSearch/searchOutputs';
import type { SlipAnalysisValue, SurfaceValue } from '../../../../src/core/artifacts/adsorptionSearch';
import { registryContext } from '../../../../src/core/agents/worker';
import { judgeReport } from '../../../../src/core/guard/reportJudge';
import { upstreamPath } from '../../../../src/core/provenance/upstream';
import type { GuardedOutcome } from '../../../../src/core/guard/types';
import { writeRunOutputs } from '../../../../src/core/run/outputs';
import { CanvasProjection } from '../../../../src/core/report/canvasProjection';
import { CANVAS_MIME, type StructureData } from '../../../../src/shared/canvasOutputs';
import { parseObjectiveFile } from '../../../../src/core/workflows/objective';
import { byName, callsOf, creatorOf, emtSearchSettings, freshDir } from './support/adsorptionSearch';

/** A guarded call of the catalogue as a worker would make it, on the finished run. */
async function callTool(c: RunController, tool: string, args: Record<string, unknown>): Promise<GuardedOutcome> {
  const rt = c.session.runtime;
  return rt.registry.callProposed(
    rt.registry.get(tool)!,
    { tool, args, refs: {}, reasons: {}, context: 'test: a hypothesis proposed by hand', agent: { role: 'dft' } },
    registryContext(rt),
  );
}

/** The arguments the search gave its evaluations, with another hypothesis. */
function evaluationArgs(c: RunController, hypothesis: Record<string, unknown>): Record<string, unknown> {
  const first = callsOf(c.session.run.registry, 'evaluate_adsorption_hypothesis').find((x) => x.status === 'ok')!;
  const args = Object.fromEntries(Object.entries(first.args).map(([k, a]) => [k, a.value]));
  return { ...args, iteration: 99, ...hypothesis };
}

describe('adsorption-search workflow (offline, EMT)', function () {
  this.timeout(120_000);

  describe('CO on a generated Pt(111) slab', () => {
    let c: RunController;
    let result: Awaited<ReturnType<RunController['run']>>;
    let value: SearchResultValue;

    before(async () => {
      c = await RunController.start({
        runsDir: freshDir('dreams-adsearch-'),
        settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'CO' }),
      });
      result = await c.run();
      value = byName(c.session.run.registry, 'adsorption_search_result').at(-1)!.value as SearchResultValue;
    });
    after(async () => c?.close());

    it("finds the most stable configuration with few relaxations, each one a guarded call, and stops by the planner's TERMINATE", () => {
      assert.equal(result.state, 'completed', result.reason);
      const reg = c.session.run.registry;
      const surface = byName(reg, 'adsorption_surface')[0]!.value as SurfaceValue;
      const evaluations = callsOf(reg, 'evaluate_adsorption_hypothesis');
      // Every relaxation of the search is an evaluation call; the references are the two relax_structure calls.
      assert.equal(value.relaxations, evaluations.filter((e) => e.status === 'ok').length);
      assert.equal(callsOf(reg, 'relax_structure').length, 2);
      assert.ok(value.relaxations < surface.classes.length, `${value.relaxations} relaxations for ${surface.classes.length} site classes`);
      assert.equal(value.stopReason, 'planner-terminated');
      assert.match(value.stopDetail, /converged/);
      const valid = value.iterations.filter((i) => i.valid).map((i) => i.adsorptionEnergyEv);
      assert.equal(value.best!.adsorptionEnergyEv, Math.min(...valid));
      for (const e of evaluations) {
        assert.equal(e.step, 'search');
        assert.equal(e.args.calculator!.value, 'emt');
        assert.equal(e.args.fmaxEvPerAngstrom!.value, 0.1);
        for (const rule of ['adsorption-hypothesis-valid', 'calculator-matches-references', 'settings-comparable']) {
          assert.ok(
            e.verdicts.some((v) => v.rule === rule && v.level === 'pass'),
            `${e.id}: ${rule}`,
          );
        }
      }
    });

    it('reports the best energy as an EMT screening energy, accepted, and the reviewer can walk it back to its relaxation, settings and references', () => {
      const reg = c.session.run.registry;
      const judged = [...c.session.run.log.events()].reverse().find((e) => e.kind === 'report.judged')!.payload as {
        accepted: boolean;
        claims: { claim: { quantity: string; cites: string; value: number } }[];
      };
      assert.ok(judged.accepted);
      const claim = judged.claims[0]!.claim;
      assert.equal(claim.quantity, 'screening_adsorption_energy');
      assert.equal(claim.cites, value.best!.refs.adsorptionEnergy);
      assert.equal(claim.value, Number(value.best!.adsorptionEnergyEv.toFixed(3)));

      const eads = creatorOf(reg, claim.cites);
      assert.equal(eads.tool, 'adsorption_energy');
      assert.match(
        eads.verdicts.find((v) => v.rule === 'settings-comparable')!.reasons.join(' '),
        /3 energies share their physical settings/,
      );
      const up = upstreamPath(reg, [claim.cites], 10_000);
      const configuration = reg.artifact(eads.args.slabWithAdsorbate!.value as string)!;
      assert.ok(up.includes(configuration.id));
      const evaluation = reg.call(configuration.creator)!;
      assert.equal(evaluation.tool, 'evaluate_adsorption_hypothesis');
      assert.equal(evaluation.id, value.best!.refs.evaluation);
      assert.deepEqual((configuration.meta!.settings as { code: string }).code, 'emt');
      assert.deepEqual((configuration.meta!.relaxation as { converged: boolean }).converged, true);
      for (const [arg, reference] of [
        ['slab', 'clean-slab'],
        ['adsorbate', 'gas-phase'],
      ] as const) {
        const ref = eads.args[arg]!.value as string;
        assert.ok(up.includes(ref), `${ref} upstream of ${claim.cites}`);
        const maker = creatorOf(reg, ref);
        assert.equal(maker.tool, 'relax_structure');
        assert.equal(maker.args.reference!.value, reference);
        assert.equal(maker.args.calculator!.value, 'emt');
      }
    });

    it("hollows whose energies differ by less than the search's energy resolution (0.01 eV) are reported as degenerate, not ranked; a site 43 meV up, within the TERMINATE tolerance, is ranked", async () => {
      // EMT at fmax 0.1 eV/Å puts CO in the hcp and fcc hollows of Pt(111) well under a meV apart.
      const hollows = value.iterations.filter((i) => i.valid && /^hollow/.test(i.relaxedSite));
      assert.equal(hollows.length, 2, 'precondition: both hollows relaxed');
      assert.ok(Math.abs(hollows[0]!.adsorptionEnergyEv - hollows[1]!.adsorptionEnergyEv) < 0.01);
      const other = hollows.find((h) => h.iteration !== value.best!.iteration)!;
      const search = callsOf(c.session.run.registry, 'adsorption_search').find((x) => x.status === 'ok')!;
      assert.equal(search.args.terminateToleranceEv!.value, 0.05);
      assert.equal(search.args.degenerateToleranceEv!.value, 0.01);
      assert.deepEqual(value.degenerate!.resolutionEv, 0.01);
      // The bridge lies between the resolution and the TERMINATE tolerance: it is ranked, not degenerate.
      const bridge = value.iterations.find((i) => i.valid && /^bridge/.test(i.relaxedSite))!;
      const gap = bridge.adsorptionEnergyEv - value.best!.adsorptionEnergyEv;
      assert.ok(gap > 0.01 && gap <= 0.05, `precondition: bridge ${gap} eV above the best`);
      assert.ok(!value.degenerate!.configurations.some((d) => d.iteration === bridge.iteration));
      const within = value.iterations
        .filter((i) => i.valid && i.iteration !== value.best!.iteration && i.adsorptionEnergyEv - value.best!.adsorptionEnergyEv <= 0.01)
        .sort((x, y) => x.adsorptionEnergyEv - y.adsorptionEnergyEv);
      assert.deepEqual(
        value.degenerate!.configurations.map((d) => d.iteration),
        within.map((i) => i.iteration),
      );
      assert.equal(value.degenerate!.configurations[0]!.iteration, other.iteration);
      const out = await writeRunOutputs(c.session.run, { bundle: false });
      const md = fs.readFileSync(out.report, 'utf8');
      assert.match(
        md,
        /The most stable configurations of CO on Pt\(111\) found by the search are degenerate within its resolution \(0\.01 eV\), so the search does not rank them/,
      );
      assert.ok(
        md.includes(
          `**${other.relaxedSite}** (iteration ${other.iteration}, E_ads = ${Number(other.adsorptionEnergyEv.toFixed(3))} eV, ${other.refs.adsorptionEnergy})`,
        ),
      );
      assert.doesNotMatch(md, /The most stable configuration of CO/);
      assert.match(
        md,
        new RegExp(
          `Degenerate with it within the search's energy resolution \\(0\\.01 eV\\), not ranked against it: iteration ${other.iteration}, hollow[^\\n]*\\.\\n`,
        ),
      );
      assert.doesNotMatch(md, new RegExp(`Degenerate with it[^\\n]*iteration ${bridge.iteration},`));
    });

    it('an invalid or repeated hypothesis is refused by the guard without relaxing anything', async () => {
      const reg = c.session.run.registry;
      const surface = byName(reg, 'adsorption_surface')[0]!.value as SurfaceValue;
      const before = reg.artifacts().length;
      const bottom = surface.slab.slab.symbols.findIndex((_, i) => !surface.surface.topLayer.includes(i));
      const invalid = await callTool(
        c,
        'evaluate_adsorption_hypothesis',
        evaluationArgs(c, { siteType: 'ontop', surfaceAtoms: [bottom], bindingAtoms: [0], orientation: 'upright' }),
      );
      assert.equal(invalid.status, 'refused');
      assert.match((invalid as { message: string }).message, new RegExp(`surface atom\\(s\\) ${bottom} are not in the top layer`));
      const best = value.iterations.find((i) => i.iteration === value.best!.iteration)!;
      const repeat = await callTool(
        c,
        'evaluate_adsorption_hypothesis',
        evaluationArgs(c, {
          siteType: best.hypothesis.siteType,
          surfaceAtoms: best.hypothesis.surfaceAtoms,
          bindingAtoms: [0],
          orientation: 'upright',
        }),
      );
      assert.equal(repeat.status, 'refused');
      assert.match((repeat as { message: string }).message, new RegExp(`repeats one already relaxed[\\s\\S]*${best.refs.configuration}`));
      assert.equal(reg.artifacts().length, before, 'no relaxation, no artifact');
      for (const o of [invalid, repeat]) assert.equal(reg.call(o.call)!.status, 'refused');
    });

    it('the same search made again (a resumed or replanned step) takes its recorded evaluations from the canvas instead of relaxing them again', async () => {
      const reg = c.session.run.registry;
      const search = callsOf(reg, 'adsorption_search')[0]!;
      const evaluationsBefore = callsOf(reg, 'evaluate_adsorption_hypothesis').length;
      const rt = c.session.runtime;
      const args = Object.fromEntries(Object.entries(search.args).map(([k, a]) => [k, a.value]));
      const again = await rt.registry.callProposed(
        rt.registry.get('adsorption_search')!,
        {
          tool: 'adsorption_search',
          args,
          refs: {},
          reasons: search.reasons,
          context: 'the search step again',
          agent: { role: 'dft' },
          step: 'search',
        },
        registryContext(rt),
      );
      assert.equal(again.status, 'ok');
      assert.equal(callsOf(reg, 'evaluate_adsorption_hypothesis').length, evaluationsBefore, 'no hypothesis evaluated again');
      const redone = reg.artifact((again as { outputs: string[] }).outputs[0]!)!.value as SearchResultValue;
      assert.equal(redone.search, value.search);
      assert.deepEqual(
        redone.iterations.map((i) => [i.refs.evaluation, i.refs.adopted]),
        value.iterations.map((i) => [i.refs.evaluation, true]),
      );
      assert.deepEqual(redone.best, { ...value.best, refs: { ...value.best!.refs, adopted: true } });
    });

    it('an EMT energy stated as an adsorption energy (a DFT number) is refused by the report judge', async () => {
      const rt = c.session.runtime;
      const judgement = await judgeReport(
        [
          {
            quantity: 'adsorption_energy',
            value: Number(value.best!.adsorptionEnergyEv.toFixed(3)),
            unit: 'eV',
            cites: value.best!.refs.adsorptionEnergy!,
          },
        ],
        { provenance: c.session.run.registry, approvals: rt.approvals, specOf: (t) => rt.registry.get(t) },
      );
      assert.equal(judgement.accepted, false);
      const verdict = judgement.claims[0]!.verdicts.find((v) => v.rule === 'claim-calculator')!;
      assert.equal(verdict.level, 'fail');
      assert.match(verdict.reasons.join(' '), /EMT is fine for testing the search, not for final numbers/);
    });

    it("writes the summarizer's report into the run report with its drawings, and the best structure is drawable in the notebook", async () => {
      const out = await writeRunOutputs(c.session.run, { bundle: false });
      const md = fs.readFileSync(out.report, 'utf8');
      assert.match(md, new RegExp(`## Adsorption configuration search ${value.search}`));
      assert.match(md, /\| # \| planned site \| relaxed site \| slip \| dissociated \| E_ads \(eV\) \| relaxation steps \|/);
      assert.equal(md.match(/^\| \d+ \| (hollow|bridge|ontop)/gm)!.length, 2 * value.relaxations, 'both tables list every iteration');
      for (const name of ['best-top.svg', 'best-side.svg', 'energy.svg']) {
        const file = `plots/adsorption-${value.search}-${name}`;
        assert.ok(md.includes(`](${file})`), file);
        assert.match(fs.readFileSync(path.join(c.runDir, file), 'utf8'), /^<svg/);
      }
      assert.match(md, new RegExp(`E_ads ${value.best!.refs.adsorptionEnergy} = -?\\d+\\.\\d{4} eV, made by adsorption_energy`));

      const projection = new CanvasProjection();
      projection.applyAll(c.session.run.log.events());
      const best = byName(c.session.run.registry, 'best_adsorption_configuration')[0]!;
      const cell = projection.cell(projection.cellIdOf(best.id)!)!;
      const drawn = cell.outputs!.find((o) => o.mime === CANVAS_MIME.structure)!.data as StructureData;
      assert.equal(drawn.symbols.length, 27 + 2);
      assert.match(drawn.site!.kind, new RegExp(value.best!.relaxedSite.split(' over ')[0]!));
      assert.equal(drawn.site!.position.length, 3);
    });
  });

  it('FORBID: a planned site whose configuration slipped is forbidden, recorded, and refused by the guard', async () => {
    // O on the AdsMind Pd3Cu(111) slab: on top of Pd63 it relaxes into the fcc hollow Pd53-Pd55-Pd63.
    const dir = freshDir('dreams-adsearch-');
    fs.mkdirSync(path.join(dir, 'slabs'));
    fs.copyFileSync(path.join(__dirname, '../../../fixtures/adsmind/aa20/03_Pd3Cu_111.xyz'), path.join(dir, 'slabs', 'pd3cu.xyz'));
    const file = path.join(dir, 'search.yaml');
    fs.writeFileSync(
      file,
      [
        'workflow: adsorption-search',
        'inputs:',
        '  slab: { file: slabs/pd3cu.xyz }',
        '  adsorbate: O',
        '  calculator: { kind: emt }',
        '',
      ].join('\n'),
    );
    const c = await RunController.start({
      runsDir: path.join(dir, 'runs'),
      settings: emtSearchSettings(parseObjectiveFile(fs.readFileSync(file, 'utf8'), file).inputs!),
    });
    try {
      assert.equal((await c.run()).state, 'completed');
      const reg = c.session.run.registry;
      const surface = byName(reg, 'adsorption_surface')[0]!.value as SurfaceValue;
      const slipping = await callTool(
        c,
        'evaluate_adsorption_hypothesis',
        evaluationArgs(c, { siteType: 'ontop', surfaceAtoms: [63], bindingAtoms: [0], orientation: 'upright' }),
      );
      assert.equal(slipping.status, 'ok');
      const slipped = byName(reg, 'adsorption_slip_analysis')
        .map((a) => a.value as SlipAnalysisValue)
        .filter((s) => s.slip !== 'none');
      assert.equal(slipped.length, 1, 'the configuration on top of Pd63 slipped');
      assert.equal(slipped[0]!.slip, 'geometric');
      const other = surface.surface.sites.filter((s) => s.fingerprint === slipped[0]!.plannedSiteFingerprint).at(-1)!;
      assert.deepEqual(other.kind, 'ontop');
      const again = await callTool(
        c,
        'evaluate_adsorption_hypothesis',
        evaluationArgs(c, {
          siteType: other.kind,
          surfaceAtoms: other.surfaceAtoms,
          bindingAtoms: [0],
          orientation: 'tilted',
          iteration: 100,
        }),
      );
      assert.equal(again.status, 'refused');
      assert.match((again as { message: string }).message, /is forbidden: a configuration planned there relaxed away before/);
    } finally {
      await c.close();
    }
  });
});
