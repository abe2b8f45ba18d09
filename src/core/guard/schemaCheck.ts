/**
 * Step 1 of the guarded call: the arguments against the tool's JSON schema, with an
 * error a model can correct (which argument, what was expected, what was given).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { ARTIFACT_KEYWORD, UNIT_KEYWORD } from './schemaAnnotations';

// strictRequired off: "one of these arguments is required" is written as anyOf of required lists.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
ajv.addKeyword({ keyword: ARTIFACT_KEYWORD, metaSchema: { type: 'object' } });
ajv.addKeyword({ keyword: UNIT_KEYWORD, metaSchema: { type: 'string' } });

const compiled = new WeakMap<object, ValidateFunction>();

/** Compile once per schema object; a schema the validator cannot compile is a bug in the tool, so it throws. */
export function validatorFor(schema: object, toolName: string): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch (e) {
      throw new Error(`the JSON schema of tool "${toolName}" does not compile: ${(e as Error).message}. Fix the tool's schema.`);
    }
    compiled.set(schema, v);
  }
  return v;
}

function describe(err: ErrorObject, args: unknown): string {
  const where = err.instancePath ? `argument ${err.instancePath.slice(1).replace(/\//g, '.')}` : 'the arguments';
  const given = valueAt(args, err.instancePath);
  const shown = given === undefined ? '' : ` (given ${JSON.stringify(given)?.slice(0, 80)})`;
  switch (err.keyword) {
    case 'required':
      return `${where}: missing required "${(err.params as { missingProperty: string }).missingProperty}"`;
    case 'additionalProperties':
      return `${where}: unknown argument "${(err.params as { additionalProperty: string }).additionalProperty}"`;
    case 'enum':
      return `${where} must be one of ${JSON.stringify((err.params as { allowedValues: unknown[] }).allowedValues)}${shown}`;
    case 'pattern':
      return `${where} must be a reference "a-<n>" or "a-<n>.<path>"${shown}`;
    default:
      return `${where} ${err.message ?? 'is invalid'}${shown}`;
  }
}

function valueAt(root: unknown, pointer: string): unknown {
  let v = root;
  for (const part of pointer.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

export type SchemaCheck = { ok: true } | { ok: false; problems: string[] };

export function checkArguments(schema: object, toolName: string, args: unknown): SchemaCheck {
  const validate = validatorFor(schema, toolName);
  if (validate(args)) return { ok: true };
  const problems = [...new Set((validate.errors ?? []).map((e) => describe(e, args)))];
  return { ok: false, problems };
}
