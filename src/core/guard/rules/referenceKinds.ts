/**
 * An argument that reads an artifact must name the kind of artifact the tool needs:
 * an energy from a finished calculation, not the input that would produce it.
 */
import { label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'reference-kinds';

export const referenceKinds: TierOneRule = (input) => {
  const out = [];
  let checked = 0;
  for (const r of referencesOf(input)) {
    if (!r.asArtifact || !r.expect || !r.resolution.ok) continue;
    checked++;
    const a = r.resolution.artifact;
    const { kinds, names } = r.expect;
    const kindOk = !kinds || kinds.includes(a.kind);
    const nameOk = !names || names.includes(a.name);
    if (!kindOk || !nameOk) {
      const wanted = [names ? `named ${names.join(' or ')}` : '', kinds ? `of kind ${kinds.join(' or ')}` : ''].filter(Boolean).join(', ');
      const creator = input.provenance.call(a.creator);
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${label(r)} references ${r.ref}, a ${a.kind} artifact named "${a.name}"${creator ? ` made by ${creator.tool}` : ''}; ` +
              `this argument needs an artifact ${wanted}. Reference the output of the step that computes it.`,
          ],
          r.parameter,
        ),
      );
    }
  }
  return out.length
    ? out
    : [verdict(RULE, 'pass', [checked ? `${checked} referenced artifact(s) are of the kind needed` : 'no artifact arguments'])];
};
