/**
 * Step 1 of the guarded call: the arguments against the tool's JSON schema, with an
 * error a model can correct (which argument, what was expected, what was given).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { ARTIFACT_KEYWORD, artifactArguments, SEED_KEYWORD, UNIT_KEYWORD } from './schemaAnnotations';

// strictRequired off: "one of these arguments is required" is written as anyOf of required lists.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
ajv.addKeyword({ keyword: ARTIFACT_KEYWORD, metaSchema: { type: 'object' } });
ajv.addKeyword({ keyword: UNIT_KEYWORD, metaSchema: { type: 'string' } });
ajv.addKeyword({ keyword: SEED_KEYWORD, metaSchema: { type: 'string' } });

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

const REF = /^a-[0-9]+(\.[A-Za-z0-9_]+)*$/;
const isRefString = (x: unknown): boolean => typeof x === 'string' && REF.test(x);

/**
 * An argument that takes an artifact given anything but its reference (the artifact's
 * content, a file name): one message saying which form it takes, instead of ajv's.
 */
function artifactFormProblems(schema: object, args: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (args === null || typeof args !== 'object') return out;
  for (const [name, { list }] of artifactArguments(schema)) {
    const v = (args as Record<string, unknown>)[name];
    if (v === undefined) continue;
    const ok = list ? Array.isArray(v) && v.every(isRefString) : isRefString(v);
    if (ok) continue;
    const given = JSON.stringify(v)?.slice(0, 80);
    out.set(
      name,
      list
        ? `argument ${name} takes the references of the artifacts it reads as its value, a list such as ["a-4", "a-5"] (given ${given}); references.${name} is not needed`
        : `argument ${name} takes the reference of the artifact it reads as its value, such as "a-4" (given ${given}), not the artifact's content; references.${name} may repeat the same reference or be left out`,
    );
  }
  return out;
}

export function checkArguments(schema: object, toolName: string, args: unknown): SchemaCheck {
  const validate = validatorFor(schema, toolName);
  if (validate(args)) return { ok: true };
  const forms = artifactFormProblems(schema, args);
  const own = (e: ErrorObject) => [...forms.keys()].some((name) => e.instancePath === `/${name}` || e.instancePath.startsWith(`/${name}/`));
  const problems = [...new Set([...forms.values(), ...(validate.errors ?? []).filter((e) => !own(e)).map((e) => describe(e, args))])];
  return { ok: false, problems };
}
