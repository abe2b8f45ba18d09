/**
 * A relaxed geometry used as converged (its energy in a difference, its structure taken as the
 * relaxed one) must show it in its output: BFGS converged, no failure kind, and the last forces
 * (and, for a vc-relax, the free stress components) within the thresholds the output states.
 * The numbers run_pw recorded are checked again here, not only its verdict.
 */
import type { ArtifactRecord } from '../../provenance/types';
import { energySourceOf } from '../../artifacts/energySource';
import type { RelaxationFacts, RelaxationValue } from '../../artifacts/relaxation';
import { ARTIFACT } from '../../artifacts/shapes';
import { fmt, label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'relaxation-under-thresholds';

/** What is wrong with a relaxation's facts, as sentences (empty when it is converged within its thresholds). */
export function relaxationProblems(
  f: Pick<
    RelaxationFacts,
    | 'calculation'
    | 'converged'
    | 'problems'
    | 'failureKind'
    | 'maxForceEvPerAngstrom'
    | 'forceThresholdEvPerAngstrom'
    | 'stressDeviationKbar'
    | 'pressureThresholdKbar'
  >,
): string[] {
  const out: string[] = [];
  if (f.failureKind) out.push(`the output shows ${f.failureKind}`);
  if (f.maxForceEvPerAngstrom === undefined || f.forceThresholdEvPerAngstrom === undefined) {
    out.push('its output states no final forces against a force threshold');
  } else if (f.maxForceEvPerAngstrom > f.forceThresholdEvPerAngstrom) {
    out.push(
      `its largest force component ${fmt(f.maxForceEvPerAngstrom, 4)} eV/Å is above forc_conv_thr ${fmt(f.forceThresholdEvPerAngstrom, 4)} eV/Å`,
    );
  }
  if (f.calculation === 'vc-relax') {
    if (f.stressDeviationKbar === undefined || f.pressureThresholdKbar === undefined)
      out.push('its output states no final stress against a pressure threshold');
    else if (f.stressDeviationKbar > f.pressureThresholdKbar)
      out.push(
        `its stress is ${fmt(f.stressDeviationKbar, 4)} kbar from the target, above press_conv_thr ${fmt(f.pressureThresholdKbar, 4)} kbar`,
      );
  }
  if (!f.converged && !out.length) out.push(...(f.problems.length ? f.problems : ['it is recorded as not converged']));
  return out;
}

export const relaxationUnderThresholds: TierOneRule = (input) => {
  const out = [];
  let relaxations = 0;
  for (const r of referencesOf(input).filter((x) => x.asArtifact && x.resolution.ok)) {
    const a = (r.resolution as { artifact: ArtifactRecord }).artifact;
    let facts: Parameters<typeof relaxationProblems>[0] | undefined;
    let what = '';
    if (a.name === ARTIFACT.relaxation) {
      const v = a.value as RelaxationValue;
      const force = v.checks?.find((c) => c.quantity === 'force');
      const stress = v.checks?.find((c) => c.quantity === 'stress');
      facts = {
        calculation: v.calculation,
        converged: v.converged,
        problems: v.problems ?? [],
        ...(v.failureKind ? { failureKind: v.failureKind } : {}),
        ...(force ? { maxForceEvPerAngstrom: force.value, forceThresholdEvPerAngstrom: force.threshold } : {}),
        ...(stress ? { stressDeviationKbar: stress.value, pressureThresholdKbar: stress.threshold } : {}),
      };
      what = `the ${v.calculation} result ${a.id}`;
    } else if (a.name === ARTIFACT.totalEnergy) {
      const s = energySourceOf(input.provenance, a.id);
      if (s?.calculation !== 'relax' && s?.calculation !== 'vc-relax') continue;
      what = `${a.id}, the energy of a ${s.calculation}`;
      if (!s.relaxation) {
        out.push(
          verdict(
            RULE,
            'warn',
            [
              `${label(r)} references ${what} whose convergence run_pw did not record (a run made before it did): check its forces${s.calculation === 'vc-relax' ? ' and stress' : ''} in its output by hand.`,
            ],
            r.parameter,
          ),
        );
        relaxations++;
        continue;
      }
      facts = s.relaxation;
    } else {
      continue;
    }
    relaxations++;
    const problems = relaxationProblems(facts);
    if (problems.length) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${label(r)} references ${what}, which is not a converged geometry: ${problems.join('; ')}. ` +
              'Continue the relaxation from its last geometry (or with more steps, a tighter conv_thr or a higher cutoff for a Pulay stress) until its output shows the thresholds met.',
          ],
          r.parameter,
        ),
      );
    }
  }
  if (!out.length)
    return [verdict(RULE, 'pass', [relaxations ? `${relaxations} relaxation(s) within their thresholds` : 'no relaxation referenced'])];
  return out;
};
