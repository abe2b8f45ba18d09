/**
 * A provisional value (an unconverged or failed calculation, a result waiting for
 * approval) or a stale one (its inputs changed) cannot support anything built on it.
 * The one exception is an argument that only seeds a calculation whose result does not depend
 * on it (the starting lattice constant of an EOS series or a vc-relax, the starting geometry
 * of a relaxation taken from an interrupted one), whatever the seed's status: its schema says
 * so and why (schemaAnnotations: seedOnlySchema, or seedOnly on an artifact argument), whether
 * the value is the reference itself or a number given by its reference.
 */
import { seedOnlyReason } from '../schemaAnnotations';
import { label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'no-provisional-support';

export const noProvisionalSupport: TierOneRule = (input) => {
  const out = [];
  for (const r of referencesOf(input)) {
    if (!r.resolution.ok) continue;
    const a = r.resolution.artifact;
    if (a.status === 'final') continue;
    const seedOnly = r.expect?.seedOnly ?? seedOnlyReason(input.schema, r.parameter);
    // A seed may be provisional (the interrupted run) or stale by the time a report is judged
    // (the input it came from was made again from the seed): neither changes what it seeded.
    if (seedOnly) {
      out.push(
        verdict(
          RULE,
          'pass',
          [`${label(r)} references ${a.id} (${a.name}), which is ${a.status}; ${label(r)} only seeds the calculation: ${seedOnly}`],
          r.parameter,
        ),
      );
      continue;
    }
    const why = a.concerns.map((c) => c.message).filter(Boolean);
    out.push(
      verdict(
        RULE,
        'fail',
        [
          `${label(r)} references ${a.id} (${a.name}), which is ${a.status}` +
            (why.length ? `: ${why.join('; ')}` : '') +
            '. ' +
            (a.status === 'stale'
              ? 'Its inputs changed after it was computed: redo the calculation with the current settings and reference the new result.'
              : 'Fix what made it provisional (converge the calculation, or get the pending approval) and reference a final result.'),
        ],
        r.parameter,
      ),
    );
  }
  return out.length ? out : [verdict(RULE, 'pass', ['every referenced artifact is final'])];
};
