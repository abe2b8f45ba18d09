/**
 * What the guard needs from the modules around it, stated narrowly so the guard can be
 * tested on its own and wired to the provenance registry and event log of a run.
 */
import type { Actor, CanvasEvent, EventKind } from '../canvas/types';
import type { ArtifactRecord, ArtifactStatus, Concern, Ref, ToolCallRecord, ArtifactDraft } from '../provenance/types';
import type { Verdict } from './types';

/** Read side of the provenance registry. */
export interface ProvenanceView {
  artifact(id: string): ArtifactRecord | undefined;
  call(id: string): ToolCallRecord | undefined;
  /** Every artifact in creation order. */
  artifacts(): readonly ArtifactRecord[];
}

/** Write side the guarded call uses. Every method is durable when its promise resolves. */
export interface ProvenanceWriter extends ProvenanceView {
  recordCall(call: Omit<ToolCallRecord, 'id' | 'outputs' | 'status' | 'startedAt'>): Promise<ToolCallRecord>;
  recordVerdicts(callId: string, verdicts: Verdict[]): Promise<void>;
  endCall(callId: string, end: { status: 'ok' | 'failed' | 'refused'; error?: string }): Promise<unknown>;
  registerArtifacts(callId: string, drafts: ArtifactDraft[], concerns: Concern[]): Promise<ArtifactRecord[]>;
  addConcern(artifactId: string, concern: Concern): Promise<void>;
  markStatus(ids: string[], status: ArtifactStatus, reason: string): Promise<void>;
}

/** The event log as the approval store uses it. */
export interface EventLogPort {
  events(): readonly CanvasEvent[];
  subscribe(listener: (e: CanvasEvent) => void): () => void;
  append(e: { kind: EventKind; actor: Actor; key?: string; payload: unknown }): Promise<CanvasEvent>;
}

/** A reference split into its artifact id and the path into the artifact's value. */
export interface ParsedRef {
  artifactId: string;
  path: string[];
}

const REF_PATTERN = /^(a-\d+)((?:\.[A-Za-z0-9_]+)*)$/;

export function parseRef(ref: Ref): ParsedRef | undefined {
  const m = REF_PATTERN.exec(ref);
  if (!m) return undefined;
  return { artifactId: m[1]!, path: m[2] ? m[2].slice(1).split('.') : [] };
}

export const isRef = (value: unknown): value is Ref => typeof value === 'string' && REF_PATTERN.test(value);

export type Resolution =
  | { ok: true; artifact: ArtifactRecord; value: unknown }
  | { ok: false; problem: string };

/** Resolve "a-12" or "a-12.chosen.ecutwfcRy" against a provenance view. */
export function resolveRef(view: ProvenanceView, ref: Ref): Resolution {
  const parsed = parseRef(ref);
  if (!parsed) {
    return { ok: false, problem: `"${ref}" is not a reference: write "a-<n>" or "a-<n>.<path>" (e.g. "a-12.chosen.ecutwfcRy")` };
  }
  const artifact = view.artifact(parsed.artifactId);
  if (!artifact) {
    return { ok: false, problem: `no artifact ${parsed.artifactId} in this run: inspect the canvas for the artifact you meant` };
  }
  let value: unknown = artifact.value;
  for (let i = 0; i < parsed.path.length; i++) {
    const part = parsed.path[i]!;
    if (value === null || typeof value !== 'object' || !(part in (value as object))) {
      const at = [parsed.artifactId, ...parsed.path.slice(0, i)].join('.');
      const keys = value !== null && typeof value === 'object' ? Object.keys(value as object).slice(0, 12) : [];
      return {
        ok: false,
        problem: `${at} has no field "${part}"` + (keys.length ? ` (it has: ${keys.join(', ')})` : ' (it is not an object)'),
      };
    }
    value = (value as Record<string, unknown>)[part];
  }
  return { ok: true, artifact, value };
}
