/**
 * A value taken from an artifact must be in the unit the argument takes: 7.6 bohr
 * passed where Å is expected is refused, not silently reinterpreted; and a number given
 * beside its reference that is the record in another unit (its Ry value where eV is
 * taken) is refused as the unit error it is, not as a different value.
 */
import { sameDimension, type Unit } from '../../units';
import { parseRef } from '../../provenance/view';
import { unitOfArgument } from '../schemaAnnotations';
import { mislabelledUnit } from '../unitMislabel';
import { label, referencesOf, verdict, type CallReference, type RuleInput, type TierOneRule } from './ruleInput';
import { normaliseUnit, unitFromName } from './unitNames';

export const RULE = 'units-match';

// Units from names live in unitNames.ts; re-exported for the claim checks and tools.
export { unitFromName } from './unitNames';

/** The unit of a referenced value: from the last field name of its path, else the artifact's. */
export function recordedUnitOf(r: CallReference): string | undefined {
  if (!r.resolution.ok) return undefined;
  const path = parseRef(r.ref)?.path ?? [];
  const a = r.resolution.artifact;
  return path.length ? (unitFromName(path[path.length - 1]!) ?? (typeof r.resolution.value === 'number' ? a.unit : undefined)) : a.unit;
}

/**
 * The unit a literal given beside its reference is really in, when it is the recorded number
 * in another unit of the argument's kind (the Ry value of an energy the argument takes in eV).
 */
export function mislabelledUnitOf(input: RuleInput, r: CallReference, given: unknown, recorded: string | undefined): Unit | undefined {
  if (!r.resolution.ok || typeof given !== 'number' || typeof r.resolution.value !== 'number' || !recorded) return undefined;
  const declared = unitOfArgument(input.schema, r.parameter) ?? unitFromName(r.parameter) ?? recorded;
  if (normaliseUnit(declared) !== normaliseUnit(recorded)) return undefined; // the reference itself is in another unit: reported below
  return mislabelledUnit(given, normaliseUnit(declared) as Unit, r.resolution.value, normaliseUnit(recorded) as Unit);
}

export const unitsMatch: TierOneRule = (input) => {
  const out = [];
  let checked = 0;
  for (const r of referencesOf(input)) {
    if (!r.resolution.ok) continue;
    const recorded = recordedUnitOf(r);
    if (r.asArtifact) {
      const wanted = r.expect?.unit;
      if (!wanted || !recorded) continue;
      checked++;
      if (!sameDimension(normaliseUnit(recorded) as Unit, wanted)) {
        out.push(
          verdict(
            RULE,
            'fail',
            [`${label(r)} needs a quantity in ${wanted} (or a convertible unit) but ${r.ref} is in ${recorded}.`],
            r.parameter,
          ),
        );
      }
      continue;
    }
    const declared = unitOfArgument(input.schema, r.parameter) ?? unitFromName(r.parameter);
    if (!declared || !recorded) continue;
    checked++;
    if (normaliseUnit(declared) !== normaliseUnit(recorded)) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${r.parameter} takes ${declared} but its reference ${r.ref} is in ${recorded}. ` +
              (sameDimension(normaliseUnit(declared) as Unit, normaliseUnit(recorded) as Unit)
                ? `Reference a value in ${declared}, or give the converted number as a literal with the conversion as its reason.`
                : 'The two measure different things: reference the quantity this argument needs.'),
          ],
          r.parameter,
        ),
      );
      continue;
    }
    const given = input.call.args[r.parameter];
    const trueUnit = mislabelledUnitOf(input, r, given, recorded);
    if (trueUnit) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${r.parameter} = ${String(given)} is ${r.ref} in ${trueUnit}, but ${r.parameter} takes ${declared} (the record is ${String(r.resolution.value)} ${recorded}): ` +
              `a unit error. Give the value in ${declared} (leave it out and the guard fills in the recorded one).`,
          ],
          r.parameter,
        ),
      );
    }
  }
  return out.length ? out : [verdict(RULE, 'pass', [checked ? `${checked} referenced unit(s) match` : 'no units to compare'])];
};
