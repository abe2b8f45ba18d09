/**
 * A calculation whose energy will be combined with references (an adsorption search and
 * each of its evaluations) must use the settings the references were computed with, so a
 * mismatch is refused before any relaxation is spent rather than when the energies meet.
 * The slab side must agree in every physical setting; the gas-phase reference in all but
 * k-sampling (settings-comparable's criteria).
 */
import { energySettings, type CalculatorArgs } from '../../calculators/fromArguments';
import type { PseudopotentialTableValue } from '../../artifacts/shapes';
import type { PhysicalSettings, Structure } from '../../dft/types';
import { physicalSettingsDifferences } from './settingsDifferences';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'calculator-matches-references';

const REFERENCES: { argument: string; what: string; sameCell: boolean }[] = [
  { argument: 'cleanSlabEnergy', what: 'the clean-slab reference', sameCell: true },
  { argument: 'gasPhaseEnergy', what: 'the gas-phase reference', sameCell: false },
];

export const calculatorMatchesReferences: TierOneRule = (input) => {
  const args = input.call.args as unknown as CalculatorArgs;
  const slab = resolvedArgument(input, 'structure')?.value as Structure | undefined;
  if (!args.calculator || !slab?.symbols) return [verdict(RULE, 'pass', ['no calculator settings to compare with references'])];
  let expected: PhysicalSettings;
  try {
    const table =
      args.calculator === 'pw.x'
        ? (resolvedArgument(input, 'pseudopotentials')?.value as PseudopotentialTableValue | undefined)
        : undefined;
    expected = energySettings(args, slab, table);
  } catch (e) {
    return [verdict(RULE, 'fail', [`the calculator settings of this call are incomplete: ${(e as Error).message}`])];
  }
  const problems: string[] = [];
  let compared = 0;
  for (const ref of REFERENCES) {
    const energy = resolvedArgument(input, ref.argument)?.artifact;
    const settings = energy?.meta?.settings as PhysicalSettings | undefined;
    if (!energy || !settings) continue;
    compared++;
    for (const d of physicalSettingsDifferences(expected, settings, { sameCell: ref.sameCell })) {
      problems.push(`${d.field}: this call ${JSON.stringify(d.a)}, ${ref.what} ${energy.id} ${JSON.stringify(d.b)}`);
    }
  }
  if (compared === 0) return [verdict(RULE, 'pass', ['no reference energies referenced'])];
  if (problems.length === 0)
    return [verdict(RULE, 'pass', [`the ${args.calculator} settings of this call match the ${compared} reference energies`])];
  return [
    verdict(RULE, 'fail', [
      `its energies could not be combined with the references, which were computed differently: ${problems.join('; ')}. ` +
        'Use the settings the references were computed with, or recompute the references with these.',
    ]),
  ];
};
