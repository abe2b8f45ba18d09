/**
 * Energies from convergence-test inputs (sweep points at deliberately varied settings)
 * feed convergence selections only; results such as an EOS or an adsorption energy must
 * come from production inputs at the chosen settings.
 */
import type { ArtifactRecord } from '../../provenance/types';
import { label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'energies-from-production-inputs';

export const energiesFromProductionInputs: TierOneRule = (input) => {
  const tests = referencesOf(input).filter(
    (r) => r.asArtifact && r.resolution.ok && (r.resolution as { artifact: ArtifactRecord }).artifact.meta?.purpose === 'convergence-test',
  );
  if (tests.length === 0) return [verdict(RULE, 'pass', ['no energy comes from a convergence-test input'])];
  return tests.map((r) =>
    verdict(
      RULE,
      'fail',
      [
        `${label(r)} references ${r.ref}, an energy from a convergence-test input. ` +
          'Compute it with a production input at the chosen settings (make_pw_input purpose "production") and reference that.',
      ],
      r.parameter,
    ),
  );
};
