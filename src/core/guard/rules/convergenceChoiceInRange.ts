/**
 * A cutoff or k-spacing backed by a convergence test must lie inside the tested range,
 * must not be the finest value tested (at the finest value there is nothing finer to show
 * it is converged), and must not be coarser than the value the test chose: by the test's
 * own criterion (energy per atom, the shift of a a pressure error implies, the magnetization per atom, the gap, the forces, or several) a
 * coarser value is not shown converged.
 */
import { sameNumber } from '../../provenance/references';
import type { ArtifactRecord } from '../../provenance/types';
import { ARTIFACT, finestTested, type ConvergenceSelectionValue, type SweptParameter } from '../../artifacts/shapes';
import { parseRef } from '../../provenance/view';
import { describeCriterion, judgesEnergy, judgesPressure, type SweepCriterion } from '../../dft/convergence';
import { fmt, numberArg, verdict, type RuleInput, type TierOneRule } from './ruleInput';

export const RULE = 'convergence-choice-in-range';

const ARGUMENT_OF: Record<SweptParameter, { argument: string; unit: string }> = {
  ecutwfc: { argument: 'ecutwfcRy', unit: 'Ry' },
  kspacing: { argument: 'kSpacingPerAngstrom', unit: '1/Å' },
};

const isSelection = (a: ArtifactRecord): boolean => a.name === ARTIFACT.convergedSettings;

/** The convergence test a value answers to: the one its reference points into, else the latest final one in the run. */
export function governingSelection(
  input: RuleInput,
  parameter: SweptParameter,
  opts: { includeStale?: boolean } = {},
): ArtifactRecord | undefined {
  const { argument } = ARGUMENT_OF[parameter];
  const ref = input.call.refs[argument];
  const referenced = ref ? input.provenance.artifact(parseRef(ref)?.artifactId ?? '') : undefined;
  if (referenced && isSelection(referenced)) return referenced;
  const finals = input.provenance
    .artifacts()
    .filter(
      (a) =>
        isSelection(a) &&
        (a.status === 'final' || (opts.includeStale && a.status === 'stale')) &&
        (a.value as ConvergenceSelectionValue).parameter === parameter,
    );
  return finals[finals.length - 1];
}

export const isConvergenceTest = (input: RuleInput): boolean => input.call.args.purpose === 'convergence-test';

/** The selection's criterion in words (selections made before criteria had names were judged by energy). */
function criterionOf(table: ConvergenceSelectionValue): string {
  const c: SweepCriterion = table.criterion ?? { kind: 'energy', toleranceMevPerAtom: table.toleranceMevPerAtom };
  try {
    return describeCriterion(c);
  } catch {
    return `by its ${c.kind} criterion`;
  }
}

/** How far the selection's table puts a tested value from the finest, by its criterion. */
function offBy(table: ConvergenceSelectionValue, value: number): string {
  const row = table.tested.find((t) => sameNumber(t.value, value));
  if (!row) return '';
  const kind = table.criterion?.kind ?? 'energy';
  const parts = [
    judgesEnergy(kind) ? `${row.deltaMevPerAtom.toFixed(3)} meV/atom` : '',
    judgesPressure(kind) && row.latticeShiftPercent !== undefined ? `${row.latticeShiftPercent.toFixed(3)} % of a` : '',
    row.shapeShiftPercent !== undefined ? `${row.shapeShiftPercent.toFixed(3)} % of c/a` : '',
    table.criterion?.toleranceMomentMuBPerAtom !== undefined && row.deltaMomentMuBPerAtom !== undefined
      ? `${row.deltaMomentMuBPerAtom.toFixed(3)} μB/atom in the magnetization`
      : '',
    table.criterion?.toleranceGapEv !== undefined && row.deltaGapEv !== undefined ? `${row.deltaGapEv.toFixed(3)} eV in the gap` : '',
    table.criterion?.toleranceForceEvPerAngstrom !== undefined && row.deltaForceEvPerAngstrom !== undefined
      ? `${row.deltaForceEvPerAngstrom.toFixed(4)} eV/Å in a force component`
      : '',
  ].filter(Boolean);
  return parts.length ? ` (${fmt(value)} is ${parts.join(' and ')} from the finest)` : '';
}

export const convergenceChoiceInRange: TierOneRule = (input) => {
  if (isConvergenceTest(input)) return [verdict(RULE, 'pass', ["a convergence-test input: its cutoff and spacing are the test's own"])];
  const out = [];
  for (const parameter of Object.keys(ARGUMENT_OF) as SweptParameter[]) {
    const { argument, unit } = ARGUMENT_OF[parameter];
    const value = numberArg(input.call, argument);
    if (value === undefined) continue;
    const sel = governingSelection(input, parameter);
    if (!sel) continue;
    const table = sel.value as ConvergenceSelectionValue;
    const tested = table.tested.map((t) => t.value);
    const lo = Math.min(...tested);
    const hi = Math.max(...tested);
    const finest = finestTested(table);
    const list = tested.map((t) => fmt(t)).join(', ');
    if ((value < lo && !sameNumber(value, lo)) || (value > hi && !sameNumber(value, hi))) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${argument} = ${fmt(value)} ${unit} lies outside the range tested in ${sel.id} (${fmt(lo)}–${fmt(hi)} ${unit}: ${list}). ` +
              `Use a tested value (the selection chose ${fmt(table.chosenValue)} ${unit}) or extend the convergence sweep to cover it.`,
          ],
          argument,
        ),
      );
    } else if (sameNumber(value, finest)) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${argument} = ${fmt(value)} ${unit} is the finest value tested in ${sel.id} (${list}), so nothing shows it is converged. ` +
              'Extend the sweep beyond it, or choose the value the selection found converged.',
          ],
          argument,
        ),
      );
    } else if (
      table.converged &&
      !sameNumber(value, table.chosenValue) &&
      (parameter === 'ecutwfc' ? value < table.chosenValue : value > table.chosenValue)
    ) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${argument} = ${fmt(value)} ${unit} is coarser than ${fmt(table.chosenValue)} ${unit}, the cheapest value ${sel.id} found ${criterionOf(table)} of the finest` +
              `${offBy(table, value)}: it is not shown converged. Use ${fmt(table.chosenValue)} ${unit} or a finer tested value.`,
          ],
          argument,
        ),
      );
    } else {
      out.push(
        verdict(
          RULE,
          'pass',
          [`${argument} = ${fmt(value)} ${unit} lies inside the range tested in ${sel.id} and is not the finest value`],
          argument,
        ),
      );
    }
  }
  return out.length ? out : [verdict(RULE, 'pass', ['no convergence test governs the values of this call'])];
};
