/**
 * A k-point convergence test holds for the cutoff it was run at. When the cutoff an
 * input uses differs from it, the k-point test must be redone at the new cutoff before
 * its spacing is used.
 */
import { sameNumber } from '../../provenance/references';
import type { PhysicalSettings } from '../../dft/types';
import { governingSelection, isConvergenceTest } from './convergenceChoiceInRange';
import { fmt, numberArg, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'tests-redone-after-cutoff-change';

export const testsRedoneAfterCutoffChange: TierOneRule = (input) => {
  const ecut = numberArg(input.call, 'ecutwfcRy');
  const spacing = numberArg(input.call, 'kSpacingPerAngstrom');
  if (ecut === undefined || spacing === undefined) return [verdict(RULE, 'pass', ['the call does not combine a cutoff with a k-spacing'])];
  if (isConvergenceTest(input)) return [verdict(RULE, 'pass', ['a convergence-test input: it is the test being run'])];
  const kTest = governingSelection(input, 'kspacing', { includeStale: true });
  const testedAt = (kTest?.meta?.settings as PhysicalSettings | undefined)?.ecutwfcRy;
  if (!kTest || testedAt === undefined) return [verdict(RULE, 'pass', ['no k-point convergence test governs this spacing'])];
  if (kTest.status === 'stale') {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the k-point convergence ${kTest.id} is stale (the cutoff changed after it ran at ${fmt(testedAt)} Ry). ` +
            `Redo the k-point sweep at ${fmt(ecut)} Ry and use the spacing it selects.`,
        ],
        'kSpacingPerAngstrom',
      ),
    ];
  }
  if (!sameNumber(ecut, testedAt)) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the k-point convergence ${kTest.id} was tested at ecutwfc ${fmt(testedAt)} Ry but this call uses ${fmt(ecut)} Ry. ` +
            `Redo the k-point sweep at ${fmt(ecut)} Ry and use the spacing it selects.`,
        ],
        'kSpacingPerAngstrom',
      ),
    ];
  }
  return [verdict(RULE, 'pass', [`k-point test ${kTest.id} was run at the same cutoff (${fmt(ecut)} Ry)`], 'kSpacingPerAngstrom')];
};
