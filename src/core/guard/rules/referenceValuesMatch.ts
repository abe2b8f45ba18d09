/**
 * A value taken from an artifact must equal the artifact's recorded value: a copied,
 * rounded or invented number behind a real reference is refused.
 */
import type { ArtifactRecord } from '../../provenance/types';
import { referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'reference-values-match';

function withinTolerance(given: number, recorded: number, tol: ArtifactRecord['tolerance']): boolean {
  if (given === recorded) return true;
  if (!tol) return false;
  const diff = Math.abs(given - recorded);
  return (tol.abs !== undefined && diff <= tol.abs) || (tol.rel !== undefined && diff <= tol.rel * Math.abs(recorded));
}

function sameValue(given: unknown, recorded: unknown, tol: ArtifactRecord['tolerance']): boolean {
  if (typeof given === 'number' && typeof recorded === 'number') return withinTolerance(given, recorded, tol);
  if (Array.isArray(given) && Array.isArray(recorded)) {
    return given.length === recorded.length && given.every((g, i) => sameValue(g, recorded[i], tol));
  }
  if (given && recorded && typeof given === 'object' && typeof recorded === 'object') {
    const gk = Object.keys(given).sort();
    const rk = Object.keys(recorded).sort();
    return gk.length === rk.length && gk.every((k, i) => k === rk[i] &&
      sameValue((given as Record<string, unknown>)[k], (recorded as Record<string, unknown>)[k], tol));
  }
  return given === recorded;
}

export const referenceValuesMatch: TierOneRule = (input) => {
  const checked = referencesOf(input).filter((r) => !r.asArtifact && r.resolution.ok);
  const out = [];
  for (const r of checked) {
    if (!r.resolution.ok) continue;
    const given = input.call.args[r.parameter];
    if (given === undefined) continue; // filled from the reference before the guard runs
    if (!sameValue(given, r.resolution.value, r.resolution.artifact.tolerance)) {
      out.push(verdict(RULE, 'fail', [
        `${r.parameter} = ${JSON.stringify(given)} but its reference ${r.ref} records ${JSON.stringify(r.resolution.value)}. ` +
          `Use the recorded value (or drop the reference and give your own reason for a literal).`,
      ], r.parameter));
    }
  }
  return out.length ? out : [verdict(RULE, 'pass', [checked.length ? `${checked.length} referenced value(s) equal their records` : 'no referenced literal values'])];
};
