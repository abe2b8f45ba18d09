// The BEEF-vdW ensemble workflow end to end at toy settings (CO/Pt(111) p(1×1), adsorbed
// states only), offline, with real pw.x 6.7: calculation='ensemble' with input_dft='BEEF-vdW'
// on the relaxed geometries, 2,000 members parsed from each run, ΔBE member by member from
// each run's SCF energy plus its deviations, the statistics recomputed here from those
// members, and the report with its histogram. Its ontop relaxation is killed after three
// geometries and continued (coptToyRuns; workflow-interrupted-relax checks the continuation).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { BeefStatsValue, PwInputValue } from '../../src/core/artifacts/shapes';
import { parsePwInput, stringIn } from '../../src/core/dft/qe/input';
import type { Structure } from '../../src/core/dft/types';
import { writeRunOutputs } from '../../src/core/run/outputs';
import { studyOf, toyRuns, type KilledRelaxation, type StudyProvenance, type ToyRun } from './support/coptToyRuns';

describe('beef-ensemble: BEEF-vdW ensemble of the CO/Pt(111) site preference at toy settings (offline, real pw.x)', function () {
  // minutes on a quiet two-core machine; generous because the qe tier shares its cores
  this.timeout(7_200_000);
  let run: ToyRun & { killed?: KilledRelaxation };
  let p: StudyProvenance;
  let byStep: ReturnType<typeof studyOf>['byStep'];

  before(async () => {
    // the site-preference study (the next test file) starts now too: one pw.x each on the two cores
    void toyRuns().sitePreference.catch(() => undefined);
    run = await toyRuns().beef;
    ({ p, byStep } = studyOf(run));
  });
  after(async () => run?.controller.close());

  it('completes, relaxing only the two adsorbed states (their shared references cancel)', () => {
    assert.equal(run.result.state, 'completed', run.result.reason);
    const runPw = p.calls().filter((c) => c.tool === 'run_pw' && c.status === 'ok');
    // the ontop relaxation twice: the run killed after three geometries, and its continuation
    assert.deepEqual(runPw.map((c) => c.step).sort(), [
      'beef-fcc-run',
      'beef-ontop-run',
      'relax-fcc-run',
      'relax-ontop-run',
      'relax-ontop-run',
    ]);
    assert.ok(run.killed, 'the ontop relaxation was killed');
    assert.equal(runPw.filter((c) => c.step === 'relax-ontop-run')[0]!.id, run.killed.call);
  });

  it('runs the ensemble with input_dft BEEF-vdW and calculation ensemble on exactly the relaxed geometries, at the study settings', () => {
    for (const site of ['ontop', 'fcc']) {
      const input = byStep(`beef-${site}-input`, 'pw_input').value as PwInputValue;
      const parsed = parsePwInput(input.text);
      assert.equal(stringIn(parsed, 'control', 'calculation'), 'ensemble');
      assert.equal(stringIn(parsed, 'system', 'input_dft'), 'BEEF-vdW');
      assert.equal(input.settings.functional, 'BEEF-vdW');
      const relaxed = byStep(`relaxed-${site}`, 'relaxed_structure').value as Structure;
      assert.deepEqual(input.structure.positions, relaxed.positions);
      const relaxInput = byStep(`relax-${site}-input`, 'pw_input').value as PwInputValue;
      for (const k of ['ecutwfcRy', 'ecutrhoRy', 'kMesh', 'smearing', 'degaussRy'] as const)
        assert.deepEqual(input.settings[k], relaxInput.settings[k], k);
    }
  });

  it('parses the 2,000 members of each run and takes ΔBE member by member from SCF energy plus deviation', () => {
    const ens = Object.fromEntries(
      ['ontop', 'fcc'].map((s) => [
        s,
        { dev: byStep(`beef-${s}-run`, 'beef_ensemble').value as number[], scf: byStep(`beef-${s}-run`, 'total_energy').value as number },
      ]),
    );
    for (const s of ['ontop', 'fcc']) {
      assert.equal(ens[s]!.dev.length, 2000);
      assert.ok(ens[s]!.dev.every(Number.isFinite));
      assert.ok(
        ens[s]!.dev.some((d) => Math.abs(d) > 1e-3),
        `${s}: the members differ from the SCF energy`,
      );
    }
    const stats = byStep('beef-stats', 'beef_ensemble_stats').value as BeefStatsValue;
    const delta = ens.ontop!.dev.map((d, i) => ens.ontop!.scf + d - (ens.fcc!.scf + ens.fcc!.dev[i]!));
    assert.equal(stats.count, 2000);
    delta.forEach((d, i) => assert.ok(Math.abs(stats.deltaBeEv[i]! - d) < 1e-9, `member ${i}`));
    const mean = delta.reduce((s, x) => s + x, 0) / 2000;
    const sigma = Math.sqrt(delta.reduce((s, x) => s + (x - mean) ** 2, 0) / 2000);
    assert.ok(Math.abs(stats.meanEv - mean) < 1e-12);
    assert.ok(Math.abs(stats.sigmaEv - sigma) < 1e-12);
    assert.equal(stats.fractionPositive, delta.filter((x) => x > 0).length / 2000);
    assert.ok(Math.abs(stats.selfConsistentDeltaBeEv! - (ens.ontop!.scf - ens.fcc!.scf)) < 1e-12);
    assert.ok(stats.sigmaEv > 0);
  });

  it('writes a report the judge accepted, with the ensemble statistics as claims and the histogram', async () => {
    const events = run.controller.session.run.log.events();
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as {
      accepted: boolean;
      claims: { claim: { quantity: string; cites: string } }[];
    };
    assert.equal(judged.accepted, true);
    const stats = byStep('beef-stats', 'beef_ensemble_stats');
    assert.deepEqual(judged.claims.map((c) => c.claim.cites).sort(), [
      `${stats.id}.fractionPositive`,
      `${stats.id}.meanEv`,
      `${stats.id}.sigmaEv`,
    ]);
    const outputs = await writeRunOutputs(run.controller.session.run, { bundle: false });
    const svg = outputs.plots.find((f) => f.endsWith('beef-ensemble.svg'))!;
    assert.ok(svg, outputs.plots.join(', '));
    const v = stats.value as BeefStatsValue;
    assert.match(fs.readFileSync(svg, 'utf8'), new RegExp(`2000 members: mean ${v.meanEv.toFixed(3).replace('.', '\\.')} eV`));
    const md = fs.readFileSync(outputs.report, 'utf8');
    assert.match(md, /!\[BEEF-vdW ensemble ΔBE\]\(plots\/beef-ensemble\.svg\)/);
    // the report rounds the percentage (trailing zeros dropped: 3.0 prints as 3)
    const shown = /(\d+(?:\.\d+)?) % of the members give ΔBE > 0 \(fcc favoured\)/.exec(md);
    assert.ok(shown, md.slice(0, 2000));
    assert.ok(
      Math.abs(Number(shown[1]) - 100 * v.fractionPositive) <= 0.05 + 1e-9,
      `the report says ${shown[1]} % for ${100 * v.fractionPositive} %`,
    );
  });
});
