// make_pw_input's SCF control on real pw.x 6.7: the lean fcc Al lattice-constant study with
// electron_maxstep = 3, too few for its SCFs. The first pw.x run of each input does not
// converge; the convergence advisor reads it and suggests more SCF steps and a smaller
// mixing step, both now arguments of make_pw_input; the offline supervisor applies them to
// the input step and the rerun converges. SCF control never changes the physics: the
// energies carry the same settings, and a pw.x run of the same input with pw.x's default
// SCF control gives the same energy.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { RunController } from '../../src/core/run/controller';
import type { AdviceValue } from '../../src/core/agents/advisor';
import type { PwInputValue } from '../../src/core/artifacts/shapes';
import { PlanStore } from '../../src/core/plan/store';
import { localPwRunner } from '../../src/core/calculators/pwx';
import { parsePwOutput } from '../../src/core/dft/qe/output';
import { RY_IN_EV } from '../../src/core/units';
import { freshDir, leanAlObjective, leanSettings, PSEUDO_DIR } from '../fixtures/agents/scriptedLattice';

describe('SCF control through make_pw_input and the convergence advisor (real pw.x)', function () {
  this.timeout(900_000);

  it('an SCF that does not converge in electron_maxstep = 3 is diagnosed, the advice applied to make_pw_input, and the rerun converges', async () => {
    const o = leanAlObjective();
    const objective = { ...o, inputs: { ...o.inputs, scf: { electronMaxstep: 3 } } };
    const c = await RunController.start({ runsDir: freshDir('dreams-scf-'), settings: leanSettings(true, { objective }) });
    try {
      const result = await c.run();
      assert.equal(result.state, 'completed', result.reason);
      const reg = c.session.run.registry;

      // The first cutoff run: pw.x stopped after 3 SCF iterations with no energy, so its output is provisional.
      const firstRun = reg.calls().find((x) => x.tool === 'run_pw' && x.step === 'cutoff-runs')!;
      const outputs = firstRun.outputs.map((id) => reg.artifact(id)!);
      // (provisional when it ran; stale now that the rerun from the changed input replaced it)
      assert.deepEqual(
        outputs.map((a) => a.name),
        ['pw_output'],
      );
      assert.notEqual(outputs[0]!.status, 'final');
      assert.match(fs.readFileSync(path.join(c.runDir, outputs[0]!.location!), 'utf8'), /convergence NOT achieved after\s+3 iterations/);

      const advice = reg
        .artifacts()
        .filter((a) => a.name === 'convergence_advice')
        .map((a) => a.value as AdviceValue);
      assert.equal(advice.length, 3, 'one consultation per input step (cutoff, k, EOS)');
      const first = advice[0]!;
      assert.deepEqual([reg.call(first.failedCall)!.tool, reg.call(first.failedCall)!.step], ['run_pw', 'cutoff-runs']);
      assert.equal(first.diagnosis.kind, 'scf-not-converged');
      assert.match(first.diagnosis.finding, /did not converge in 3 iterations/);
      const byParameter = new Map(first.suggestions.map((s) => [s.parameter, s]));
      assert.deepEqual(byParameter.get('electron_maxstep')!.apply, { tool: 'make_pw_input', argument: 'electronMaxstep', value: 6 });
      assert.deepEqual(byParameter.get('mixing_beta')!.apply, { tool: 'make_pw_input', argument: 'mixingBeta', value: 0.35 });
      assert.ok(
        first.suggestions.every((s) => s.notApplicable === undefined),
        JSON.stringify(first.suggestions),
      );

      const plan = new PlanStore(c.session.run.canvas).require();
      for (const id of ['cutoff-input', 'k-input', 'eos-input']) {
        const step = plan.steps.find((s) => s.id === id)!;
        assert.equal(step.args!.electronMaxstep, 6, `${id} applies the advice`);
        assert.match(step.reasons!.electronMaxstep!, /convergence advisor a-\d+: allow more SCF iterations/);
      }
      const eos = reg
        .artifacts()
        .filter((a) => a.name === 'total_energy' && a.status === 'final' && reg.call(a.creator)!.step === 'eos-runs');
      assert.equal(eos.length, 5);
      assert.ok(eos.every((a) => a.meta!.scfConverged === true));

      // The same physics with pw.x's own SCF control: the input of one EOS point without the advice.
      const input = reg.artifact(reg.call(eos[2]!.creator)!.args.input!.value as string)!.value as PwInputValue;
      assert.match(input.text, /electron_maxstep = 6/);
      const plain = input.text
        .replace(/^\s*(electron_maxstep|mixing_beta) = .*\n/gm, '')
        .replace('&CONTROL', `&CONTROL\n  pseudo_dir = '${PSEUDO_DIR}'`);
      const out = parsePwOutput(await localPwRunner()(plain, { label: 'EOS point with default SCF control' }));
      assert.ok(out.scfConverged);
      assert.ok(
        Math.abs(out.totalEnergyRy! * RY_IN_EV - (eos[2]!.value as number)) < 1e-5,
        `${out.totalEnergyRy! * RY_IN_EV} vs ${eos[2]!.value}`,
      );
    } finally {
      await c.close();
    }
  });
});
