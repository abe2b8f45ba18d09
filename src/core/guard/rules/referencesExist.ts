/** Every reference a call makes names an artifact (and a field) that exists in this run. */
import { label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'references-exist';

export const referencesExist: TierOneRule = (input) => {
  const refs = referencesOf(input);
  const missing = refs.filter((r) => !r.resolution.ok);
  if (missing.length === 0) {
    return [verdict(RULE, 'pass', [refs.length ? `${refs.length} reference(s) resolve` : 'the call makes no references'])];
  }
  return missing.map((r) =>
    verdict(
      RULE,
      'fail',
      [`${label(r)} references ${r.ref}, which does not resolve: ${(r.resolution as { problem: string }).problem}`],
      r.parameter,
    ),
  );
};
