/**
 * A value taken from an artifact must equal the artifact's recorded value, up to
 * floating-point noise (provenance/references.ts NOISE_TOLERANCE) or the artifact's own
 * tolerance: a copied, rounded or invented number behind a real reference is refused.
 * A number that is the record in another unit is a unit error (units-match says so), not
 * a value mismatch. An argument that takes an artifact with a references entry naming
 * another artifact is refused, saying which form the argument takes.
 */
import { valueDifference } from '../../provenance/references';
import { conflictingReferences, referencesOf, verdict, type TierOneRule } from './ruleInput';
import { mislabelledUnitOf, recordedUnitOf } from './unitsMatch';

export const RULE = 'reference-values-match';

export const referenceValuesMatch: TierOneRule = (input) => {
  const out = [];
  for (const c of conflictingReferences(input)) {
    out.push(
      verdict(
        RULE,
        'fail',
        [
          c.list
            ? `${c.parameter} takes the references of the artifacts it reads as its value (${JSON.stringify(c.value)}); references.${c.parameter} = ${c.ref} is not among them. ` +
              `Put every artifact in the list, and leave ${c.parameter} out of references.`
            : `${c.parameter} takes the reference of the artifact it reads as its value: the value ${JSON.stringify(c.value)} and references.${c.parameter} = ${c.ref} name different artifacts. ` +
              `Give the one you mean as the value; references.${c.parameter} may repeat the same reference or be left out.`,
        ],
        c.parameter,
      ),
    );
  }
  const checked = referencesOf(input).filter((r) => !r.asArtifact && r.resolution.ok);
  for (const r of checked) {
    if (!r.resolution.ok) continue;
    const given = input.call.args[r.parameter];
    if (given === undefined) continue; // filled from the reference before the guard runs
    if (!valueDifference(given, r.resolution.value, r.resolution.artifact.tolerance)) continue;
    if (mislabelledUnitOf(input, r, given, recordedUnitOf(r))) continue; // a unit error: units-match reports it
    out.push(
      verdict(
        RULE,
        'fail',
        [
          `${r.parameter} = ${JSON.stringify(given)} but its reference ${r.ref} records ${JSON.stringify(r.resolution.value)}. ` +
            'Leave the value out (the guard fills in the recorded one), or give the recorded value; for a value of your own, drop the reference and give your reason.',
        ],
        r.parameter,
      ),
    );
  }
  return out.length
    ? out
    : [
        verdict(RULE, 'pass', [
          checked.length ? `${checked.length} referenced value(s) equal their records` : 'no referenced literal values',
        ]),
      ];
};
