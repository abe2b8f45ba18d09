import assert from 'node:assert/strict';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { enumerateSites } from '../../../../src/core/adsorption/enumerate';
import {
  directRelax,
  ScreenAndRelaxExecutor,
  type ConfigurationExecutor,
  type RelaxRequest,
} from '../../../../src/core/adsorption/executor';
import type { PlannerDecision } from '../../../../src/core/adsorption/hypothesis';
import type { Ablations } from '../../../../src/core/adsorption/loop';
import { OfflinePlanner } from '../../../../src/core/adsorption/offlinePlanner';
import type { Planner, PlanningContext } from '../../../../src/core/adsorption/planner';
import { computeReferences } from '../../../../src/core/adsorption/references';
import { prepareSurface, searchAdsorption, type PreparedSurface } from '../../../../src/core/adsorption/search';
import { EmtCalculator } from '../../../../src/core/calculators/emt';
import { aa20, fcc111 } from './fixtures';

/** A planner that replays a script and records what it was shown. */
class ScriptedPlanner implements Planner {
  readonly name = 'scripted';
  readonly seen: PlanningContext[] = [];
  constructor(private readonly script: ((ctx: PlanningContext) => unknown)[]) {}
  async decide(ctx: PlanningContext): Promise<PlannerDecision> {
    this.seen.push(structuredClone({ ...ctx, slab: undefined, surface: undefined }) as unknown as PlanningContext);
    const next = this.script[this.seen.length - 1];
    return (next ? next(ctx) : { action: 'terminate', reason: 'script ended' }) as PlannerDecision;
  }
}

function countingExecutor(inner: ConfigurationExecutor): ConfigurationExecutor & { executions: number } {
  const wrapped = {
    executions: 0,
    execute: (req: Parameters<ConfigurationExecutor['execute']>[0], signal?: AbortSignal) => {
      wrapped.executions++;
      return inner.execute(req, signal);
    },
    relaxReference: inner.relaxReference.bind(inner),
  };
  return wrapped;
}

describe('closed loop', function () {
  this.timeout(60_000);
  const emt = new EmtCalculator();
  const pt: PreparedSurface = prepareSurface(fcc111('Pt'));
  const o = adsorbate('O');
  const fcc = pt.surface.sites.find((s) => s.hollowType === 'fcc')!;
  const hcp = pt.surface.sites.find((s) => s.hollowType === 'hcp')!;
  const propose =
    (site: typeof fcc, orientation: 'upright' | 'tilted' = 'upright') =>
    () => ({ action: 'propose', siteType: site.kind, surfaceAtoms: [...site.surfaceAtoms], bindingAtoms: [0], orientation });

  it('rejected proposals cost no relaxation and their reasons reach the planner', async () => {
    const executor = countingExecutor(new ScreenAndRelaxExecutor(emt));
    const planner = new ScriptedPlanner([
      () => ({ action: 'land', where: 'somewhere' }),
      () => ({ action: 'propose', siteType: 'hollow', surfaceAtoms: [...fcc.surfaceAtoms], bindingAtoms: [3], orientation: 'upright' }),
      propose(fcc),
      propose(pt.surface.sites.filter((s) => s.fingerprint === fcc.fingerprint)[4]!),
      propose(hcp),
      () => ({ action: 'terminate', reason: 'both hollows tried' }),
    ]);
    const s = await searchAdsorption({ slab: pt, adsorbate: o, planner, executor });
    assert.equal(executor.executions, 2);
    assert.equal(s.result.relaxations, 2);
    assert.equal(s.result.rejections.length, 3);
    assert.equal(s.result.stopReason, 'planner-terminated');
    assert.match(planner.seen[1]!.rejections.join(' '), /does not match its schema/);
    assert.match(planner.seen[2]!.rejections.join(' '), /binding atom 3 does not exist/);
    assert.match(planner.seen[4]!.rejections.join(' '), /repeats one already relaxed/);
    assert.deepEqual(
      planner.seen[5]!.history.map((h) => h.plannedSite.kind + h.plannedSite.hollowType),
      ['hollowfcc', 'hollowhcp'],
    );
    assert.equal(s.result.best!.analysis.relaxedSite.kind, 'hollow');
    assert.ok(s.result.best!.adsorptionEnergyEv < -0.5);
  });

  it('TERMINATE when a relaxation reproduces the best configuration within 0.05 eV; the no-terminate ablation goes on', async () => {
    const script = () => [propose(fcc), propose(fcc, 'tilted'), propose(hcp)];
    const on = await searchAdsorption({
      slab: pt,
      adsorbate: o,
      planner: new ScriptedPlanner(script()),
      executor: new ScreenAndRelaxExecutor(emt),
    });
    assert.equal(on.result.stopReason, 'converged');
    assert.equal(on.result.relaxations, 2);
    const off = await searchAdsorption({
      slab: pt,
      adsorbate: o,
      references: on.references,
      planner: new ScriptedPlanner(script()),
      executor: new ScreenAndRelaxExecutor(emt),
      options: { ablations: { terminate: false } as Ablations },
    });
    assert.equal(off.result.relaxations, 3);
    assert.equal(off.result.stopReason, 'planner-terminated');
  });

  it('a planned site that slipped is FORBIDDEN; without the forbid switch it may be proposed again', async () => {
    // O on the AA20 Pd3Cu slab: on top of Pd63 it relaxes into the fcc hollow Pd53-Pd55-Pd63 (a geometric slip)
    const alloy = prepareSurface(aa20('03_Pd3Cu_111.xyz'));
    const oxygen = adsorbate('O');
    const screenExec = new ScreenAndRelaxExecutor(emt);
    const references = await computeReferences(screenExec, alloy.slab, oxygen);
    const first = { action: 'propose', siteType: 'ontop', surfaceAtoms: [63], bindingAtoms: [0], orientation: 'upright' };
    const again = () => ({ ...first, orientation: 'tilted' });
    const withForbid = new ScriptedPlanner([() => first, again]);
    const r1 = await searchAdsorption({
      slab: alloy,
      adsorbate: oxygen,
      references,
      planner: withForbid,
      executor: new ScreenAndRelaxExecutor(emt),
    });
    assert.equal(r1.result.iterations[0]!.analysis.slip, 'geometric', 'precondition: the first hypothesis slips under EMT');
    assert.equal(r1.result.iterations[0]!.analysis.relaxedSite.hollowType, 'fcc');
    assert.deepEqual(r1.result.forbid, [r1.result.iterations[0]!.plannedSite.fingerprint]);
    assert.deepEqual(withForbid.seen[1]!.forbid, r1.result.forbid);
    assert.equal(r1.result.relaxations, 1);
    assert.match(r1.result.rejections[0]!.reasons.join(' '), /is forbidden/);
    const noForbid = await searchAdsorption({
      slab: alloy,
      adsorbate: oxygen,
      references,
      planner: new ScriptedPlanner([() => first, again]),
      executor: new ScreenAndRelaxExecutor(emt),
      options: { ablations: { forbid: false } as Ablations },
    });
    assert.equal(noForbid.result.relaxations, 2);
    assert.deepEqual(noForbid.result.forbid, []);
  });

  it('without slip feedback the planner sees energies but not where configurations ended up; one-shot relaxes once', async () => {
    const blind = new ScriptedPlanner([propose(fcc), propose(hcp)]);
    const r = await searchAdsorption({
      slab: pt,
      adsorbate: o,
      planner: blind,
      executor: new ScreenAndRelaxExecutor(emt),
      options: { ablations: { slipFeedback: false } as Ablations },
    });
    const seen = blind.seen[1]!.history[0]!;
    assert.equal(typeof seen.adsorptionEnergyEv, 'number');
    assert.equal(seen.relaxedSite, undefined);
    assert.equal(seen.slip, undefined);
    const shot = await searchAdsorption({
      slab: pt,
      adsorbate: o,
      references: r.references,
      planner: new OfflinePlanner(),
      executor: new ScreenAndRelaxExecutor(emt),
      options: { ablations: { oneShot: true } as Ablations },
    });
    assert.equal(shot.result.relaxations, 1);
    assert.equal(shot.result.stopReason, 'one-shot');
  });

  it('the offline loop finds enumeration’s best O/Pt(111) site within 0.05 eV with at most 15% of its relaxations', async () => {
    const exec = new ScreenAndRelaxExecutor(emt);
    const loop = await searchAdsorption({
      slab: pt,
      adsorbate: o,
      planner: new OfflinePlanner({ screen: exec.siteScreen(pt.slab, o) }),
      executor: exec,
    });
    const all = await enumerateSites({
      slab: pt.slab,
      surface: pt.surface,
      adsorbate: o,
      references: loop.references,
      executor: new ScreenAndRelaxExecutor(emt),
    });
    assert.equal(all.relaxations, pt.surface.sites.length);
    assert.ok(
      loop.result.best!.adsorptionEnergyEv - all.best!.adsorptionEnergyEv <= 0.05,
      `loop ${loop.result.best!.adsorptionEnergyEv} vs enumeration ${all.best!.adsorptionEnergyEv}`,
    );
    assert.ok(loop.result.relaxations <= 0.15 * all.relaxations, `${loop.result.relaxations} relaxations vs ${all.relaxations}`);
  });

  it('every relaxation (references and configurations) goes through the injected relax function, labelled', async () => {
    const seen: RelaxRequest[] = [];
    const inner = directRelax(emt);
    const executor = new ScreenAndRelaxExecutor(emt, { relax: (req, signal) => (seen.push(req), inner(req, signal)) });
    const r = await searchAdsorption({ slab: pt, adsorbate: o, planner: new ScriptedPlanner([propose(fcc), propose(hcp)]), executor });
    assert.deepEqual(
      seen.map((x) => x.purpose),
      ['clean-slab', 'gas-phase', 'configuration', 'configuration'],
    );
    assert.deepEqual(
      seen.slice(2).map((x) => x.label),
      [`iteration 1: hollow [${fcc.surfaceAtoms.join(', ')}]`, `iteration 2: hollow [${hcp.surfaceAtoms.join(', ')}]`],
    );
    assert.ok(seen.every((x) => x.fmaxEvPerAngstrom === 0.1 && x.maxSteps === 200));
    assert.equal(r.result.relaxations, 2);
  });
});
