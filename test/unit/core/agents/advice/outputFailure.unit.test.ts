// The advisor reads the failure kind of the parsed output: real pw.x 6.7 runs that failed in
// ways the advisor's text patterns took for an unconverged SCF, or did not see at all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { diagnose, ruleSuggestions } from '../../../../../src/core/agents/advice/adviceRules';
import { failureEvidence } from '../../../../../src/core/agents/advice/failureEvidence';
import { adviseOnEvidence } from '../../../../../src/core/agents/advisor';
import { makePwInputTool } from '../../../../../src/core/tools/qeTools';

const runs = path.resolve(__dirname, '../../../../fixtures/qe/runs');
const evidence = (name: string) =>
  failureEvidence(fs.readFileSync(path.join(runs, `${name}.in`), 'utf8'), fs.readFileSync(path.join(runs, `${name}.out`), 'utf8'), []);
const changes = (name: string) => {
  const ev = evidence(name);
  return ruleSuggestions(ev, diagnose(ev)).map((s) => [s.parameter, s.currentValue, s.newValue]);
};

describe('convergence advisor: the failure kind of the parsed output', () => {
  it('reads pw.x stopping at max_seconds as the time limit, not as an SCF to mix differently', () => {
    const d = diagnose(evidence('si-walltime'));
    assert.equal(d.kind, 'walltime');
    assert.match(d.finding, /time limit \(max_seconds\)/);
    assert.match(d.finding, /"Maximum CPU time exceeded", output line \d+/);
    assert.ok(!changes('si-walltime').some(([p]) => p === 'mixing_beta'));
  });

  it('reads a relaxation that ran out of ionic steps, and asks for more steps', () => {
    const d = diagnose(evidence('si-relax-nstep'));
    assert.equal(d.kind, 'relaxation-not-converged');
    assert.match(d.finding, /2 ionic steps \(nstep\)/);
    assert.deepEqual(changes('si-relax-nstep'), [['nstep', 2, 4]]);
  });

  it('reads a BFGS history failure pw.x 6.7 calls converged, and asks for a tighter SCF', () => {
    const d = diagnose(evidence('si-bfgs-history'));
    assert.equal(d.kind, 'relaxation-not-converged');
    assert.match(d.finding, /history already reset/);
    assert.deepEqual(changes('si-bfgs-history'), [['conv_thr', 1e-5, 1e-7]]);
  });

  it('reads a final SCF above the vc-relax thresholds, and asks for higher cutoffs', () => {
    const d = diagnose(evidence('si-vc-final'));
    assert.equal(d.kind, 'final-scf-above-thresholds');
    assert.match(d.finding, /-6\.46 kbar/);
    assert.deepEqual(changes('si-vc-final'), [
      ['ecutwfc', 10, 12.5],
      ['ecutrho', 40, 50],
    ]);
  });

  it('applies both raised cutoffs of the Pulay-stress advice through make_pw_input, not the density cutoff alone', async () => {
    const advice = await adviseOnEvidence(evidence('si-vc-final'), 'c-1', makePwInputTool.schema);
    assert.deepEqual(
      advice.suggestions.map((s) => [s.parameter, s.apply, s.notApplicable]),
      [
        ['ecutwfc', { tool: 'make_pw_input', argument: 'ecutwfcRy', value: 12.5 }, undefined],
        ['ecutrho', { tool: 'make_pw_input', argument: 'ecutrhoRy', value: 50 }, undefined],
      ],
    );
  });

  it('keeps an SCF that did not converge inside a relaxation an SCF problem', () => {
    assert.equal(diagnose(evidence('si-relax-scf-unconverged')).kind, 'scf-not-converged');
  });
});
