/**
 * Annotations a tool's JSON schema carries for the guard: which arguments are artifact
 * references (and of what kind and name), the unit a numeric argument is in, and which
 * arguments only seed a calculation (a provisional value may be given there, with why).
 * They are ajv keywords here and are stripped from the schema a model sees.
 */
import type { ArtifactKind } from '../provenance/types';
import type { Unit } from '../units';

export const ARTIFACT_KEYWORD = 'x-artifact';
export const UNIT_KEYWORD = 'x-unit';
/** On any argument: it only seeds the calculation (the value is why, in words the guard shows). */
export const SEED_KEYWORD = 'x-seed';

/*
 * The helpers below return their schemas' literal types (not `object`), so a tool's argument
 * type is inferred from its schema (tools/defineTool.ts): a reference is a string, a list of
 * references a string[], a quantity a number.
 */
/** An artifact reference argument's schema. */
export interface ArtifactRefSchema {
  readonly type: 'string';
  readonly pattern: string;
  readonly description: string;
  readonly [ARTIFACT_KEYWORD]: ArtifactExpectation;
}

export interface ArtifactExpectation {
  /** Kinds the referenced artifact may have. */
  kinds?: ArtifactKind[];
  /** Domain names the referenced artifact may have ("total_energy", "eos_fit"). */
  names?: string[];
  /** Unit dimension the referenced value must have (checked with sameDimension). */
  unit?: Unit;
  /**
   * The argument only seeds an iterative calculation whose converged result does not depend
   * on it (the starting geometry of a relaxation), so a provisional value may be given:
   * why, in words the guard shows.
   */
  seedOnly?: string;
}

export const REF_REGEX_SOURCE = '^a-[0-9]+(\\.[A-Za-z0-9_]+)*$';

/** An argument whose value is a reference to an artifact the tool reads. */
export function artifactRefSchema(description: string, expect: ArtifactExpectation): ArtifactRefSchema {
  return { type: 'string', pattern: REF_REGEX_SOURCE, description, [ARTIFACT_KEYWORD]: expect };
}

/** An argument listing references to artifacts the tool reads. */
export function artifactRefListSchema(
  description: string,
  expect: ArtifactExpectation,
  bounds: { minItems?: number; maxItems?: number } = {},
): {
  readonly type: 'array';
  readonly description: string;
  readonly items: Omit<ArtifactRefSchema, 'description'>;
  readonly minItems?: number;
  readonly maxItems?: number;
} {
  return {
    type: 'array',
    description,
    items: { type: 'string', pattern: REF_REGEX_SOURCE, [ARTIFACT_KEYWORD]: expect },
    ...bounds,
  };
}

/** A string enum over values listed elsewhere (a table's names, a map's keys): typed as their union, never empty. */
export function enumSchema<const T extends string>(values: readonly T[]): { readonly type: 'string'; readonly enum: [T, ...T[]] } {
  const [first, ...rest] = values;
  if (first === undefined) throw new Error('an enum argument needs at least one value');
  return { type: 'string', enum: [first, ...rest] };
}

/** A number in a stated unit. */
export function quantitySchema(
  description: string,
  unit: Unit,
  bounds: { exclusiveMinimum?: number; minimum?: number; maximum?: number } = {},
): {
  readonly type: 'number';
  readonly description: string;
  readonly [UNIT_KEYWORD]: Unit;
  readonly exclusiveMinimum?: number;
  readonly minimum?: number;
  readonly maximum?: number;
} {
  return { type: 'number', description: `${description} (${unit})`, [UNIT_KEYWORD]: unit, ...bounds };
}

type Schema = Record<string, unknown>;

function propertiesOf(schema: object): Record<string, Schema> {
  const props = (schema as Schema).properties;
  return props && typeof props === 'object' ? (props as Record<string, Schema>) : {};
}

/**
 * An argument (of any type) that only seeds a calculation whose result does not depend on it,
 * such as a starting lattice constant that an EOS or a vc-relax moves away from: a
 * provisional value may be given, and it is recorded as a seed, an input of nothing.
 */
export function seedOnlySchema<S extends object>(schema: S, why: string): S & { readonly [SEED_KEYWORD]: string } {
  return { ...schema, [SEED_KEYWORD]: why };
}

/** Why an argument only seeds the calculation, when its schema says so (either annotation). */
export function seedOnlyReason(schema: object, name: string): string | undefined {
  const prop = propertiesOf(schema)[name];
  if (!prop) return undefined;
  const own = prop[SEED_KEYWORD];
  if (typeof own === 'string') return own;
  const artifact = (prop[ARTIFACT_KEYWORD] ?? (prop.items as Schema | undefined)?.[ARTIFACT_KEYWORD]) as ArtifactExpectation | undefined;
  return artifact?.seedOnly;
}

/** Arguments that only seed the calculation. */
export function seedArgumentNames(schema: object): Set<string> {
  return new Set(Object.keys(propertiesOf(schema)).filter((name) => seedOnlyReason(schema, name) !== undefined));
}

/**
 * Whether a top-level argument may hold a string: if not, a reference "a-12.x" given as its
 * value can only mean "the recorded value behind this reference".
 */
export function admitsString(schema: object, name: string): boolean {
  const prop = propertiesOf(schema)[name];
  if (!prop) return true;
  const type = prop.type;
  if (type === undefined) return true;
  return Array.isArray(type) ? type.includes('string') : type === 'string';
}

/** Top-level arguments whose value is a reference (or a list of references), with what they expect. */
export function artifactArguments(schema: object): Map<string, { list: boolean; expect: ArtifactExpectation }> {
  const found = new Map<string, { list: boolean; expect: ArtifactExpectation }>();
  for (const [name, prop] of Object.entries(propertiesOf(schema))) {
    if (prop[ARTIFACT_KEYWORD]) found.set(name, { list: false, expect: prop[ARTIFACT_KEYWORD] as ArtifactExpectation });
    const items = prop.items as Schema | undefined;
    if (items && items[ARTIFACT_KEYWORD]) found.set(name, { list: true, expect: items[ARTIFACT_KEYWORD] as ArtifactExpectation });
  }
  return found;
}

/** The declared unit of a top-level numeric argument. */
export function unitOfArgument(schema: object, name: string): Unit | undefined {
  return propertiesOf(schema)[name]?.[UNIT_KEYWORD] as Unit | undefined;
}

/** A copy of the schema without the guard's keywords, for a model's tool definition. */
export function stripAnnotations<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(stripAnnotations) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k === ARTIFACT_KEYWORD || k === UNIT_KEYWORD || k === SEED_KEYWORD) continue;
    out[k] = stripAnnotations(v);
  }
  return out as T;
}
