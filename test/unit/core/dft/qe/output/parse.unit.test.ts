// Outputs in test/fixtures/qe/runs/ are real pw.x 6.7 runs of the inputs beside them
// (regenerate with test/fixtures/qe/runs/make-outputs.sh).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parsePwOutput, PwProgressParser, parseQeDuration, type PwProgressEvent } from '../../../../../../src/core/dft/qe/output';
import { RY_IN_EV, BOHR_IN_ANGSTROM } from '../../../../../../src/core/units';
import { FIXTURES } from '../fixtures';

const run = (name: string) => fs.readFileSync(path.join(FIXTURES, 'runs', name), 'utf8');
const det = (m: number[][]) =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
  m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
  m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
/** Every number on the lines that start with `prefix` (an independent reading for cross-checks). */
const grepNumbers = (text: string, prefix: RegExp) =>
  text
    .split('\n')
    .filter((l) => prefix.test(l))
    .map((l) => Number(/(-?\d+\.\d+)/.exec(l)![1]));

describe('pw.x output parser', () => {
  it('reads an SCF run: energy, iterations, Fermi level, forces, stress, timing, version, pseudopotentials', () => {
    const text = run('al-fcc-scf.out');
    const o = parsePwOutput(text);
    assert.equal(o.codeVersion, '6.7MaX');
    assert.equal(o.calculation, 'scf');
    assert.equal(o.scfConverged, true);
    assert.equal(o.jobDone, true);
    assert.equal(o.totalEnergyRy, -4.19212889);
    assert.equal(o.totalEnergyEv, -4.19212889 * RY_IN_EV);
    assert.equal(o.scfIterations, 4);
    assert.deepEqual(
      o.scfCycles[0]!.iterations.map((i) => i.totalEnergyRy),
      [-4.19212766, -4.19212585, -4.19212887, undefined],
    );
    assert.deepEqual(
      o.scfCycles[0]!.iterations.map((i) => i.estimatedAccuracyRy),
      [0.00557582, 0.00042612, 0.00000033, undefined],
    );
    assert.equal(o.scfCycles[0]!.estimatedAccuracyRy, 4.0e-9);
    assert.equal(o.fermiEnergyEv, 8.6933);
    assert.equal(o.internalEnergyRy, -4.19154267);
    assert.deepEqual(o.forcesRyPerBohr, [[0, 0, 0]]);
    assert.equal(o.pressureKbar, -11.98);
    assert.deepEqual(o.stressKbar, [
      [-11.98, 0, 0],
      [0, -11.98, 0],
      [0, 0, -11.98],
    ]);
    assert.equal(o.wallTimeSeconds, 0.18);
    assert.equal(o.cpuTimeSeconds, 0.05);
    assert.deepEqual(o.pseudopotentials, { Al: 'Al.pz-vbc.UPF' });
    assert.equal(o.pseudopotentialsUsed[0]!.md5, '69dcd8cd7cc1bedf536afd524f174f6a');
    assert.equal(o.pseudopotentialsUsed[0]!.kind, 'Norm-conserving');
    assert.equal(o.settings.ecutwfcRy, 15);
    assert.equal(o.settings.ecutrhoRy, 60);
    assert.equal(o.settings.kPoints, 16);
    assert.deepEqual(o.warnings, []);
    assert.equal(o.error, undefined);
    // the cell from alat and the crystal axes: fcc with a = 7.5 bohr has V = a^3/4
    assert.ok(Math.abs(Math.abs(det(o.ionicSteps[0]!.cellAngstrom)) / BOHR_IN_ANGSTROM ** 3 - 105.4688) < 1e-3);
  });

  it('reads a relaxation: every BFGS geometry with its energy and forces, and the final state', () => {
    const text = run('si-relax.out');
    const o = parsePwOutput(text);
    assert.equal(o.calculation, 'relax');
    assert.deepEqual(o.relaxation, {
      converged: true,
      scfCycles: 7,
      bfgsSteps: 6,
      finalEnergyRy: -15.7367090803,
      criteria: { energyRy: 1e-4, forceRyPerBohr: 1e-3 },
    });
    const bang = grepNumbers(text, /^!/);
    assert.equal(o.ionicSteps.length, bang.length);
    assert.deepEqual(
      o.ionicSteps.map((s) => s.energyRy),
      bang,
    );
    assert.equal(o.totalEnergyRy, bang[bang.length - 1]);
    const alat = 10.26 * BOHR_IN_ANGSTROM;
    // first geometry = the input (alat units), last = "Begin final coordinates"
    const first = o.ionicSteps[0]!.positionsAngstrom[1]!;
    [0.27, 0.25, 0.23].forEach((x, k) => assert.ok(Math.abs(first[k]! - x * alat) < 1e-6));
    const last = o.ionicSteps[o.ionicSteps.length - 1]!.positionsAngstrom[1]!;
    [0.2499872064, 0.2499993825, 0.2500127936].forEach((x, k) => assert.ok(Math.abs(last[k]! - x * alat) < 1e-9));
    assert.ok(o.ionicSteps.every((s) => s.forcesRyPerBohr?.length === 2 && s.totalForceRyPerBohr !== undefined));
    assert.deepEqual(
      o.ionicSteps.map((s) => s.totalForceRyPerBohr),
      grepNumbers(text, /^\s+Total force/),
    );
  });

  it('reads a variable-cell relaxation: cells, enthalpies, stresses and the final SCF', () => {
    const text = run('si-vc-relax.out');
    const o = parsePwOutput(text);
    assert.equal(o.calculation, 'vc-relax');
    assert.equal(o.relaxation!.finalEnthalpyRy, -15.6953375469);
    assert.equal(o.ionicSteps.length, 8); // 7 BFGS geometries and the final SCF
    const volumes = o.ionicSteps.map((s) => Math.abs(det(s.cellAngstrom)) / BOHR_IN_ANGSTROM ** 3);
    // pw.x prints each new volume; the parser's cells (converted to Å) must give them back
    const printed = grepNumbers(text, /new unit-cell volume/);
    printed.slice(0, 6).forEach((v, k) => assert.ok(Math.abs(volumes[k + 1]! - v) < 1e-3, `step ${k + 1}: ${volumes[k + 1]} vs ${v}`));
    assert.deepEqual(
      o.ionicSteps.slice(0, 6).map((s) => s.enthalpyRy),
      grepNumbers(text, /enthalpy new/),
    );
    assert.deepEqual(
      o.ionicSteps.map((s) => s.pressureKbar),
      grepNumbers(text, /P=/).map((_, k) => Number(/P=\s*(-?[\d.]+)/.exec(text.split('\n').filter((l) => /P=/.test(l))[k]!)![1])),
    );
    assert.equal(o.pressureKbar, -0.09);
    assert.deepEqual(o.stressKbar![0], [-0.45, -0.02, 0.37]);
    assert.equal(o.pseudopotentialsUsed.length, 1);
    assert.deepEqual(o.warnings, ['Message from routine setup: using ibrav=0 with symmetry is DISCOURAGED, use correct ibrav instead']);
  });

  it('reads magnetization per iteration and at convergence', () => {
    const o = parsePwOutput(run('fe-bcc-magnetic.out'));
    assert.equal(o.totalMagnetization, 2.25);
    assert.equal(o.absoluteMagnetization, 2.37);
    assert.equal(o.scfCycles[0]!.iterations[0]!.totalMagnetization, 2.47);
    assert.equal(o.scfCycles[0]!.iterations[2]!.absoluteMagnetization, 2.55);
    assert.equal(o.pseudopotentialsUsed[0]!.kind, 'Ultrasoft + core correction');
    assert.equal(o.pseudopotentialsUsed[0]!.zValence, 8);
    assert.equal(o.fermiEnergyEv, 12.5933);
  });

  it('reads verbose outputs: total forces (not their contributions), total stress, the crystal-coordinates copy of the sites', () => {
    const si = parsePwOutput(run('si-forces-verbose.out'));
    assert.deepEqual(si.forcesRyPerBohr, [
      [0.05764626, 0.01618045, -0.05764626],
      [-0.05764626, -0.01618045, 0.05764626],
    ]);
    assert.equal(si.ionicSteps.length, 1);
    const alat = 10.26 * BOHR_IN_ANGSTROM;
    [0.27, 0.25, 0.23].forEach((x, k) => assert.ok(Math.abs(si.ionicSteps[0]!.positionsAngstrom[1]![k]! - x * alat) < 1e-6));
    const fe = parsePwOutput(run('fe-bcc-verbose.out'));
    assert.equal(fe.ionicSteps.length, 1);
    assert.deepEqual(fe.stressKbar, [
      [-215.18, 0, 0],
      [0, -215.18, 0],
      [0, 0, -215.18],
    ]);
    assert.equal(fe.totalMagnetization, 2.25);
  });

  it('reads the %%%% error block: routine, code and message', () => {
    const o = parsePwOutput(run('al-missing-pseudo.out'));
    assert.deepEqual(o.error, { routine: 'readpp', code: 1, message: 'file /usr/share/espresso/pseudo/Al.no-such-file.UPF not found' });
    assert.equal(o.jobDone, false);
    assert.equal(o.scfConverged, false);
    assert.equal(o.totalEnergyRy, undefined);
  });

  it('reports an SCF that stopped unconverged', () => {
    const o = parsePwOutput(run('al-unconverged.out'));
    assert.equal(o.scfConverged, false);
    assert.equal(o.scfIterations, 3);
    assert.equal(o.totalEnergyRy, undefined);
    assert.ok(o.warnings.some((w) => /convergence NOT achieved after\s+3 iterations/.test(w)));
  });

  it('reads the 2,000 BEEF ensemble energies (deviations, Ry -> eV) and is not fooled by the vdW-DF banner', () => {
    const text = run('si-beef-ensemble.out');
    const o = parsePwOutput(text);
    assert.equal(o.calculation, 'ensemble');
    assert.equal(o.error, undefined);
    assert.equal(o.beefEnsembleEv!.length, 2000);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('BEEFens'));
    assert.equal(o.beefEnsembleEv![0], Number(lines[at + 1]!.trim()) * RY_IN_EV);
    assert.equal(o.beefEnsembleEv![1999], Number(lines[at + 2000]!.trim()) * RY_IN_EV);
    assert.equal(o.totalEnergyRy, -15.73205869);
  });

  it('reads the lines pw.x 7.x prints and 6.7 does not (memory reports, DFT+U summary, PAW kind, 7.x header)', () => {
    // No pw.x 7.x can be installed here (Debian ships 6.7 only), so this excerpt is composed in the
    // layout pw.x 7.2 prints; its numbers are placeholders that only check what is read where.
    const text = [
      '     Program PWSCF v.7.2 starts on  1Jan2026 at 10: 0: 0 ',
      '     Parallel version (MPI), running on     4 processors',
      '     1000 MiB available memory on the printing compute node when the environment starts',
      '     bravais-lattice index     =            2',
      '     lattice parameter (alat)  =      10.0000  a.u.',
      '     Hubbard projectors: ortho-atomic',
      '     U(Co-3d) =  5.0000',
      '     crystal axes: (cart. coord. in units of alat)',
      '               a(1) = (  -0.500000   0.000000   0.500000 )  ',
      '               a(2) = (   0.000000   0.500000   0.500000 )  ',
      '               a(3) = (  -0.500000   0.500000   0.000000 )  ',
      '     PseudoPot. # 1 for O  read from file:',
      '     ./pseudo/O.pbe-n-kjpaw_psl.0.1.UPF',
      '     MD5 check sum: 0123456789abcdef0123456789abcdef',
      '     Pseudo is Projector augmented-wave + core cor, Zval =  6.0',
      '     site n.     atom                  positions (alat units)',
      '         1           O   tau(   1) = (   0.0000000   0.0000000   0.0000000  )',
      '',
      '   Crystallographic axes',
      '     site n.     atom                  positions (cryst. coord.)',
      '         1           O   tau(   1) = (  0.0000000  0.0000000  0.0000000  )',
      '',
      '     Self-consistent Calculation',
      '     iteration #  1     ecut=    30.00 Ry     beta= 0.40',
      '---- Real-time Memory Report at c_bands before calling an iterative solver',
      '           117 MiB given to the printing process from OS',
      '------------------',
      '     HUBBARD ENERGY =    0.3519  (Ry)',
      '     total energy              =     -10.00000000 Ry',
      '     estimated scf accuracy    <       0.10000000 Ry',
      '     End of self-consistent calculation',
      '!    total energy              =     -10.50000000 Ry',
      '     Hubbard energy            =       0.17262593 Ry',
      '     convergence has been achieved in   1 iterations',
      '     Writing all to output data dir ./out/x.save/',
      '     PWSCF        :   1m40.00s CPU   1m50.50s WALL',
      '   JOB DONE.',
    ].join('\n');
    const o = parsePwOutput(text);
    assert.equal(o.codeVersion, '7.2');
    assert.equal(o.settings.mpiProcesses, 4);
    assert.equal(o.totalEnergyRy, -10.5);
    assert.equal(o.scfIterations, 1);
    assert.deepEqual(
      o.scfCycles[0]!.iterations.map((i) => [i.totalEnergyRy, i.estimatedAccuracyRy]),
      [[-10, 0.1]],
    );
    assert.equal(o.pseudopotentialsUsed[0]!.kind, 'Projector augmented-wave + core cor');
    assert.equal(o.ionicSteps.length, 1);
    assert.equal(o.cpuTimeSeconds, 100);
    assert.equal(o.wallTimeSeconds, 110.5);
    assert.deepEqual(o.warnings, []);
    assert.equal(o.jobDone, true);
  });

  it('reads QE durations in all the forms its clocks print', () => {
    assert.equal(parseQeDuration('0.18s'), 0.18);
    assert.equal(parseQeDuration(' 1m23.45s'), 83.45);
    assert.equal(parseQeDuration(' 2h15m'), 8100);
    assert.equal(parseQeDuration('1d 3h 5m'), 97500);
    assert.equal(parseQeDuration('CPU'), undefined);
  });

  it('follows a run live from streamed chunks and ends with the same result as the batch parser', () => {
    const text = run('si-relax.out');
    const live = new PwProgressParser();
    const events: PwProgressEvent[] = [];
    for (let i = 0; i < text.length; i += 137) events.push(...live.push(text.slice(i, i + 137)));
    const iterations = events.filter((e) => e.type === 'scf-iteration');
    const accuracyLines = text.split('\n').filter((l) => /estimated scf accuracy/.test(l)).length;
    const scfRuns = text.split('\n').filter((l) => /^!/.test(l)).length;
    assert.equal(iterations.length, accuracyLines - scfRuns); // the converged SCF's own accuracy line is not an iteration
    assert.deepEqual(
      events.filter((e) => e.type === 'scf-end').map((e) => e.type === 'scf-end' && e.totalEnergyRy),
      grepNumbers(text, /^!/),
    );
    const bfgs = events.filter((e) => e.type === 'bfgs-step');
    assert.deepEqual(
      bfgs.map((e) => e.type === 'bfgs-step' && e.step),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      bfgs.map((e) => e.type === 'bfgs-step' && e.energyRy),
      grepNumbers(text, /energy\s+new/),
    );
    assert.equal(events[events.length - 1]!.type, 'job-done');
    assert.equal(live.progress.jobDone, true);
    assert.deepEqual(live.end(), parsePwOutput(text));
  });

  it('reports a failure as it streams', () => {
    const live = new PwProgressParser();
    const events = live.push(run('al-missing-pseudo.out'));
    assert.deepEqual(events, [
      { type: 'error', routine: 'readpp', code: 1, message: 'file /usr/share/espresso/pseudo/Al.no-such-file.UPF not found' },
    ]);
    assert.equal(live.progress.error?.routine, 'readpp');
  });

  it('gives the same events whatever the chunk boundaries', () => {
    const text = run('fe-bcc-magnetic.out');
    const whole = new PwProgressParser().push(text);
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 40 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const p = new PwProgressParser();
        const ev: PwProgressEvent[] = [];
        let at = 0;
        for (const c of [...points, text.length]) {
          ev.push(...p.push(text.slice(at, c)));
          at = c;
        }
        assert.deepEqual(ev, whole);
      }),
      { numRuns: 50 },
    );
  });
});
