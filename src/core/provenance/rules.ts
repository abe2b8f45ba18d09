/**
 * The insert rules of the provenance graph, one function each, so each can be checked
 * (and tested) on its own. Each throws a ProvenanceError naming the rule, the input that
 * broke it and what to do.
 *
 *   single creator      an artifact is created by exactly one tool call, which exists and
 *                       is still running; an existing artifact id is never created again
 *   references exist    every reference names an existing artifact (and a path inside it)
 *   acyclic             the data plane (artifact → its inputs) has no cycle
 *   values match        an argument that carries a reference equals the recorded value
 *                       (up to floating-point noise, or the artifact's tolerance); a bare reference
 *                       to a file-backed artifact may also carry its location or content hash
 */
import { artifactIdOf, brief, NOISE_TOLERANCE, resolveRef, valueDifference } from './references';
import { ProvenanceError, type ArgumentRecord, type ArtifactRecord, type Ref, type ToolCallRecord } from './types';

export interface ProvenanceLookup {
  artifact(id: string): ArtifactRecord | undefined;
  call(id: string): ToolCallRecord | undefined;
  /** Artifacts whose inputs name `id` directly. */
  dependentsOf(id: string): readonly string[];
}

/** An argument whose reference does not hold, as the guard's tier-1 rule reports it. */
export interface ArgumentProblem {
  parameter: string;
  rule: 'unknown-reference' | 'value-mismatch';
  message: string;
}

export function checkSingleCreator(state: ProvenanceLookup, artifactId: string, creator: string): void {
  const existing = state.artifact(artifactId);
  if (existing) {
    throw new ProvenanceError(
      'single-creator',
      `${artifactId} already exists, created by ${existing.creator}; an artifact has exactly one creator and never changes. Register the new value as a new artifact.`,
    );
  }
  const call = state.call(creator);
  if (!call) {
    throw new ProvenanceError(
      'unknown-call',
      `no tool call ${creator} in this run: register artifacts with the call id that recordCall returned.`,
    );
  }
  if (call.status !== 'running') {
    throw new ProvenanceError(
      'immutable',
      `call ${creator} (${call.tool}) already ended (${call.status}${call.endedAt ? ` at ${call.endedAt}` : ''}); its outputs are fixed. Register artifacts before ending the call.`,
    );
  }
}

export function checkReferencesExist(state: ProvenanceLookup, refs: readonly Ref[], owner: string): void {
  for (const ref of refs) {
    const r = resolveRef((id) => state.artifact(id), ref);
    if (!r.ok) throw new ProvenanceError('unknown-reference', `${owner} names input ${JSON.stringify(ref)}: ${r.problem}.`);
  }
}

/**
 * `artifactId` may take `inputs` only if none of them already depends on it. A brand-new
 * id has no dependents, so only a self-reference can close a cycle; otherwise walk.
 */
export function checkNoCycle(state: ProvenanceLookup, artifactId: string, inputs: readonly Ref[]): void {
  const inputIds = [...new Set(inputs.map(artifactIdOf))];
  if (inputIds.includes(artifactId)) {
    throw new ProvenanceError('cycle', `${artifactId} cannot take itself as an input: the data plane must stay acyclic.`);
  }
  if (state.dependentsOf(artifactId).length === 0) return;
  for (const start of inputIds) {
    const path = upstreamPath(state, start, artifactId);
    if (path) {
      throw new ProvenanceError(
        'cycle',
        `${artifactId} cannot take ${start} as an input: ${start} already depends on ${artifactId} (${path.join(' ← ')}); the data plane must stay acyclic.`,
      );
    }
  }
}

/** A chain from `from` up its inputs to `target`, if one exists. */
function upstreamPath(state: ProvenanceLookup, from: string, target: string): string[] | undefined {
  const parent = new Map<string, string>();
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === target) {
      const chain = [id];
      for (let p = parent.get(id); p !== undefined; p = parent.get(p)) chain.push(p);
      return chain.reverse();
    }
    for (const ref of state.artifact(id)?.inputs ?? []) {
      const up = artifactIdOf(ref);
      if (!seen.has(up)) {
        seen.add(up);
        parent.set(up, id);
        stack.push(up);
      }
    }
  }
  return undefined;
}

/** Every referenced argument that does not hold, without throwing. */
export function argumentProblems(state: ProvenanceLookup, args: Record<string, ArgumentRecord>): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  for (const [parameter, arg] of Object.entries(args)) {
    if (arg.ref === undefined) continue;
    const r = resolveRef((id) => state.artifact(id), arg.ref);
    if (!r.ok) {
      problems.push({
        parameter,
        rule: 'unknown-reference',
        message: `argument "${parameter}" refers to ${JSON.stringify(arg.ref)}: ${r.problem}. Fix the reference, or pass a literal with a reason.`,
      });
      continue;
    }
    // A file-backed artifact is also named by its location or content hash.
    const namesFile =
      r.artifact.location !== undefined &&
      !arg.ref.includes('.') &&
      (arg.value === r.artifact.location || arg.value === r.artifact.contentHash);
    const diff = namesFile ? undefined : valueDifference(arg.value, r.value, r.artifact.tolerance);
    if (diff) {
      const unit = r.artifact.unit ? ` ${r.artifact.unit}` : '';
      const tol = r.artifact.tolerance
        ? `within tolerance ${JSON.stringify(r.artifact.tolerance)}`
        : `up to floating-point noise, ${NOISE_TOLERANCE.rel} of its value`;
      const where = diff.startsWith('the value') ? '' : `; differs at ${diff}`;
      problems.push({
        parameter,
        rule: 'value-mismatch',
        message: `argument "${parameter}" = ${brief(arg.value)} but ${arg.ref} records ${brief(r.value)}${unit} (must match ${tol}${where}). Pass the recorded value, or drop the reference and give a reason for the literal.`,
      });
    }
  }
  return problems;
}

export function checkReferencedValues(state: ProvenanceLookup, args: Record<string, ArgumentRecord>, owner: string): void {
  const [first, ...more] = argumentProblems(state, args);
  if (first) {
    throw new ProvenanceError(
      first.rule,
      `${owner}: ${first.message}${more.length ? ` (and ${more.length} more: ${more.map((p) => p.parameter).join(', ')})` : ''}`,
    );
  }
}
