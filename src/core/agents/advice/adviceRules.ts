/**
 * The advisor's rule table: a failed pw.x run's symptom → parameter changes, after the
 * table of suggestions in the DREAMS convergence advisor (mixing_beta, mixing_mode,
 * electron_maxstep, degauss, diagonalization, starting magnetization, cutoffs, job
 * resources). Deterministic, so offline runs get the same advice every time.
 */
import { MAGNETIC_ELEMENTS } from '../../workflows/latticeConstantInputs';
import { UNWATCHED_EXIT } from '../../hpc/types';
import type { Suggestion } from './accuracyCheck';
import { PW_DEFAULTS, type FailureEvidence } from './failureEvidence';
import { diagnoseFromOutput, outputFailureSuggestions } from './outputFailure';

export type FailureKind =
  | 'missing-starting-magnetization'
  | 'scf-not-converged'
  | 'bands-not-converged'
  | 'overlap-matrix'
  | 'charge-wrong'
  | 'no-smearing'
  | 'scheduler-limit'
  | 'walltime'
  /** The relaxation ran out of ionic steps (nstep) or BFGS gave up (the parsed output says which). */
  | 'relaxation-not-converged'
  /** The geometry converged, the final SCF at the relaxed structure did not meet the thresholds. */
  | 'final-scf-above-thresholds'
  | 'memory'
  | 'killed'
  | 'unknown';

export interface Diagnosis {
  kind: FailureKind;
  /** One sentence: what went wrong, with the numbers that show it. */
  finding: string;
}

const round = (x: number, d = 2) => Number(x.toFixed(d));

/** Net progress per SCF iteration (decades of estimated accuracy) below which a history with frequent rises is sloshing. */
export const SLOSHING_DECADES_PER_ITERATION = 0.25;

/**
 * Charge sloshing rather than slow progress: after its highest value (the first iterations of a
 * slab SCF often climb while the density settles), the estimated accuracy rose in more than a third
 * of the steps *and* made less than SLOSHING_DECADES_PER_ITERATION of net progress per step. A
 * history that rises now and then but falls seven decades in fifteen iterations (a healthy slab
 * SCF) is not sloshing.
 */
export function oscillates(accuracies: number[]): boolean {
  const acc = accuracies.filter((a) => a > 0 && Number.isFinite(a));
  if (acc.length < 4) return false;
  const peak = acc.indexOf(Math.max(...acc));
  const after = acc.slice(peak);
  const steps = after.length - 1;
  if (steps < 3) return false;
  let ups = 0;
  for (let i = 1; i < after.length; i++) if (after[i]! > after[i - 1]!) ups++;
  const decadesPerStep = Math.log10(after[0]! / after.at(-1)!) / steps;
  return ups / steps > 1 / 3 && decadesPerStep < SLOSHING_DECADES_PER_ITERATION;
}

/** The remote runner's words for a job the scheduler would never start (remoteRunner.withdraw), with SLURM's reason. */
const NEVER_STARTED = /will not start this job as it was asked for \(([A-Za-z]+)/;
/** c_bands warnings below this count are the usual early-SCF noise, not a Davidson failure. */
export const C_BANDS_WARNINGS_FOR_CG = 3;

export function diagnose(ev: FailureEvidence): Diagnosis {
  const text = `${ev.errorText}\n${(ev.output?.warnings ?? []).join('\n')}`;
  // A job stopped from outside (a signal, the scheduler, DREAMS itself stopping) while pw.x had
  // printed no error is an interruption, whatever the last lines of its output say: a kill that
  // lands just after pw.x printed "negative rho" at a new geometry is not a cutoff problem.
  const stopped = ev.output?.error ? undefined : stoppedFromOutside(ev, text);
  if (stopped) return stopped;
  if (/starting_magnetization MUST be set/i.test(text)) {
    return {
      kind: 'missing-starting-magnetization',
      finding: 'pw.x stopped: a spin-polarized run (nspin = 2) needs a starting magnetization on some species.',
    };
  }
  if (/smearing requires|system is metallic|specify occupations/i.test(text)) {
    return { kind: 'no-smearing', finding: 'pw.x needs smeared occupations (with a width) for this metallic system.' };
  }
  if (/S matrix not positive definite|problems computing cholesky|[cr]diaghg/i.test(text)) {
    return { kind: 'overlap-matrix', finding: 'the Davidson diagonalization failed (overlap matrix not positive definite).' };
  }
  if (/too many bands are not converged/i.test(text)) {
    return { kind: 'bands-not-converged', finding: 'too many bands did not converge in the diagonalization.' };
  }
  if (/charge is wrong|negative rho|negative starting charge/i.test(text)) {
    return {
      kind: 'charge-wrong',
      finding:
        'the charge density is inaccurate (wrong total charge or negative density): the density cutoff is too low for this pseudopotential.',
    };
  }
  const outside = stoppedFromOutside(ev, text);
  if (outside) return outside;
  // The output parser's failure kind tells the time limit from an unconverged SCF and sees
  // relaxations that stopped without an error (dft/qe/output/failure.ts).
  const fromOutput = diagnoseFromOutput(ev);
  if (fromOutput) return fromOutput;
  const cycle = ev.output?.scfCycles.at(-1);
  if (
    /convergence NOT achieved/i.test(text) ||
    (cycle && !cycle.converged) ||
    (ev.output && !ev.output.scfConverged && ev.output.jobDone)
  ) {
    const acc = (cycle?.iterations ?? []).map((i) => i.estimatedAccuracyRy).filter((a): a is number => a !== undefined);
    const n = cycle?.iterationCount ?? cycle?.iterations.length;
    const last = acc.at(-1);
    return {
      kind: 'scf-not-converged',
      finding:
        `the SCF did not converge${n ? ` in ${n} iterations` : ''}${last !== undefined ? ` (estimated accuracy ${last.toExponential(1)} Ry at the end, threshold ${ev.input.convThrRy ?? PW_DEFAULTS.convThrRy} Ry)` : ''}` +
        `${acc.length >= 4 ? (oscillates(acc) ? '; the accuracy oscillates (charge sloshing)' : '; the accuracy decreases steadily but too slowly') : ''}.`,
    };
  }
  return {
    kind: 'unknown',
    finding: ev.errorText
      ? `pw.x or the job failed: ${ev.errorText.split('\n')[0]}`
      : 'the run failed without an error the advisor recognises.',
  };
}

/** The table: suggestions for a diagnosis, each with the value now and the value proposed. */
export function ruleSuggestions(ev: FailureEvidence, d: Diagnosis): Suggestion[] {
  const s = ev.input;
  const beta = s.mixingBeta ?? PW_DEFAULTS.mixingBeta;
  const maxstep = s.electronMaxstep ?? PW_DEFAULTS.electronMaxstep;
  const diag = s.diagonalization ?? PW_DEFAULTS.diagonalization;
  const out: Suggestion[] = [];
  switch (d.kind) {
    case 'missing-starting-magnetization': {
      const magnetic = s.elements.filter((el) => MAGNETIC_ELEMENTS.has(el));
      if (magnetic.length) {
        for (const el of magnetic)
          out.push({
            parameter: `starting_magnetization(${el})`,
            currentValue: s.startingMagnetization[el] ?? 0,
            newValue: 0.5,
            reason: `${el} is magnetic: start from a moment so the SCF can find the magnetic ground state`,
          });
      } else {
        out.push({
          parameter: 'nspin',
          currentValue: s.nspin ?? 2,
          newValue: 1,
          reason: `${s.elements.join(', ')} ${s.elements.length === 1 ? 'is' : 'are'} not magnetic: a spin-polarized run gains nothing`,
        });
      }
      break;
    }
    case 'no-smearing':
      out.push({
        parameter: 'occupations',
        currentValue: s.occupations ?? 'fixed',
        newValue: 'smearing',
        reason: 'a metal needs smeared occupations',
      });
      out.push({
        parameter: 'smearing',
        currentValue: s.smearing,
        newValue: 'mv',
        reason: 'Marzari–Vanderbilt cold smearing keeps the energy close to the zero-width limit',
      });
      out.push({
        parameter: 'degauss',
        currentValue: s.degaussRy,
        newValue: 0.02,
        reason: 'a width of 0.02 Ry is usual for metals with cold smearing',
      });
      break;
    case 'overlap-matrix':
    case 'bands-not-converged':
      if (diag !== 'cg')
        out.push({
          parameter: 'diagonalization',
          currentValue: diag,
          newValue: 'cg',
          reason: 'conjugate-gradient diagonalization is slower but robust where Davidson fails',
        });
      break;
    case 'charge-wrong':
      if (s.ecutrhoRy !== undefined)
        out.push({
          parameter: 'ecutrho',
          currentValue: s.ecutrhoRy,
          newValue: round(s.ecutrhoRy * 1.5, 1),
          reason: 'a higher density cutoff represents the augmentation charge of ultrasoft/PAW pseudopotentials',
        });
      break;
    case 'scheduler-limit': {
      const reason = NEVER_STARTED.exec(ev.errorText ?? '')?.[1] ?? '';
      if (/Time|Wall/.test(reason))
        out.push({
          parameter: 'resources.walltimeMinutes',
          newValue: "at most the partition's (or QOS's) time limit",
          reason: `${reason}: the walltime asked for is above what the cluster allows one job`,
        });
      else if (/Node|Cpu|Config|Constraints|Mem|GRES/.test(reason))
        out.push({
          parameter: 'resources',
          newValue: 'fewer nodes, tasks or memory, within the partition',
          reason: `${reason}: the job asks for more than the cluster allows one job`,
        });
      else
        out.push({
          parameter: 'cluster profile',
          newValue: 'a valid account, QOS and partition',
          reason: `${reason}: the job's account, QOS or partition is not accepted`,
        });
      break;
    }
    case 'relaxation-not-converged':
    case 'final-scf-above-thresholds':
      out.push(...outputFailureSuggestions(ev, d.kind));
      break;
    case 'walltime':
      out.push({
        parameter: 'resources.walltimeMinutes',
        newValue: 'twice the previous allowance',
        reason: 'the run needs more time; the other settings were fine',
      });
      break;
    case 'memory':
      out.push({
        parameter: 'resources.nodes',
        newValue: 'one more node (or more tasks)',
        reason: 'spreading the run over more processes divides the memory per process',
      });
      break;
    case 'scf-not-converged': {
      const acc = (ev.output?.scfCycles.at(-1)?.iterations ?? [])
        .map((i) => i.estimatedAccuracyRy)
        .filter((a): a is number => a !== undefined);
      if (oscillates(acc) || acc.length < 4) {
        out.push({
          parameter: 'mixing_beta',
          currentValue: beta,
          newValue: round(Math.max(0.1, beta / 2)),
          reason: 'a smaller mixing step damps charge sloshing',
        });
        if (s.hasVacuum && s.mixingMode !== 'local-TF')
          out.push({
            parameter: 'mixing_mode',
            currentValue: s.mixingMode ?? PW_DEFAULTS.mixingMode,
            newValue: 'local-TF',
            reason: 'local Thomas–Fermi mixing suits inhomogeneous systems (slabs, surfaces)',
          });
      } else if (beta < 0.2) {
        out.push({
          parameter: 'mixing_beta',
          currentValue: beta,
          newValue: 0.3,
          reason: 'the SCF converges steadily but the mixing step is small: a larger one gets there in fewer iterations',
        });
      }
      out.push({ parameter: 'electron_maxstep', currentValue: maxstep, newValue: maxstep * 2, reason: 'allow more SCF iterations' });
      const metallic = s.occupations === 'smearing';
      if (metallic && s.degaussRy !== undefined && s.degaussRy < 0.01) {
        out.push({
          parameter: 'degauss',
          currentValue: s.degaussRy,
          newValue: 0.01,
          reason: 'a very narrow smearing makes the occupations of a metal flip between iterations',
        });
      }
      const cBands = Object.entries(ev.output?.warningCounts ?? {})
        .filter(([w]) => w.startsWith('c_bands'))
        .reduce((n, [, c]) => n + c, 0);
      if (diag === 'david' && cBands >= C_BANDS_WARNINGS_FOR_CG) {
        out.push({
          parameter: 'diagonalization',
          currentValue: diag,
          newValue: 'cg',
          reason: `eigenvalues did not converge in Davidson (${cBands} c_bands warnings)`,
        });
      }
      break;
    }
    case 'killed':
    case 'unknown':
      break;
  }
  return out;
}

/** The scheduler, the wall clock, memory, a signal or an unwatched exit ended the job: not the input's physics. */
function stoppedFromOutside(ev: FailureEvidence, text: string): Diagnosis | undefined {
  const refused = NEVER_STARTED.exec(text);
  if (refused) {
    return {
      kind: 'scheduler-limit',
      finding: `the scheduler would never start the job (${refused[1]}): its request is beyond a limit of the partition, QOS or account. pw.x never ran; the input is not at fault.`,
    };
  }
  if (/TIMEOUT|time limit|DUE TO TIME LIMIT|walltime/i.test(text) || ev.jobState === 'timeout') {
    return { kind: 'walltime', finding: 'the job ran out of its wall-time allowance before pw.x finished.' };
  }
  if (/out of memory|oom-kill|cannot allocate|allocation failed/i.test(text)) {
    return { kind: 'memory', finding: 'the job ran out of memory.' };
  }
  if (!ev.output?.error && text.includes(UNWATCHED_EXIT) && !/convergence NOT achieved/i.test(text)) {
    // DREAMS was stopped (or crashed) with the job running: the output ends mid-run with no
    // error from pw.x. Its SCF did not fail; it was cut short, so it is repeated as it was.
    const cycle = ev.output?.scfCycles.at(-1);
    const n = cycle?.iterationCount ?? cycle?.iterations.length;
    const at = n ? ` at SCF iteration ${n} of at most ${ev.input.electronMaxstep ?? PW_DEFAULTS.electronMaxstep}` : '';
    return {
      kind: 'killed',
      finding: `pw.x ended while no DREAMS process was watching it${at}, with no error from pw.x and no "convergence NOT achieved": the run was interrupted, not failed, so it can be repeated unchanged.`,
    };
  }
  if (!ev.output?.error && (ev.jobState === 'cancelled' || /\bcancell?ed\b/i.test(ev.errorText))) {
    // Cancelled (scancel on the cluster, DREAMS or the user stopping it): the SCF was cut short
    // wherever it stood, so its last iteration says nothing about how it converges.
    const why = ev.errorText
      .split('\n')
      .find((l) => /cancel/i.test(l))
      ?.trim();
    return {
      kind: 'killed',
      finding: `the job was cancelled from outside${why ? ` (${why})` : ''}, not stopped by pw.x: nothing in the input caused it, so the run can be repeated unchanged.`,
    };
  }
  if (!ev.output?.error && /ended by SIG(KILL|TERM|INT|HUP)|\bkilled\b|PREEMPTED|NODE_FAIL|CANCELLED by/i.test(text)) {
    return {
      kind: 'killed',
      finding: `the job was stopped from outside (${text.match(/SIG[A-Z]+|PREEMPTED|NODE_FAIL|killed/i)?.[0] ?? 'a signal'}), not by pw.x: nothing in the input caused it, so the run can be repeated unchanged.`,
    };
  }
  return undefined;
}
