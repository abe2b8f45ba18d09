/**
 * The advisor's reading of the failure kind the pw.x output parser gives (dft/qe/output
 * PwFailure): the time limit told apart from an unconverged SCF, a relaxation that ran out of
 * steps or whose BFGS gave up, and a final SCF above the relaxation's thresholds, each with the
 * line of the output that shows it, and what to change.
 */
import type { Suggestion } from './accuracyCheck';
import { PW_DEFAULTS, type FailureEvidence } from './failureEvidence';

export type OutputFailureKind = 'walltime' | 'relaxation-not-converged' | 'final-scf-above-thresholds';

const cite = (ev: FailureEvidence) => {
  const f = ev.output?.failure;
  if (!f?.evidence) return '';
  return ` (pw.x: "${f.evidence}"${f.line !== undefined ? `, output line ${f.line}` : f.source === 'crash' ? ', CRASH file' : ''})`;
};

/** A diagnosis from the parsed failure, for the kinds the advisor's text patterns cannot tell. */
export function diagnoseFromOutput(ev: FailureEvidence): { kind: OutputFailureKind; finding: string } | undefined {
  const f = ev.output?.failure;
  switch (f?.kind) {
    case 'time-limit':
      return { kind: 'walltime', finding: `${f.detail}${cite(ev)}` };
    case 'steps-exhausted':
    case 'bfgs-failed':
      return { kind: 'relaxation-not-converged', finding: `${f.detail}${cite(ev)}` };
    case 'final-scf-above-thresholds':
      return { kind: 'final-scf-above-thresholds', finding: `${f.detail}${cite(ev)}` };
    default:
      return undefined;
  }
}

/** What to change for a diagnosis made from the parsed failure. */
export function outputFailureSuggestions(ev: FailureEvidence, kind: OutputFailureKind): Suggestion[] {
  const s = ev.input;
  const f = ev.output?.failure;
  if (kind === 'relaxation-not-converged' && f?.kind === 'steps-exhausted') {
    const nstep = s.nstep ?? PW_DEFAULTS.nstep;
    return [
      {
        parameter: 'nstep',
        currentValue: nstep,
        newValue: nstep * 2,
        reason:
          'the relaxation was still converging when its ionic steps ran out: more steps (or a restart from its last geometry) let it finish',
      },
    ];
  }
  if (kind === 'relaxation-not-converged' && f?.kind === 'bfgs-failed') {
    const thr = s.convThrRy ?? PW_DEFAULTS.convThrRy;
    return [
      {
        parameter: 'conv_thr',
        currentValue: thr,
        newValue: Number((thr / 100).toExponential(1)),
        reason:
          'BFGS reset its history twice: its line searches failed on forces and energies noisier than its thresholds, which a tighter SCF makes accurate enough to follow',
      },
    ];
  }
  if (kind === 'final-scf-above-thresholds') {
    const out: Suggestion[] = [];
    if (s.ecutwfcRy !== undefined)
      out.push({
        parameter: 'ecutwfc',
        currentValue: s.ecutwfcRy,
        newValue: Number((s.ecutwfcRy * 1.25).toFixed(1)),
        reason:
          'the stress changed when the plane waves were set up again for the final cell (Pulay stress): a higher cutoff makes it small',
      });
    const rho = s.ecutrhoRy ?? (s.ecutwfcRy !== undefined ? 4 * s.ecutwfcRy : undefined);
    if (rho !== undefined)
      out.push({
        parameter: 'ecutrho',
        currentValue: rho,
        newValue: Number((rho * 1.25).toFixed(1)),
        reason: 'raised with ecutwfc, keeping their ratio',
      });
    return out;
  }
  return [];
}
