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
  for (const e of errors ?? []) {
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
        const guess = known.length ? closest(extra, known) : undefined;
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

function describeHint(e: ErrorObject): string {
  const d = (e.parentSchema as { description?: string } | undefined)?.description;
  return d ? `; expected: ${d}` : '';
}
