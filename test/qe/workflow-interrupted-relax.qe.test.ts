// A relaxation cut short is continued from the last geometry it reached, not from its start:
// the toy BEEF-vdW study of CO/Pt(111) with real pw.x, its ontop relaxation killed (SIGKILL, as
// a node failure or a walltime kill would end it) after three geometries (coptToyRuns). The
// advisor reads the kill as an interruption, the offline supervisor takes the last geometry
// with interrupted_geometry and makes the input again from it, and the report judge accepts
// the result, with nothing provisional upstream of it. The site-preference study, whose ontop
// relaxation input is byte-identical and ran whole, is the reference.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { AdviceValue } from '../../src/core/agents/advisor';
import type { PwInputValue } from '../../src/core/artifacts/shapes';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { upstreamPath } from '../../src/core/provenance/upstream';
import { adsorbateGeometry } from '../../src/core/workflows/sitePreference/relaxedGeometry';
import type { Structure } from '../../src/core/dft/types';
import { geometries, KILL_AFTER_GEOMETRIES, studyOf, toyRuns, type KilledRelaxation, type ToyRun } from './support/coptToyRuns';

describe('an interrupted relaxation continues from its last geometry (toy CO/Pt(111) BEEF-vdW study, offline, real pw.x)', function () {
  this.timeout(7_200_000);
  let run: ToyRun;
  let killed: KilledRelaxation;
  let reference: ToyRun;

  before(async () => {
    // both studies at once, one pw.x each on the two cores (already done when the BEEF and
    // site-preference test files ran first)
    const ref = toyRuns().sitePreference;
    void ref.catch(() => undefined);
    const beef = await toyRuns().beef;
    run = beef;
    killed = beef.killed!;
    reference = await ref;
  });
  // the BEEF-vdW test file closes the study's controller (the tier runs it first)

  it('killed the ontop relaxation after three geometries, and the run still completed with an accepted report', () => {
    assert.ok(killed, 'the ontop relaxation was killed');
    assert.equal(run.result.state, 'completed', run.result.reason);
    const events = run.controller.session.run.log.events();
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as { accepted: boolean };
    assert.equal(judged.accepted, true);
  });

  it('the advisor read the kill as an interruption and pointed at the last geometry', () => {
    const { p } = studyOf(run);
    const advice = p.artifacts().find((a) => a.name === 'convergence_advice' && (a.value as AdviceValue).failedCall === killed.call)!;
    assert.ok(advice, 'the advisor was consulted on the killed run');
    const value = advice.value as AdviceValue;
    assert.equal(value.diagnosis.kind, 'killed');
    assert.deepEqual(value.suggestions, []);
    const energy = p.artifact(value.continueFrom!.energy)!;
    assert.equal(energy.creator, killed.call);
    assert.equal(energy.status !== 'final', true);
  });

  it('the relaxation was made again from exactly the positions the killed run printed last, and the fixed layer did not move', () => {
    const { byStep } = studyOf(run);
    const plan = run.controller.session.runtime.canvas.read('plan') as {
      ok: true;
      value: { steps: { id: string; tool: string; status: string; args?: Record<string, unknown> }[] };
    };
    const restartStep = plan.value.steps.find((s) => s.tool === 'interrupted_geometry')!;
    assert.equal(restartStep.id, `relax-ontop-input-from-${killed.call}`);
    assert.ok(plan.value.steps.every((s) => s.status === 'done'));
    assert.equal(plan.value.steps.find((s) => s.id === 'relax-ontop-input')!.args!.structure, `$step.${restartStep.id}.restart_structure`);
    const printed = parsePwOutput(fs.readFileSync(killed.output, 'utf8')).ionicSteps.at(-1)!.positionsAngstrom;
    const input = byStep('relax-ontop-input', 'pw_input').value as PwInputValue;
    const fixed = input.structure.fixed!;
    input.structure.positions.forEach((r, i) => {
      const d = Math.hypot(r[0] - printed[i]![0], r[1] - printed[i]![1], r[2] - printed[i]![2]);
      // free atoms where pw.x left them; fixed ones at their input positions, which pw.x printed to 1e-10 Å
      assert.ok(fixed[i] ? d < 1e-9 : d === 0, `atom ${i}: ${d} Å from the last printed geometry`);
    });
    const start = byStep('ads-ontop', 'slab_with_adsorbate').value as Structure;
    const moved = Math.max(
      ...input.structure.positions.map((r, i) =>
        Math.hypot(r[0] - start.positions[i]![0], r[1] - start.positions[i]![1], r[2] - start.positions[i]![2]),
      ),
    );
    assert.ok(moved > 0.01, `the continued relaxation starts ${moved} Å from the original start`);
  });

  it('the continued relaxation needed fewer geometries than the uninterrupted one, and ended at the same site and energy', () => {
    const { p, byStep } = studyOf(run);
    const ref = studyOf(reference);
    const outOf = (r: ToyRun, id: string) => fs.readFileSync(path.join(r.controller.runDir, studyOf(r).p.artifact(id)!.location!), 'utf8');
    const continued = outOf(run, byStep('relax-ontop-run', 'pw_output').id);
    const whole = outOf(reference, ref.byStep('relax-ontop-run', 'pw_output').id);
    assert.match(continued, /bfgs converged/);
    assert.ok(
      geometries(continued) < geometries(whole),
      `continued: ${geometries(continued)} geometries after ${KILL_AFTER_GEOMETRIES + 1} before the kill; uninterrupted: ${geometries(whole)}`,
    );
    const g = adsorbateGeometry(byStep('relaxed-ontop', 'relaxed_structure').value as Structure)!;
    assert.equal(g.site, 'ontop');
    // Both relaxations stop at the toy study's loose force threshold (0.25 eV/Å), from different last steps.
    const e = byStep('relax-ontop-run', 'total_energy').value as number;
    const eRef = ref.byStep('relax-ontop-run', 'total_energy').value as number;
    assert.ok(Math.abs(e - eRef) < 0.01, `E(ontop) ${e} eV continued vs ${eRef} eV uninterrupted`);
    assert.ok(p.artifacts().some((a) => a.name === 'beef_ensemble_stats' && a.status === 'final'));
  });

  it('nothing provisional is upstream of the ensemble statistics: the restart geometry derives from the original structure, the killed run is only its seed', () => {
    const { p, byStep } = studyOf(run);
    const stats = byStep('beef-stats', 'beef_ensemble_stats');
    const up = upstreamPath(p, [stats.id], 10_000)
      .filter((id) => id.startsWith('a-'))
      .map((id) => p.artifact(id)!);
    assert.ok(
      up.every((a) => a.status === 'final'),
      up
        .filter((a) => a.status !== 'final')
        .map((a) => `${a.id} ${a.name} ${a.status}`)
        .join(', '),
    );
    const restart = up.find((a) => a.name === 'restart_structure')!;
    assert.ok(restart, 'the restart geometry is upstream of ΔBE');
    assert.deepEqual(restart.inputs, [byStep('ads-ontop', 'slab_with_adsorbate').id]);
    const call = p.call(restart.creator)!;
    assert.equal(call.args.relaxation!.seed, true);
    assert.ok(
      call.verdicts.some((v) => v.rule === 'no-provisional-support' && v.level === 'pass' && /only seeds/.test(v.reasons.join(' '))),
    );
  });
});
