/**
 * What the guard needs from the modules around it, stated narrowly so the guard can be
 * tested on its own and wired to the provenance registry and event log of a run.
 */
import type { Actor, CanvasEvent, EventKind } from '../canvas/types';
import type { ArtifactRecord, ArtifactStatus, Concern, Ref, ToolCallRecord, ArtifactDraft } from './types';
import type { Verdict } from './types';
import { resolveRef as resolveReference, type Resolution } from './references';

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

// References are parsed and resolved by provenance/references.ts, the same code the
// registry checks them with, so the guard and the registry cannot disagree about one.
export { parseRef, isRef, type ParsedRef, type Resolution } from './references';

/** Resolve "a-12" or "a-12.chosen.ecutwfcRy" against a provenance view. */
export function resolveRef(view: ProvenanceView, ref: Ref): Resolution {
  return resolveReference((id) => view.artifact(id), ref);
}
