/**
 * Why a pw.x run gave no usable result: one kind from a closed set (PW_FAILURE_KINDS) with
 * the line that shows it, from the output and, when pw.x wrote one, its CRASH file.
 * Thresholds are pw.x's: forces in Ry/bohr, pressure in kbar.
 */
import { errorOfBlock, FAILURE_MARKERS, type Mark, type PwOutputReader } from './reader';
import type { IonicStep, PwFailure, PwOutput, ScfCycle } from './types';

export interface CrashReport {
  error?: { routine: string; code?: number; message: string };
  /** The first line of the error (or a failure line printed outside a %%%% block). */
  evidence?: string;
}

/** pw.x's CRASH file: the last %%%% block (6.x "from X : error # n" or 7.x "Error in routine X (n):"), or a failure line. */
export function readCrash(text: string): CrashReport {
  const lines = text.split(/\r?\n/);
  const blocks: string[][] = [];
  let open: string[] | undefined;
  for (const raw of lines) {
    const t = raw.trim();
    if (t.startsWith('%%%%')) {
      if (open) blocks.push(open);
      open = open ? undefined : [];
    } else if (open) open.push(t);
  }
  if (open?.length) blocks.push(open);
  for (const b of blocks.reverse()) {
    const error = errorOfBlock(b);
    if (error) return { error, evidence: b.find((l) => l && !/^task #/.test(l)) ?? '' };
  }
  const marker = lines.map((l) => l.trim()).find((l) => FAILURE_MARKERS.some((re) => re.test(l)));
  return marker ? { error: { routine: '', message: marker }, evidence: marker } : {};
}

export interface FailureOptions {
  /** The text of pw.x's CRASH file from the run's working directory, when there is one. */
  crash?: string;
  /** The input's target pressure (press, kbar; pw.x's default 0), for the final-SCF check of a vc-relax. */
  pressKbar?: number;
}

const IONIC = new Set(['relax', 'vc-relax', 'md', 'vc-md']);
/** 1 Ry/bohr³ in kbar. */
const RY_PER_BOHR3_IN_KBAR = 147105.078;

/**
 * The target pressure of a vc-relax, which pw.x does not print: BFGS minimises the enthalpy
 * H = E + P·V, and reports H and E of the starting geometry, whose volume the summary gives.
 */
export function targetPressureKbar(r: PwOutputReader): number | undefined {
  const first = r.steps.find((s) => s.enthalpyRy !== undefined && s.energyRy !== undefined);
  const v = r.initialCellVolumeBohr3;
  if (!first || !v || first !== r.steps[0]) return undefined;
  return Math.round(((first.enthalpyRy! - first.energyRy!) / v) * RY_PER_BOHR3_IN_KBAR * 100) / 100;
}

function maxForceComponent(step: IonicStep | undefined): number | undefined {
  if (!step?.forcesRyPerBohr?.length) return undefined;
  return Math.max(...step.forcesRyPerBohr.flatMap((f) => f.map(Math.abs)));
}

function failure(
  kind: PwFailure['kind'],
  mark: Mark | undefined,
  detail: string,
  source: PwFailure['source'] = 'output',
  evidence?: string,
): PwFailure {
  return { kind, evidence: evidence ?? mark?.text ?? '', ...(mark && source === 'output' ? { line: mark.line } : {}), source, detail };
}

/** The failure of a parsed run, or undefined when it ended as asked. */
export function classifyFailure(r: PwOutputReader, out: PwOutput, opts: FailureOptions, lastLine: Mark | undefined): PwFailure | undefined {
  if (r.error) {
    return failure(
      'pw-error',
      r.marks.error,
      `pw.x stopped${r.error.routine ? ` in ${r.error.routine}` : ''}: ${r.error.message.split('\n')[0]}`,
    );
  }
  if (r.marks.failureLine) return failure('pw-error', r.marks.failureLine, `pw.x failed: ${r.marks.failureLine.text}`);
  // A CRASH file is written when pw.x stops with an error, and deleted when a run starts: it
  // speaks for this run only when the output shows no end of its own.
  if (opts.crash && !r.jobDone) {
    const crash = readCrash(opts.crash);
    if (crash.error) {
      out.error = crash.error;
      return failure(
        'pw-error',
        undefined,
        `pw.x stopped${crash.error.routine ? ` in ${crash.error.routine}` : ''}: ${crash.error.message.split('\n')[0]} (from its CRASH file)`,
        'crash',
        crash.evidence,
      );
    }
  }
  const scfs = r.scfCycles;
  const last = scfs[scfs.length - 1];
  const ionic = IONIC.has(out.calculation ?? '');
  const stepOf = (scf: ScfCycle) => scfs.indexOf(scf) + 1;
  if (r.marks.timeLimit) {
    const where = last?.stoppedByTimeLimit
      ? ` after ${last.iterationCount ?? 0} complete SCF iterations${ionic ? ` of ionic step ${stepOf(last)}` : ''}`
      : ionic
        ? ` after ${scfs.length} ionic step${scfs.length === 1 ? '' : 's'}`
        : '';
    return failure(
      'time-limit',
      r.marks.timeLimit,
      `the run reached its time limit (max_seconds)${where}; nothing failed, it needs more time or a restart.`,
    );
  }
  const rel = r.relaxation;
  if (rel?.failed) {
    return failure(
      'bfgs-failed',
      r.marks.bfgsFailed,
      `BFGS reset its history twice without progress and gave up${rel.bfgsSteps !== undefined ? ` after ${rel.bfgsSteps} steps` : ''}` +
        `${rel.scfCycles !== undefined ? ` (${rel.scfCycles} SCF cycles)` : ''}: the geometry is not converged.`,
    );
  }
  // MD ends by running its nstep steps; a relaxation that does has not converged.
  if (rel?.stepsExhausted && (out.calculation === 'relax' || out.calculation === 'vc-relax')) {
    const s = out.ionicSteps[out.ionicSteps.length - 1];
    const grad = s?.gradientErrorRyPerBohr;
    const thr = rel.criteria?.forceRyPerBohr ?? r.settings.forceConvThrRyPerBohr;
    const nstep = r.settings.nstep !== undefined ? `${r.settings.nstep} ` : '';
    return failure(
      'steps-exhausted',
      r.marks.stepsExhausted,
      `the relaxation used its ${nstep}ionic steps (nstep) before converging` +
        `${grad !== undefined && thr !== undefined ? `; the last gradient error was ${grad} Ry/bohr against ${thr}` : ''}.`,
    );
  }
  const unconverged = [...r.notConverged.keys()].pop();
  if (unconverged && !unconverged.converged) {
    const mark = r.notConverged.get(unconverged)!;
    const n = unconverged.iterationCount;
    if (ionic) {
      const which = unconverged.final ? 'the final SCF at the relaxed structure' : `the SCF of ionic step ${stepOf(unconverged)}`;
      return failure(
        'relax-scf-not-converged',
        mark,
        `${which} of this ${out.calculation} did not converge${n !== undefined ? ` in ${n} iterations` : ''}.`,
      );
    }
    return failure('scf-not-converged', mark, `the SCF did not converge${n !== undefined ? ` in ${n} iterations` : ''}.`);
  }
  if (rel?.converged && rel.finalScfCycle !== undefined) {
    const final = scfs[rel.finalScfCycle];
    const step = out.ionicSteps.find((s) => s.scfCycle === rel.finalScfCycle);
    const forceThr = rel.criteria?.forceRyPerBohr ?? r.settings.forceConvThrRyPerBohr;
    const pressThr = rel.criteria?.cellKbar ?? r.settings.pressConvThrKbar;
    const force = maxForceComponent(step);
    // The final pressure is judged against the target pressure (press, given or read from the
    // output), unless the relaxation converged away from it (only some cell components were free,
    // cell_dofree): then against the pressure of its last BFGS step.
    const lastBfgs = out.ionicSteps
      .filter((s) => s.scfCycle !== undefined && s.scfCycle < rel.finalScfCycle! && s.pressureKbar !== undefined)
      .pop();
    const target = opts.pressKbar ?? targetPressureKbar(r);
    const reference =
      target !== undefined &&
      lastBfgs?.pressureKbar !== undefined &&
      pressThr !== undefined &&
      Math.abs(lastBfgs.pressureKbar - target) <= pressThr
        ? target
        : lastBfgs?.pressureKbar;
    const over: string[] = [];
    if (force !== undefined && forceThr !== undefined && force > forceThr)
      over.push(`a force component of ${force} Ry/bohr (threshold ${forceThr})`);
    if (
      step?.pressureKbar !== undefined &&
      reference !== undefined &&
      pressThr !== undefined &&
      Math.abs(step.pressureKbar - reference) > pressThr
    ) {
      over.push(
        `a pressure of ${step.pressureKbar} kbar against ${reference === target ? 'the target' : "the relaxation's last"} ${reference} kbar (threshold ${pressThr})`,
      );
    }
    if (final?.converged && over.length) {
      const marker = r.marks.finalScf;
      return failure(
        'final-scf-above-thresholds',
        marker,
        `the geometry converged, but the final SCF at the relaxed structure (with the plane waves of the final cell) finds ${over.join(' and ')}: ` +
          'the basis changed with the cell; relax again from the final structure, or raise ecutwfc/ecutrho.',
      );
    }
  }
  if (!r.jobDone) {
    return failure(
      'interrupted',
      lastLine,
      lastLine
        ? 'the output stops before pw.x ended, with no error: the run was killed, ran out of scheduler time, or is still running.'
        : 'the output is empty and no CRASH file was read: pw.x did not start, or its output was lost.',
    );
  }
  return undefined;
}
