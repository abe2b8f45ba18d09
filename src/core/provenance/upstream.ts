/**
 * Upstream walks over the provenance view: from an artifact or a call back through the
 * calls that created its inputs. Used to show a value's provenance in an approval and to
 * find every call that contributed to a report.
 */
import type { ToolCallRecord } from './types';
import { parseRef, type ProvenanceView } from './view';

/** Artifact and call ids upstream of the given references, nearest first (breadth-first). */
export function upstreamPath(view: ProvenanceView, refs: string[], limit = 50): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const queue = refs.map((r) => parseRef(r)?.artifactId).filter((id): id is string => !!id);
  while (queue.length && out.length < limit) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const a = view.artifact(id);
    if (!a) continue;
    out.push(a.id);
    if (!seen.has(a.creator)) {
      seen.add(a.creator);
      out.push(a.creator);
    }
    for (const input of a.inputs) {
      const next = parseRef(input)?.artifactId;
      if (next && !seen.has(next)) queue.push(next);
    }
  }
  return out;
}

/** Every call upstream of the given artifacts (their creators and their inputs' creators), in creation order. */
export function contributingCalls(view: ProvenanceView, artifactIds: string[]): ToolCallRecord[] {
  const ids = upstreamPath(view, artifactIds, 10_000).filter((id) => id.startsWith('c-'));
  return ids
    .map((id) => view.call(id))
    .filter((c): c is ToolCallRecord => !!c)
    .sort((a, b) => Number(a.id.slice(2)) - Number(b.id.slice(2)));
}

/** Artifacts downstream of the given ones (transitively), through recorded inputs. */
export function downstreamArtifacts(view: ProvenanceView, artifactIds: string[]): string[] {
  const marked = new Set(artifactIds);
  const out: string[] = [];
  for (const a of view.artifacts()) {
    if (marked.has(a.id)) continue;
    if (a.inputs.some((r) => marked.has(parseRef(r)?.artifactId ?? ''))) {
      marked.add(a.id);
      out.push(a.id);
    }
  }
  return out;
}
