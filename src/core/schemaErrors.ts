/**
 * ajv's errors as sentences a person can act on: where, what is wrong, the value given, and
 * (for an unknown field) the closest known one. Objective files, workflow inputs and plan
 * edits are checked with it.
 */
import type { ErrorObject } from 'ajv';
import { closest } from 'fastest-levenshtein';

/** One readable line per ajv error: "inputs.structure: must be one of fcc, bcc, ... (got "FCC")". */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, data: unknown, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of withoutOtherBranches(errors ?? [])) {
    const parts = e.instancePath.split('/').filter(Boolean);
    const at = [prefix, ...parts].filter(Boolean).join('.') || prefix || '(top level)';
    const got = parts.reduce<unknown>((v, p) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined), data);
    switch (e.keyword) {
      case 'required':
        out.push(`${at}: ${String((e.params as { missingProperty: string }).missingProperty)} is missing; add it.`);
        break;
      case 'additionalProperties': {
        const extra = String((e.params as { additionalProperty: string }).additionalProperty);
        const known = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {});
        // a field named by its start (symprec for symprecAngstrom) before the closest spelling
        const guess =
          known.find((k) => k.toLowerCase().startsWith(extra.toLowerCase())) ?? (known.length ? closest(extra, known) : undefined);
        out.push(`${at}: "${extra}" is not a known field${guess ? ` (did you mean "${guess}"?)` : ''}; known fields: ${known.join(', ')}.`);
        break;
      }
      case 'enum':
        out.push(
          `${at}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')} (got ${JSON.stringify(got)}).`,
        );
        break;
      default:
        out.push(`${at}: ${e.message ?? 'is not valid'} (got ${JSON.stringify(got)})${describeHint(e)}.`);
    }
  }
  return [...new Set(out)];
}

/** Keywords a value fails when it took another branch of a oneOf/anyOf altogether (a string where an object is). */
const TYPE_KEYWORDS = ['type', 'enum', 'const'];

/**
 * A value that took one branch of a oneOf/anyOf and failed inside it (`structure: { file, symprecAngstrom: 0 }`,
 * or an unknown field there) also fails every other branch's type or enum at its own path ("must be string",
 * "must be one of fcc, ...") and the oneOf itself: those say nothing the error inside does, so only it is kept.
 */
function withoutOtherBranches(errors: ErrorObject[]): ErrorObject[] {
  const drop = new Set<ErrorObject>();
  for (const o of errors) {
    if (o.keyword !== 'oneOf' && o.keyword !== 'anyOf') continue;
    const branch = `${o.schemaPath}/`;
    const inside = errors.some(
      (e) =>
        e.schemaPath.startsWith(branch) &&
        (e.instancePath.startsWith(`${o.instancePath}/`) || (e.instancePath === o.instancePath && !TYPE_KEYWORDS.includes(e.keyword))),
    );
    if (!inside) continue;
    drop.add(o);
    for (const e of errors)
      if (e.instancePath === o.instancePath && e.schemaPath.startsWith(branch) && TYPE_KEYWORDS.includes(e.keyword)) drop.add(e);
  }
  return errors.filter((e) => !drop.has(e));
}

function describeHint(e: ErrorObject): string {
  const d = (e.parentSchema as { description?: string } | undefined)?.description;
  return d ? `; expected: ${d}` : '';
}
