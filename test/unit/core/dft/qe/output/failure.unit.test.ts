// Failure kinds and the lines QE 6.x/7.x print, read from real outputs: pw.x 6.7 runs made
// here (test/fixtures/qe/runs, make-outputs.sh) and reference outputs of QE's own test-suite
// at tag qe-7.2, written by QE 6.1-7.1 (test/fixtures/qe/qe-7.2-benchmarks, see its NOTICE.md).
// Where no real output shows a line (a CRASH in 7.x's form, a failure line outside the
// %%%% block, back-to-back messages), the line is written here from QE's source format.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwOutput, PwProgressParser, PW_FAILURE_KINDS, type PwOutput } from '../../../../../../src/core/dft/qe/output';
import { readPwOutputFile } from '../../../../../../src/core/dft/qe/outputFiles';
import { FIXTURES, fixtureOutputs } from '../fixtures';

const run = (name: string) => fs.readFileSync(path.join(FIXTURES, 'runs', name), 'utf8');
const bench = (name: string) => fs.readFileSync(path.join(FIXTURES, 'qe-7.2-benchmarks', name), 'utf8');
/** The numbers on the lines matching `re`, read independently of the parser. */
const grep = (text: string, re: RegExp) =>
  text
    .split('\n')
    .filter((l) => re.test(l))
    .map((l) => Number(/(-?\d+\.\d+(?:[eEdD][-+]?\d+)?)/.exec(l.slice(l.indexOf('=') + 1))![1]!.replace(/[dD]/, 'e')));

/** The evidence of a failure is the line it names, as printed. */
function evidenceHolds(o: PwOutput, text: string): void {
  const f = o.failure!;
  assert.ok(PW_FAILURE_KINDS.includes(f.kind));
  if (f.source === 'output' && f.line !== undefined) assert.equal(text.split('\n')[f.line - 1]!.trim(), f.evidence);
}

describe('pw.x output: failure kinds with their evidence', () => {
  it('tells the time limit (max_seconds) apart from an unconverged SCF, and counts the iterations pw.x completed', () => {
    const text = run('si-walltime.out');
    const o = parsePwOutput(text);
    assert.equal(o.failure?.kind, 'time-limit');
    assert.equal(o.failure!.evidence, 'Maximum CPU time exceeded');
    evidenceHolds(o, text);
    const stopped = Number(/Calculation stopped in scf loop at iteration #\s*(\d+)/.exec(text)![1]);
    assert.equal(o.scfIterations, stopped);
    assert.ok(o.scfCycles[0]!.iterations.length > stopped, 'the cut-off iteration header is in the output but not counted');
    // QE 7.1, from QE's own test-suite (uspp-k-restart-1 stops at max_seconds on purpose).
    assert.equal(parsePwOutput(bench('pw_workflow_exx_nscf/uspp-k-restart-1.out')).failure?.kind, 'time-limit');
  });

  it('calls a relaxation whose first SCF failed a relaxation (from the nstep header), with the ionic step', () => {
    const text = run('si-relax-scf-unconverged.out');
    const o = parsePwOutput(text);
    assert.equal(o.calculation, 'relax');
    assert.equal(o.failure?.kind, 'relax-scf-not-converged');
    assert.match(o.failure!.detail, /ionic step 1/);
    evidenceHolds(o, text);
    assert.equal(parsePwOutput(run('al-unconverged.out')).failure?.kind, 'scf-not-converged');
  });

  it('names nstep as the reason a relaxation stopped unconverged', () => {
    const text = run('si-relax-nstep.out');
    const o = parsePwOutput(text);
    assert.equal(o.failure?.kind, 'steps-exhausted');
    assert.equal(o.relaxation?.converged, false);
    assert.equal(o.settings.nstep, 2);
    evidenceHolds(o, text);
  });

  it('reports a BFGS history failure though pw.x 6.7 prints "bfgs converged", and no message swallows the next line', () => {
    const text = run('si-bfgs-history.out');
    assert.match(text, /bfgs converged/);
    const o = parsePwOutput(text);
    assert.equal(o.failure?.kind, 'bfgs-failed');
    assert.equal(o.relaxation?.converged, false);
    assert.ok((o.relaxation?.historyResets ?? 0) >= 2);
    evidenceHolds(o, text);
    // "Energy error" follows the message directly: it is read, not taken into the warning.
    const errors = grep(text, /^\s+Energy error/);
    assert.deepEqual(
      o.ionicSteps.map((s) => s.energyErrorRy).filter((x) => x !== undefined),
      errors,
    );
    assert.equal(
      o.warningCounts['Message from routine bfgs: history already reset at previous step: stopping'],
      (text.match(/history already reset/g) ?? []).length,
    );
    // QE 7.x prints its own verdict.
    const seven = run('si-relax.out').replace(
      /bfgs converged in\s+(\d+) scf cycles and\s+(\d+) bfgs steps/,
      'bfgs failed after  $1 scf cycles and  $2 bfgs steps, convergence not achieved',
    );
    assert.equal(parsePwOutput(seven).failure?.kind, 'bfgs-failed');
  });

  it('judges the final SCF of a vc-relax against its thresholds, reading the target pressure from the enthalpy', () => {
    const text = run('si-vc-final.out');
    const o = parsePwOutput(text);
    assert.equal(o.relaxation?.converged, true);
    assert.equal(o.failure?.kind, 'final-scf-above-thresholds');
    assert.match(o.failure!.detail, /-6\.46 kbar against the target 0 kbar \(threshold 0\.2\)/);
    evidenceHolds(o, text);
    assert.equal(parsePwOutput(run('si-vc-relax.out')).failure, undefined);
    // press = 500 kbar in the input, read back from H - E = P V: the final 501.96 kbar is 1.96 off.
    assert.match(parsePwOutput(bench('pw_vc-relax/vc-relax4.out')).failure?.detail ?? '', /501\.96 kbar against the target 500 kbar/);
    assert.match(parsePwOutput(bench('pw_vc-relax/vc-relax4.out'), { pressKbar: 500 }).failure?.detail ?? '', /target 500 kbar/);
    // cell_dofree = 'z' converges only the zz stress: the pressure is compared with the last BFGS step's.
    assert.equal(parsePwOutput(bench('pw_vdw/vdW-DF3-opt1.out')).failure, undefined);
  });

  it('reads the error from the CRASH file when the output lacks it, in 6.x and 7.x forms', () => {
    const crash = run('al-missing-pseudo.CRASH');
    const o = parsePwOutput('', { crash });
    assert.equal(o.failure?.kind, 'pw-error');
    assert.equal(o.failure!.source, 'crash');
    assert.equal(o.failure!.evidence, 'from readpp : error #         1');
    assert.equal(o.error?.routine, 'readpp');
    assert.match(o.error!.message, /Al\.no-such-file\.UPF not found/);
    const cut = run('al-fcc-scf.out').split('\n').slice(0, 40).join('\n');
    assert.equal(parsePwOutput(cut, { crash }).error?.routine, 'readpp');
    // A finished run owns no CRASH file (pw.x deletes it when it starts): one lying there is stale.
    assert.equal(parsePwOutput(run('al-fcc-scf.out'), { crash }).failure, undefined);
    const seven = ` %${'%'.repeat(77)}\n     task #         0\n     Error in routine  cdiaghg (668):\n      problems computing cholesky\n %${'%'.repeat(77)}\n`;
    assert.deepEqual(parsePwOutput('', { crash: seven }).error, { routine: 'cdiaghg', code: 668, message: 'problems computing cholesky' });
    const gpar = parsePwOutput('', { crash: '  probably because G_par is NOT a reciprocal lattice vector\n' });
    assert.equal(gpar.failure?.kind, 'pw-error');
    assert.match(gpar.error!.message, /G_par/);
  });

  it('reads the CRASH file beside an output file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-crash-'));
    try {
      fs.writeFileSync(path.join(dir, 'pw.out'), run('al-fcc-scf.out').split('\n').slice(0, 30).join('\n'));
      assert.equal(readPwOutputFile(path.join(dir, 'pw.out')).failure?.kind, 'interrupted');
      fs.writeFileSync(path.join(dir, 'CRASH'), run('al-missing-pseudo.CRASH'));
      const o = readPwOutputFile(path.join(dir, 'pw.out'));
      assert.equal(o.failure?.kind, 'pw-error');
      assert.equal(o.failure?.source, 'crash');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a failure line printed outside the %%%% block as an error', () => {
    const text = `${run('al-fcc-scf.out').split('\n').slice(0, 120).join('\n')}\n [Q, R] = qr(X, 0) failed\n`;
    const o = parsePwOutput(text);
    assert.equal(o.failure?.kind, 'pw-error');
    assert.equal(o.failure!.evidence, '[Q, R] = qr(X, 0) failed');
    evidenceHolds(o, text);
  });

  it('calls an output that stops mid-run with no error interrupted, with its last line', () => {
    const text = run('al-fcc-scf.out').split('\n').slice(0, 150).join('\n');
    const o = parsePwOutput(text);
    assert.equal(o.failure?.kind, 'interrupted');
    evidenceHolds(o, text);
    assert.equal(o.failure!.line, text.trimEnd().split('\n').length);
  });

  it('gives every fixture output a kind from the closed set, or none when the run ended as asked, with evidence that is in the text', () => {
    const kinds: Record<string, string> = {};
    for (const f of fixtureOutputs()) {
      const text = fs.readFileSync(f, 'utf8');
      const o = parsePwOutput(text);
      kinds[path.relative(FIXTURES, f)] = o.failure?.kind ?? 'none';
      if (o.failure) evidenceHolds(o, text);
      if (o.jobDone && !o.failure) assert.ok(o.scfConverged || o.calculation === 'bands' || o.calculation === 'nscf', f);
    }
    assert.equal(kinds['runs/al-fcc-scf.out'], 'none');
    assert.equal(kinds['runs/al-missing-pseudo.out'], 'pw-error');
    assert.equal(kinds['runs/si-relax.out'], 'none');
  });
});

describe('pw.x output: lines QE 7.x prints', () => {
  it('reports the Makov-Payne corrected energy apart from the uncorrected one', () => {
    const text = bench('pw_cluster/cluster5.out');
    const o = parsePwOutput(text);
    assert.equal(o.totalEnergyRy, -32.60541262);
    assert.equal(o.totalEnergyMakovPayneRy, -32.34486413);
    assert.equal(o.energyTermsRy?.oneCenterPaw, -8.31798268);
  });

  it('reads the padded "energy new" and "enthalpy new" of 7.x BFGS, live and in the steps', () => {
    const text = bench('pw_twochem/relax_twochem.out');
    const live = new PwProgressParser();
    const steps = live.push(text).filter((e) => e.type === 'bfgs-step');
    assert.deepEqual(
      steps.map((e) => (e as { energyRy?: number }).energyRy),
      grep(text, /^\s+energy\s+new\s+=/),
    );
    const vc = bench('pw_twochem/vc-relax_twochem.out');
    const o = parsePwOutput(vc);
    assert.deepEqual(
      o.ionicSteps.map((s) => s.enthalpyRy).filter((x) => x !== undefined),
      grep(vc, /^\s+enthalpy\s+new\s+=/),
    );
    assert.deepEqual(
      o.ionicSteps.map((s) => s.gradientErrorRyPerBohr).filter((x) => x !== undefined).length,
      grep(vc, /^\s+Gradient error/).length,
    );
    assert.ok(o.ionicSteps.some((s) => s.cellGradientErrorKbar !== undefined));
  });

  it('marks the final SCF at the relaxed structure, in 6.7 and 7.x', () => {
    for (const [o, name] of [
      [parsePwOutput(bench('pw_twochem/vc-relax_twochem.out')), '7.1'],
      [parsePwOutput(run('si-vc-relax.out')), '6.7'],
    ] as const) {
      const i = o.relaxation?.finalScfCycle;
      assert.equal(i, o.scfCycles.length - 1, name);
      assert.equal(o.scfCycles[i!]!.final, true, name);
      assert.ok(
        o.scfCycles.slice(0, -1).every((c) => !c.final),
        name,
      );
    }
  });

  it('reads the DFT+U energy and occupations (7.x HUBBARD OCCUPATIONS, 6.x write_ns) and the per-site moments (both forms)', () => {
    const seven = bench('pw_lda+U/lda+U_background_one_channel.out');
    const o = parsePwOutput(seven);
    assert.equal(o.energyTermsRy?.hubbard, grep(seven, /^\s+Hubbard energy/).pop());
    const traces = seven.split('\n').filter((l) => /^\s+Tr\[ns\(/.test(l));
    assert.ok(o.hubbardOccupations!.length > 0);
    const lastTotals = traces.slice(-o.hubbardOccupations!.length).map((l) => Number(l.trim().split(/\s+/).pop()));
    assert.deepEqual(
      o.hubbardOccupations!.map((h) => h.total),
      lastTotals,
    );
    assert.deepEqual(
      o.siteMoments?.map((m) => m.magnetization),
      seven
        .split('\n')
        .filter((l) => /^\s+atom\s+\d+ \(R=/.test(l))
        .slice(-4)
        .map((l) => Number(/magn=\s*(\S+)/.exec(l)![1])),
    );
    const six = bench('pw_lda+U/lda+U.out');
    const p = parsePwOutput(six);
    assert.equal(p.codeVersion, '6.1');
    assert.deepEqual(
      p.hubbardOccupations?.map((h) => [h.atom, h.total]),
      [
        [3, 6.83603],
        [4, 6.83707],
      ],
    );
    assert.deepEqual(p.siteMoments?.map((m) => [m.atom, m.magnetization, m.constraint]).slice(-2), [
      [3, 3.3448, 0],
      [4, -3.3441, 0],
    ]);
  });

  it('reads the energy terms', () => {
    const text = run('al-fcc-scf.out');
    const t = parsePwOutput(text).energyTermsRy!;
    assert.deepEqual(
      [t.oneElectron, t.hartree, t.xc, t.ewald],
      [/one-electron/, /hartree contribution/, /xc contribution/, /ewald contribution/].map((re) => grep(text, re).pop()),
    );
  });

  it('keeps back-to-back "Message from routine" lines apart', () => {
    const text = `${run('al-fcc-scf.out')}\n     Message from routine setup:\n     using ibrav=0 with symmetry is DISCOURAGED, use correct ibrav instead\n     Message from routine iosys:\n     WARNING: "startingwfc" set to atomic may spoil restart\n`;
    const o = parsePwOutput(text);
    assert.ok(
      o.warnings.includes('Message from routine setup: using ibrav=0 with symmetry is DISCOURAGED, use correct ibrav instead'),
      o.warnings.join(' | '),
    );
    assert.ok(
      o.warnings.includes('Message from routine iosys: WARNING: "startingwfc" set to atomic may spoil restart'),
      o.warnings.join(' | '),
    );
  });
});
