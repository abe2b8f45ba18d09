import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loweredAccuracy, MAX_DEGAUSS_RY, screenSuggestions } from '../../../../src/core/agents/advice/accuracyCheck';
import { diagnose, oscillates, ruleSuggestions, type Diagnosis } from '../../../../src/core/agents/advice/adviceRules';
import { failureEvidence, inputSettings } from '../../../../src/core/agents/advice/failureEvidence';
import { adviseOnEvidence, interruptedRelaxation, mapToInputTool } from '../../../../src/core/agents/advisor';
import { makePwInputTool } from '../../../../src/core/tools/qeTools';
import { UNWATCHED_EXIT } from '../../../../src/core/hpc/types';
import { MemoryProvenance } from '../guard/support/memoryProvenance';
import { seedCall } from '../guard/support/seedCall';

const dir = path.resolve(__dirname, '../../../fixtures/agents/pw-failures');
const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
const evidence = (name: string, errors: string[] = [], state?: string) =>
  failureEvidence(read(`${name}.in`), read(`${name}.out`), errors, state);

describe('convergence advisor: diagnosis of real pw.x failures', () => {
  it('reads an unconverged SCF as steady but too slow and asks for more iterations, not a smaller step', () => {
    const ev = evidence('scf-not-converged');
    const d = diagnose(ev);
    assert.equal(d.kind, 'scf-not-converged');
    assert.match(d.finding, /did not converge in 6 iterations/);
    assert.match(d.finding, /decreases steadily/);
    const s = ruleSuggestions(ev, d);
    assert.deepEqual(
      s.map((x) => [x.parameter, x.currentValue, x.newValue]),
      [['electron_maxstep', 6, 12]],
    );
  });

  it('halves mixing_beta when the SCF accuracy oscillates', () => {
    const ev = evidence('scf-not-converged');
    // The same run's history, made to slosh: the rule looks at the shape, not at the element.
    const cycle = ev.output!.scfCycles.at(-1)!;
    cycle.iterations.forEach((it, i) => (it.estimatedAccuracyRy = i % 2 ? 1e-3 : 1e-2));
    const s = ruleSuggestions(ev, diagnose(ev));
    assert.deepEqual(
      s.find((x) => x.parameter === 'mixing_beta'),
      { parameter: 'mixing_beta', currentValue: 0.7, newValue: 0.35, reason: 'a smaller mixing step damps charge sloshing' },
    );
    assert.equal(oscillates([1, 0.5, 0.25, 0.1]), false);
    assert.equal(oscillates([1, 0.1, 0.5, 0.05, 0.4]), true);
  });

  it('does not call a healthy slab SCF sloshing because its accuracy rose now and then', () => {
    // The real history of the ontop CO/Pt(111) relaxation's first SCF (interrupted-copt.out): it climbs
    // from 1.3 to 64 Ry while the density settles, then falls seven decades in fifteen iterations with
    // six small rises on the way. Counting every rise called it sloshing.
    const acc = [...read('interrupted-copt.out').matchAll(/estimated scf accuracy\s+<\s+(\S+) Ry/g)].map((m) => Number(m[1]));
    assert.equal(acc.length, 18);
    assert.equal(oscillates(acc), false);
    // the same rises with no net progress after the climb are sloshing
    assert.equal(oscillates([1.3, 53, 64, 6, 9, 5, 8, 4, 7, 3, 6]), true);
    // a climb at the start alone is not
    assert.equal(oscillates([0.01, 1, 10, 1, 0.1, 0.01, 0.001]), false);
  });

  it('reads pw.x stopping for a missing starting magnetization, and for Al drops the spin polarization', () => {
    const ev = evidence('nspin-without-magnetization');
    const d = diagnose(ev);
    assert.equal(d.kind, 'missing-starting-magnetization');
    assert.deepEqual(
      ruleSuggestions(ev, d).map((x) => [x.parameter, x.newValue]),
      [['nspin', 1]],
    );
  });

  it('for a magnetic element sets a starting magnetization instead', () => {
    const ev = evidence('nspin-without-magnetization');
    ev.input.elements = ['Fe'];
    assert.deepEqual(
      ruleSuggestions(ev, diagnose(ev)).map((x) => [x.parameter, x.newValue]),
      [['starting_magnetization(Fe)', 0.5]],
    );
  });

  it('recognises a job killed from outside: rerun unchanged, no parameter change', async () => {
    const ev = evidence('killed', ['pw.x was ended by SIGKILL'], 'failed');
    const d = diagnose(ev);
    assert.equal(d.kind, 'killed');
    const advice = await adviseOnEvidence(ev, 'c-7', makePwInputTool.schema);
    assert.equal(advice.rerun, true);
    assert.deepEqual(advice.suggestions, []);
  });

  it('reads a job cancelled from outside (scancel, a cancel in DREAMS) as stopped from outside, however far its SCF had got', async () => {
    // the remote runner's words for a job SLURM reports CANCELLED, on a real output cut mid-SCF
    const onCluster = evidence('killed', ['cancelled on the cluster'], 'cancelled');
    const d = diagnose(onCluster);
    assert.equal(d.kind, 'killed');
    assert.match(d.finding, /cancelled from outside \(cancelled on the cluster\)/);
    const advice = await adviseOnEvidence(onCluster, 'c-5', makePwInputTool.schema);
    assert.equal(advice.rerun, true);
    assert.deepEqual(advice.suggestions, []);
    // cancelled while still queued: no output at all; and the error alone, with no job record at hand
    assert.equal(diagnose(failureEvidence(read('killed.in'), undefined, ['cancelled (scancel 41)'], 'cancelled')).kind, 'killed');
    assert.equal(diagnose(evidence('killed', ['job j-3 cancelled: cancelled while running (pw.x ended by SIGTERM)'])).kind, 'killed');
    // pw.x's own error still wins over the job's state
    assert.equal(
      diagnose(evidence('nspin-without-magnetization', ['cancelled on the cluster'], 'cancelled')).kind,
      'missing-starting-magnetization',
    );
  });

  it('reads a kill as a kill when the last lines of the output happen to hold a pw.x warning', () => {
    // pw.x prints "negative rho" as it starts the SCF of each new geometry; a kill landing just
    // after it puts the line in the runner's tail of the output. The input is not at fault.
    const tail =
      'pw.x was ended by SIGKILL. Last lines of the output (jobs/j-4):\n     NEW-OLD atomic charge density approx. for the potential\n     negative rho (up, down):  2.731E-03 0.000E+00';
    assert.equal(diagnose(evidence('killed', [tail], 'failed')).kind, 'killed');
    const unwatched = `${UNWATCHED_EXIT} and its output has no "JOB DONE". Last lines of the output (jobs/x):\n     negative rho (up, down):  2.731E-03 0.000E+00`;
    assert.equal(diagnose(evidence('interrupted-copt', [unwatched], 'failed')).kind, 'killed');
    // The same line after a run that ended on its own still points at the density cutoff.
    const exited =
      'pw.x exited with code 1 without printing an error block. Last lines of the output (jobs/j-4):\n     negative rho (up, down):  2.731E-03 0.000E+00';
    assert.equal(diagnose(evidence('killed', [exited], 'failed')).kind, 'charge-wrong');
  });

  it('reads a run cut short while no DREAMS process watched it as interrupted, not as an unconverged SCF', async () => {
    // The real output of a CO/Pt(111) relaxation whose DREAMS process was stopped mid-SCF.
    const unwatched = `${UNWATCHED_EXIT} and its output has no "JOB DONE". Last lines of the output (jobs/x):`;
    const ev = evidence('interrupted-copt', [unwatched], 'failed');
    assert.equal(ev.output?.jobDone, false);
    const d = diagnose(ev);
    assert.equal(d.kind, 'killed');
    assert.match(d.finding, /at SCF iteration 19 of at most 100/);
    const advice = await adviseOnEvidence(ev, 'c-12', makePwInputTool.schema);
    assert.equal(advice.rerun, true);
    assert.deepEqual(advice.suggestions, []);
    // Had pw.x itself given up, the same words from the runner do not hide it.
    const gaveUp = failureEvidence(read('scf-not-converged.in'), read('scf-not-converged.out'), [unwatched], 'failed');
    assert.equal(diagnose(gaveUp).kind, 'scf-not-converged');
  });

  it('suggests cg only for repeated c_bands warnings, not for the single one of an early SCF step', () => {
    const ev = evidence('interrupted-copt');
    const d = diagnose(ev); // without the runner's words: the unconverged last cycle
    assert.equal(d.kind, 'scf-not-converged');
    assert.equal(ev.output?.warningCounts['c_bands: eigenvalues not converged'], 1);
    assert.equal(
      ruleSuggestions(ev, d).some((s) => s.parameter === 'diagonalization'),
      false,
    );
    ev.output!.warningCounts['c_bands: eigenvalues not converged'] = 4;
    assert.deepEqual(
      ruleSuggestions(ev, d).find((s) => s.parameter === 'diagonalization'),
      {
        parameter: 'diagonalization',
        currentValue: 'david',
        newValue: 'cg',
        reason: 'eigenvalues did not converge in Davidson (4 c_bands warnings)',
      },
    );
  });

  it('reads a job the scheduler would never start as a request beyond its limits: less walltime, not more, and no rerun as it was', async () => {
    const error =
      "SLURM will not start this job as it was asked for (PartitionTimeLimit: its walltime is above the partition's time limit: ask for less time). Nothing ran; the job was withdrawn (scancel 12) so it does not wait in the queue forever.";
    const ev = failureEvidence(read('killed.in'), '', [error], 'failed');
    const d = diagnose(ev);
    assert.equal(d.kind, 'scheduler-limit', 'not a walltime overrun, though the text says "time limit"');
    assert.match(d.finding, /never start the job \(PartitionTimeLimit\).*pw\.x never ran/);
    assert.deepEqual(
      ruleSuggestions(ev, d).map((x) => [x.parameter, x.newValue]),
      [['resources.walltimeMinutes', "at most the partition's (or QOS's) time limit"]],
    );
    const account = failureEvidence(read('killed.in'), '', [error.replace('PartitionTimeLimit', 'InvalidAccount')], 'failed');
    assert.equal(ruleSuggestions(account, diagnose(account))[0]!.parameter, 'cluster profile');
    const advice = await adviseOnEvidence(ev, 'c-9', makePwInputTool.schema);
    assert.notEqual(advice.rerun, true);
  });

  it('reads the input settings the rules reason about from the pw.x input', () => {
    const s = inputSettings(read('scf-not-converged.in'));
    assert.deepEqual([s.elements, s.convThrRy, s.electronMaxstep, s.occupations, s.degaussRy], [['Al'], 1e-14, 6, 'smearing', 0.02]);
  });
});

describe('convergence advisor: the accuracy check', () => {
  const refused = (parameter: string, currentValue: unknown, newValue: unknown, elements?: string[]) =>
    loweredAccuracy({ parameter, currentValue, newValue, reason: 'test' }, { ...(elements ? { elements } : {}) });

  it('refuses a looser conv_thr, a lower cutoff, a coarser k-sampling and fewer SCF steps', () => {
    assert.match(refused('conv_thr', 1e-8, 1e-6)!, /loosens the SCF threshold/);
    assert.match(refused('ecutwfc', 40, 30)!, /lowers a cutoff/);
    assert.match(refused('ecutrho', 320, 240)!, /lowers a cutoff/);
    assert.match(refused('kspacing', 0.2, 0.3)!, /coarsens the k-point sampling/);
    assert.match(refused('kmesh', [8, 8, 8], [8, 6, 8])!, /coarsens the k-point mesh/);
    assert.match(refused('electron_maxstep', 100, 50)!, /fewer SCF iterations/);
  });

  it('refuses smearing that biases the energy and dropping the spin of a magnetic element', () => {
    assert.match(refused('degauss', 0.02, MAX_DEGAUSS_RY * 2)!, /widens the smearing/);
    assert.equal(refused('degauss', 0.005, 0.01), undefined);
    assert.match(refused('nspin', 2, 1, ['Fe'])!, /drops spin polarization/);
    assert.equal(refused('nspin', 2, 1, ['Al']), undefined);
  });

  it('lets through changes of how the SCF gets there', () => {
    for (const [p, a, b] of [
      ['mixing_beta', 0.7, 0.3],
      ['conv_thr', 1e-6, 1e-8],
      ['ecutwfc', 30, 40],
      ['electron_maxstep', 100, 200],
      ['diagonalization', 'david', 'cg'],
    ] as const) {
      assert.equal(refused(p, a, b), undefined, p);
    }
    const { accepted, rejected } = screenSuggestions([
      { parameter: 'conv_thr', currentValue: 1e-8, newValue: 1e-5, reason: 'looser' },
      { parameter: 'mixing_beta', currentValue: 0.7, newValue: 0.3, reason: 'damp' },
    ]);
    assert.deepEqual(
      accepted.map((s) => s.parameter),
      ['mixing_beta'],
    );
    assert.deepEqual(
      rejected.map((s) => s.parameter),
      ['conv_thr'],
    );
  });

  it('a model suggestion that lowers accuracy is refused like a rule one', async () => {
    const ev = evidence('scf-not-converged');
    const advice = await adviseOnEvidence(ev, 'c-3', makePwInputTool.schema, async () => [
      { parameter: 'conv_thr', newValue: 1e-6, reason: 'converge faster' },
      { parameter: 'diagonalization', newValue: 'cg', reason: 'robust' },
    ]);
    assert.equal(advice.source, 'rules+model');
    assert.deepEqual(
      advice.rejected.map((s) => s.parameter),
      ['conv_thr'],
    );
    assert.deepEqual(advice.suggestions.map((s) => s.parameter).sort(), ['diagonalization', 'electron_maxstep']);
  });
});

describe('convergence advisor: mapping suggestions to the input tool', () => {
  it('maps each suggestion to the make_pw_input argument that applies it, or says why not', () => {
    const mapped = mapToInputTool(
      [
        { parameter: 'mixing_beta', newValue: 0.3, reason: 'r' },
        { parameter: 'starting_magnetization(Fe)', newValue: 0.5, reason: 'r' },
        { parameter: 'resources.walltimeMinutes', newValue: 'twice', reason: 'r' },
        { parameter: 'tqr', newValue: true, reason: 'r' },
      ],
      makePwInputTool.schema,
    );
    assert.deepEqual(mapped[0]!.apply, { tool: 'make_pw_input', argument: 'mixingBeta', value: 0.3 });
    assert.deepEqual(mapped[1]!.apply, { tool: 'make_pw_input', argument: 'startingMagnetization', value: { Fe: 0.5 } });
    assert.match(mapped[2]!.notApplicable!, /job resource/);
    assert.match(mapped[3]!.notApplicable!, /no argument for tqr/);
  });
});

describe('convergence advisor: an interrupted relaxation', () => {
  const relaxText = read('interrupted-relax.in');
  const positions = (moved: boolean) => Array.from({ length: 14 }, (_, i) => [0, 0, i + (moved && i === 12 ? 0.05 : 0)]);
  async function chain(calculation: string, moved = true, fixed?: boolean[], extra: Record<string, unknown> = {}) {
    const p = new MemoryProvenance();
    const structure = {
      symbols: Array(14).fill('Pt'),
      positions: positions(false),
      cell: [
        [5, 0, 0],
        [0, 5, 0],
        [0, 0, 16],
      ],
      pbc: [true, true, true],
      ...(fixed ? { fixed } : {}),
    };
    const [input] = await seedCall(p, 'make_pw_input', {}, [
      { kind: 'qe-input', name: 'pw_input', value: { text: relaxText, calculation, structure, settings: {} } },
    ]);
    const [, energy] = await seedCall(
      p,
      'run_pw',
      { input: input!.id },
      [
        { kind: 'table', name: 'pw_output', value: {}, status: 'provisional', meta: { state: 'failed' } },
        {
          kind: 'scalar',
          name: 'total_energy',
          value: -1,
          unit: 'eV',
          status: 'provisional',
          meta: { finalPositionsAngstrom: positions(moved), ionicSteps: 4, ...extra },
        },
      ],
      { input: input!.id },
    );
    return { p, call: energy!.creator, energy: energy!.id };
  }
  const d = (kind: Diagnosis['kind']): Diagnosis => ({ kind, finding: '' });

  it('continues a relax killed from outside or out of wall time from its last geometry', async () => {
    const { p, call, energy } = await chain('relax');
    assert.deepEqual(interruptedRelaxation(p, call, d('killed')), { energy, ionicSteps: 4 });
    assert.deepEqual(interruptedRelaxation(p, call, d('walltime')), { energy, ionicSteps: 4 });
  });

  it('continues a relaxation that ran out of steps, and a vc-relax whose final SCF is above its thresholds though only its cell moved', async () => {
    const steps = await chain('relax', true, undefined, { relaxation: { failureKind: 'steps-exhausted' } });
    assert.deepEqual(interruptedRelaxation(steps.p, steps.call, d('relaxation-not-converged')), { energy: steps.energy, ionicSteps: 4 });
    const pulay = await chain('vc-relax', false, undefined, {
      relaxation: { failureKind: 'final-scf-above-thresholds' },
      cellAngstrom: [
        [5.05, 0, 0],
        [0, 5.05, 0],
        [0, 0, 16.1],
      ],
    });
    assert.deepEqual(interruptedRelaxation(pulay.p, pulay.call, d('final-scf-above-thresholds')), { energy: pulay.energy, ionicSteps: 4 });
    // BFGS that gave up wants a tighter SCF, not a continuation
    const bfgs = await chain('relax', true, undefined, { relaxation: { failureKind: 'bfgs-failed' } });
    assert.equal(interruptedRelaxation(bfgs.p, bfgs.call, d('relaxation-not-converged')), undefined);
  });

  it('does not for a failure of the calculation itself, a run that does not move atoms, or one that stopped before they moved', async () => {
    const relax = await chain('relax');
    assert.equal(interruptedRelaxation(relax.p, relax.call, d('scf-not-converged')), undefined);
    const scf = await chain('scf');
    assert.equal(interruptedRelaxation(scf.p, scf.call, d('killed')), undefined);
    const still = await chain('relax', false);
    assert.equal(interruptedRelaxation(still.p, still.call, d('killed')), undefined);
    // only a fixed atom differs (as printed): the free atoms never moved, which interrupted_geometry refuses too
    const fixedOnly = await chain(
      'relax',
      true,
      Array.from({ length: 14 }, (_, i) => i === 12),
    );
    assert.equal(interruptedRelaxation(fixedOnly.p, fixedOnly.call, d('killed')), undefined);
  });
});
