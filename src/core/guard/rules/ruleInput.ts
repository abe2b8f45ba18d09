/**
 * What every tier-1 rule reads, and the helpers they share: the call, the tool's
 * annotated schema, and the provenance registry.
 */
import type { ArtifactRecord, Ref } from '../../provenance/types';
import { isRef, resolveRef, type ProvenanceView, type Resolution } from '../../provenance/view';
import { artifactArguments, type ArtifactExpectation } from '../schemaAnnotations';
import type { ProposedCall, Verdict, VerdictLevel } from '../types';

export interface RuleInput {
  call: ProposedCall;
  /** The tool's JSON schema, with the guard's annotations. */
  schema: object;
  provenance: ProvenanceView;
}

export type TierOneRule = (input: RuleInput) => Verdict[];

export function verdict(rule: string, level: VerdictLevel, reasons: string[], parameter?: string): Verdict {
  return { tier: 'tier1', rule, level, reasons, judged: true, ...(parameter !== undefined ? { parameter } : {}) };
}

/** One reference the call makes: through the references map, or as a reference-valued argument. */
export interface CallReference {
  parameter: string;
  /** Position within a list argument. */
  index?: number;
  ref: Ref;
  /** True when the argument's value is the reference itself (the tool reads the artifact). */
  asArtifact: boolean;
  expect?: ArtifactExpectation;
  resolution: Resolution;
}

export function referencesOf(input: RuleInput): CallReference[] {
  const out: CallReference[] = [];
  const { call, provenance } = input;
  const artifactArgs = artifactArguments(input.schema);
  for (const [parameter, ref] of Object.entries(call.refs)) {
    // An argument that takes an artifact is read through its value; a references entry left
    // beside it names another artifact (assessCall drops one that repeats it): see conflictingReferences.
    if (artifactArgs.has(parameter)) continue;
    out.push({ parameter, ref, asArtifact: false, resolution: resolveRef(provenance, ref) });
  }
  for (const [parameter, { list, expect }] of artifactArgs) {
    const value = call.args[parameter];
    if (list && Array.isArray(value)) {
      value.forEach((ref, index) => {
        if (isRef(ref)) out.push({ parameter, index, ref, asArtifact: true, expect, resolution: resolveRef(provenance, ref) });
      });
    } else if (!list && isRef(value)) {
      out.push({ parameter, ref: value, asArtifact: true, expect, resolution: resolveRef(provenance, value) });
    }
  }
  return out;
}

/**
 * References entries that contradict the value of an argument taking an artifact: the value
 * names one artifact, `references` another (a repeat of the value is dropped before the rules).
 */
export function conflictingReferences(input: RuleInput): { parameter: string; ref: Ref; value: unknown; list: boolean }[] {
  const artifactArgs = artifactArguments(input.schema);
  return Object.entries(input.call.refs)
    .filter(([parameter]) => artifactArgs.has(parameter))
    .map(([parameter, ref]) => ({ parameter, ref, value: input.call.args[parameter], list: artifactArgs.get(parameter)!.list }));
}

export const label = (r: CallReference): string => (r.index === undefined ? r.parameter : `${r.parameter}[${r.index}]`);

/** The artifacts a reference-valued argument names (resolved ones only). */
export function artifactsOf(input: RuleInput, parameter: string): ArtifactRecord[] {
  return referencesOf(input)
    .filter((r) => r.asArtifact && r.parameter === parameter && r.resolution.ok)
    .map((r) => (r.resolution as { artifact: ArtifactRecord }).artifact);
}

/** The resolved value of a reference-valued argument, when it resolves. */
export function resolvedArgument(input: RuleInput, parameter: string): { artifact: ArtifactRecord; value: unknown } | undefined {
  const value = input.call.args[parameter];
  if (!isRef(value)) return undefined;
  const r = resolveRef(input.provenance, value);
  return r.ok ? { artifact: r.artifact, value: r.value } : undefined;
}

export const numberArg = (call: ProposedCall, name: string): number | undefined =>
  typeof call.args[name] === 'number' ? (call.args[name] as number) : undefined;

export const fmt = (x: number, digits = 6): string => String(Number(x.toPrecision(digits)));
