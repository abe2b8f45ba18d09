// Invalidation through provenance, on the offline lattice-constant workflow with real pw.x
// (fcc Al, Debian's Al.pz-vbc.UPF, seconds per run). (1) Mid-run, after the k sweep, the
// user tightens the cutoff tolerance: the new selection supersedes the old cutoff, which
// and everything computed from it becomes stale; the k sweep and what follows run again at
// the new cutoff, the cutoff sweep is not redone. (2) On the finished run the user marks one
// EOS energy stale (a faulty node): on resume only that pw.x job runs again, then the fit,
// the lattice constant and the report.
import assert from 'node:assert/strict';
import path from 'node:path';
import { RunController } from '../../src/core/run/controller';
import type { RunSettings } from '../../src/core/run/session';
import { EDIT_PLAN, runSupervisorTool } from '../../src/core/agents/supervisorTools';
import type { ConvergenceSelectionValue } from '../../src/core/artifacts/shapes';
import { PlanStore } from '../../src/core/plan/store';
import type { CanvasEvent } from '../../src/core/canvas/types';
import { upstreamPath } from '../../src/core/provenance/upstream';
import { markStale } from '../../src/core/provenance/queries';
import type { ProvenanceRegistry } from '../../src/core/provenance/registry';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import type { RerunPayload } from '../../src/core/agents/invalidation/staleSteps';
import type { Supersession } from '../../src/core/agents/invalidation/supersession';
import { freshDir, PSEUDO_DIR } from '../fixtures/agents/scriptedLattice';

const settings = (): RunSettings => ({
  objective: {
    text: 'Lattice constant of fcc Al with LDA (invalidation test)',
    workflow: 'lattice-constant',
    inputs: {
      element: 'Al',
      structure: 'fcc',
      latticeConstantAngstrom: 4.05,
      functional: 'PZ',
      pseudopotential: 'Al.pz-vbc.UPF',
      cutoffsRy: [20, 25, 30, 35, 40, 50],
      kSpacingsPerAngstrom: [0.5, 0.3, 0.2, 0.15],
      toleranceMevPerAtom: 5,
      smearing: { kind: 'mv', degaussRy: 0.05 },
      eos: { points: 5, rangePercent: 5 },
    },
  },
  offline: true,
  backend: 'local',
  approval: 'auto-approve',
  pseudoDir: PSEUDO_DIR,
  pwCommand: 'pw.x',
  localConcurrency: 2,
  models: {},
  judges: false,
  budget: {},
  qeVersion: '6.7',
});

const artifactsOf = (events: readonly CanvasEvent[]) =>
  events.filter((e) => e.kind === 'provenance.artifact').map((e) => e.payload as ArtifactRecord);
const runPwCallsOf = (events: readonly CanvasEvent[], step: string, after = 0) =>
  events
    .filter(
      (e) =>
        e.seq > after &&
        e.kind === 'provenance.call' &&
        (e.payload as ToolCallRecord).tool === 'run_pw' &&
        (e.payload as ToolCallRecord).step === step,
    )
    .map((e) => e.payload as ToolCallRecord);

describe('a superseded cutoff and a result marked stale are rerun through provenance (offline, real pw.x)', function () {
  this.timeout(900_000);
  let runDir: string;
  let stopSeq: number;
  let oldCutoff: ArtifactRecord;

  before(async () => {
    const dir = freshDir('dreams-invalidation-');
    const controller = await RunController.start({ runsDir: path.join(dir, 'runs'), settings: settings() });
    runDir = controller.runDir;
    const off = controller.session.run.log.subscribe((e) => {
      if (e.kind === 'step.end' && (e.payload as { id: string; ok: boolean }).id === 'k-choice')
        controller.stop('the user reviews the convergence choices');
    });
    const first = await controller.run();
    off();
    assert.equal(first.state, 'stopped', first.reason);
    const rt = controller.session.runtime;
    oldCutoff = rt.provenance
      .artifacts()
      .filter((a) => a.name === 'converged_settings' && (a.value as ConvergenceSelectionValue).parameter === 'ecutwfc')
      .at(-1)!;
    // the user tightens the cutoff tolerance of the finished cutoff choice, mid-run
    const plan = new PlanStore(rt.canvas).require();
    const choice = plan.steps.find((s) => s.id === 'cutoff-choice')!;
    const edit = await runSupervisorTool(rt, {
      type: 'tool_use',
      id: 'toolu_user_1',
      name: EDIT_PLAN,
      input: {
        op: 'modify',
        id: 'cutoff-choice',
        changes: { args: { ...choice.args, toleranceMevPerAtom: 1 } },
        reason: 'the user asks for 1 meV/atom on the cutoff',
      },
    });
    assert.ok(!edit.isError, edit.content);
    stopSeq = controller.session.run.log.events().at(-1)!.seq;
    await controller.close();
    const resumed = await RunController.resume(runDir);
    const second = await resumed.run();
    await resumed.close();
    assert.equal(second.state, 'completed', second.reason);
  });

  it('the tighter tolerance chooses a higher cutoff, and the old choice is superseded', async () => {
    const reopened = await RunController.resume(runDir);
    const events = reopened.session.run.log.events();
    await reopened.close();
    const sup = events.filter((e) => e.kind === 'workflow.superseded').map((e) => e.payload as Supersession);
    const cut = sup.find((s) => s.step === 'cutoff-choice')!;
    assert.ok(cut, `superseded: ${JSON.stringify(sup)}`);
    assert.equal(cut.replaced[0]!.old, oldCutoff.id);
    const fresh = artifactsOf(events).find((a) => a.id === cut.replaced[0]!.new)!;
    const [before, after] = [oldCutoff, fresh].map((a) => (a.value as ConvergenceSelectionValue).chosen.ecutwfcRy!);
    assert.ok(after! > before!, `cutoff ${before} → ${after} Ry`);
    assert.match(cut.replaced[0]!.change, new RegExp(`ecutwfc ${before} Ry → ecutwfc ${after} Ry`));
  });

  it('the stale set is the old cutoff choice and exactly what was computed from it (the k sweep, its choice), never the cutoff sweep', async () => {
    const reopened = await RunController.resume(runDir);
    const registry = reopened.session.run.registry;
    const events = reopened.session.run.log.events();
    await reopened.close();
    const cut = events
      .filter((e) => e.kind === 'workflow.superseded')
      .map((e) => e.payload as Supersession)
      .find((s) => s.step === 'cutoff-choice')!;
    const createdAt = new Map(events.filter((e) => e.kind === 'provenance.artifact').map((e) => [(e.payload as ArtifactRecord).id, e.seq]));
    const stale = new Set(cut.stale);
    assert.ok(stale.has(oldCutoff.id));
    // every result that existed at the change: stale exactly when computed from the old cutoff
    for (const a of registry.artifacts().filter((x) => createdAt.get(x.id)! < stopSeq)) {
      const fromOld = a.id === oldCutoff.id || upstreamPath(registry, [a.id], 10_000).includes(oldCutoff.id);
      assert.equal(stale.has(a.id), fromOld, `${a.id} ${a.name} is ${fromOld ? 'computed from' : 'independent of'} ${oldCutoff.id}`);
      if (fromOld) assert.equal(a.status, 'stale', `${a.id} ${a.name}`);
    }
    const names = new Set(cut.stale.map((id) => registry.artifact(id)!.name));
    for (const n of ['converged_settings', 'pw_input', 'total_energy']) assert.ok(names.has(n), `stale ${n}`);
    const cutoffEnergies = registry
      .artifacts()
      .filter((a) => a.name === 'total_energy' && registry.call(a.creator)?.step === 'cutoff-runs');
    assert.equal(cutoffEnergies.length, 6);
    assert.ok(
      cutoffEnergies.every((a) => a.status === 'final'),
      'the cutoff sweep stays valid',
    );
  });

  it('reruns the k sweep and the EOS at the new cutoff, and does not redo the cutoff sweep', async () => {
    const reopened = await RunController.resume(runDir);
    const rt = reopened.session.runtime;
    const events = rt.log.events();
    const newCutoff = rt.provenance
      .artifacts()
      .filter(
        (a) => a.name === 'converged_settings' && a.status === 'final' && (a.value as ConvergenceSelectionValue).parameter === 'ecutwfc',
      )
      .at(-1)!;
    const ecut = (newCutoff.value as ConvergenceSelectionValue).chosen.ecutwfcRy;
    assert.equal(runPwCallsOf(events, 'cutoff-runs', stopSeq).length, 0, 'no cutoff job after the change');
    const kRuns = runPwCallsOf(events, 'k-runs', stopSeq);
    assert.equal(kRuns.length, 4, 'each k point again');
    const energies = artifactsOf(events).filter((a) => a.name === 'total_energy' && kRuns.some((c) => c.id === a.creator));
    assert.ok(
      energies.every((e) => (e.meta!.settings as { ecutwfcRy: number }).ecutwfcRy === ecut),
      `k sweep at ${ecut} Ry`,
    );
    const lattice = rt.provenance
      .artifacts()
      .filter((a) => a.name === 'lattice_constant')
      .at(-1)!;
    assert.equal(lattice.status, 'final');
    const up = upstreamPath(rt.provenance, [lattice.id], 10_000);
    assert.ok(up.includes(newCutoff.id) && !up.includes(oldCutoff.id), 'the lattice constant stands on the new cutoff only');
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean };
    await reopened.close();
    assert.equal(judged.accepted, true);
  });

  it('an EOS energy marked stale by the user is recomputed alone, then the fit, the lattice constant and the report', async () => {
    const controller = await RunController.resume(runDir);
    const registry = controller.session.run.registry as ProvenanceRegistry;
    const events0 = controller.session.run.log.events();
    const eosCalls = runPwCallsOf(events0, 'eos-runs');
    const victim = registry
      .artifacts()
      .find((a) => a.name === 'total_energy' && a.status === 'final' && a.creator === eosCalls.at(-1)!.id)!;
    const oldLattice = registry
      .artifacts()
      .filter((a) => a.name === 'lattice_constant' && a.status === 'final')
      .at(-1)!;
    const mark = controller.session.run.log.events().at(-1)!.seq;
    const changed = await markStale(registry, victim.id, 'the node that ran this job reported memory errors');
    assert.ok(changed.includes(oldLattice.id), 'the lattice constant computed from it is stale');
    const result = await controller.run();
    const events = controller.session.run.log.events();
    await controller.close();
    assert.equal(result.state, 'completed', result.reason);
    const rerun = events.filter((e) => e.seq > mark && e.kind === 'workflow.rerun').map((e) => e.payload as RerunPayload);
    assert.equal(rerun.length, 1);
    assert.deepEqual(rerun[0]!.because.find((b) => b.step === 'eos-runs')!.stale, [victim.id]);
    assert.match(rerun[0]!.reasons[victim.id]!, /memory errors/);
    for (const s of ['eos-runs', 'eos-fit', 'lattice', 'report']) assert.ok(rerun[0]!.reopened.includes(s), s);
    const again = runPwCallsOf(events, 'eos-runs', mark);
    assert.equal(again.length, 1, 'one pw.x job: the stale one');
    assert.equal(again[0]!.args.input?.value, eosCalls.at(-1)!.args.input?.value, 'the same input');
    const lattice = artifactsOf(events)
      .filter((a) => a.name === 'lattice_constant')
      .at(-1)!;
    assert.notEqual(lattice.id, oldLattice.id);
    assert.ok(Math.abs((lattice.value as number) - (oldLattice.value as number)) < 1e-4, 'the same physics, recomputed');
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!;
    assert.ok(judged.seq > mark && (judged.payload as { accepted: boolean }).accepted);
  });
});
