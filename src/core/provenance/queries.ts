/**
 * Questions asked of the provenance graph.
 *
 *   upstream(view, 'a-42')          the artifacts, tool calls and literal arguments behind a value
 *   downstream(view, 'a-12')        every artifact computed, directly or not, from a-12
 *   markStale(registry, 'a-12', r)  a-12 and everything downstream of it become stale, with reasons
 *   supersede(registry, old, new, r)  the same, when a newer artifact replaces an input
 */
import { artifactIdOf, parseRef } from './references';
import type { ProvenanceRegistry } from './registry';
import { ProvenanceError, type ArtifactRecord, type Ref, type ToolCallRecord } from './types';
import type { ProvenanceView } from './view';

/** The read view (view.ts ProvenanceView's artifact and call) with what was derived from each artifact, for walks both ways. */
export interface DependentsView extends Pick<ProvenanceView, 'artifact' | 'call'> {
  dependentsOf(id: string): readonly string[];
}

/** An argument a call was given as a literal: chosen (and reasoned about), not derived. */
export interface LiteralInput {
  call: string;
  tool: string;
  parameter: string;
  value: unknown;
  reason?: string;
}

export type ProvenanceEdge =
  | { relation: 'generated-by'; from: string; to: string } // artifact → the call that created it
  | { relation: 'used'; from: string; to: string; parameter: string; ref: Ref } // call → artifact an argument came from
  | { relation: 'derived-from'; from: string; to: string; ref: Ref }; // artifact → its input

export interface UpstreamWalk {
  root: string;
  /** The root first, then breadth-first towards the inputs. */
  artifacts: ArtifactRecord[];
  calls: ToolCallRecord[];
  literals: LiteralInput[];
  edges: ProvenanceEdge[];
}

export function upstream(view: DependentsView, ref: Ref): UpstreamWalk {
  const root = requireArtifact(view, ref);
  const walk: UpstreamWalk = { root: root.id, artifacts: [], calls: [], literals: [], edges: [] };
  const seenArtifacts = new Set([root.id]);
  const seenCalls = new Set<string>();
  const queue: ArtifactRecord[] = [root];
  for (let head = 0; head < queue.length; head++) {
    const a = queue[head]!;
    walk.artifacts.push(a);
    walk.edges.push({ relation: 'generated-by', from: a.id, to: a.creator });
    if (!seenCalls.has(a.creator)) {
      seenCalls.add(a.creator);
      const c = view.call(a.creator);
      if (c) {
        walk.calls.push(c);
        for (const [parameter, arg] of Object.entries(c.args)) {
          if (arg.ref === undefined)
            walk.literals.push({
              call: c.id,
              tool: c.tool,
              parameter,
              value: arg.value,
              ...(c.reasons[parameter] ? { reason: c.reasons[parameter] } : {}),
            });
          else walk.edges.push({ relation: 'used', from: c.id, to: artifactIdOf(arg.ref), parameter, ref: arg.ref });
        }
      }
    }
    for (const input of a.inputs) {
      const id = artifactIdOf(input);
      walk.edges.push({ relation: 'derived-from', from: a.id, to: id, ref: input });
      if (seenArtifacts.has(id)) continue;
      seenArtifacts.add(id);
      const up = view.artifact(id);
      if (up) queue.push(up);
    }
  }
  return walk;
}

/** Every artifact computed from `ref`'s artifact, directly or not, breadth-first (the root excluded). */
export function downstream(view: DependentsView, ref: Ref): ArtifactRecord[] {
  const root = requireArtifact(view, ref);
  const seen = new Set([root.id]);
  const out: ArtifactRecord[] = [];
  const queue = [root.id];
  for (let head = 0; head < queue.length; head++) {
    for (const id of view.dependentsOf(queue[head]!)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const a = view.artifact(id);
      if (!a) continue;
      out.push(a);
      queue.push(id);
    }
  }
  return out;
}

/**
 * Mark an artifact stale and, with a reason naming it, everything downstream of it.
 * Returns the ids whose status changed (already stale ones are left as they are).
 */
export async function markStale(registry: ProvenanceRegistry, ref: Ref, reason: string): Promise<string[]> {
  const root = requireArtifact(registry, ref);
  const changed: string[] = [];
  if (root.status !== 'stale') {
    await registry.markStatus([root.id], 'stale', reason);
    changed.push(root.id);
  }
  const dependents = downstream(registry, root.id)
    .filter((a) => a.status !== 'stale')
    .map((a) => a.id);
  if (dependents.length) {
    await registry.markStatus(dependents, 'stale', `computed from ${root.id} (${root.name}), which is stale: ${reason}`);
    changed.push(...dependents);
  }
  return changed;
}

/** `oldRef`'s artifact was replaced by `newRef`'s: it and its dependents become stale. */
export function supersede(registry: ProvenanceRegistry, oldRef: Ref, newRef: Ref, reason: string): Promise<string[]> {
  const replacement = requireArtifact(registry, newRef);
  return markStale(registry, oldRef, `superseded by ${replacement.id} (${replacement.name}): ${reason}`);
}

function requireArtifact(view: DependentsView, ref: Ref): ArtifactRecord {
  const parsed = parseRef(ref);
  const a = parsed && view.artifact(parsed.artifactId);
  if (!a) {
    throw new ProvenanceError(
      'unknown-reference',
      parsed
        ? `${parsed.artifactId} does not exist in this run: inspect artifacts/ for the artifact you meant.`
        : `${JSON.stringify(ref)} is not a reference: write "a-<n>" (e.g. "a-12").`,
    );
  }
  return a;
}
