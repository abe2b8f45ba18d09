/**
 * The provenance a guarded call and a tool body see: the read view and the write side of a
 * run's registry (registry.ts implements both), and references resolved against a view.
 * Stated narrowly so the guard and the tools can be tested against an in-memory stand-in.
 */
import type { ArtifactDraft, ArtifactRecord, ArtifactStatus, Concern, DeclaredOutputs, Ref, ToolCallRecord, Verdict } from './types';
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
  endCall(callId: string, end: { status: 'ok' | 'failed' | 'refused'; error?: string; summary?: string }): Promise<unknown>;
  /** `declared`: the tool's outputs; an artifact it does not declare is refused (ProvenanceError 'undeclared-artifact'). */
  registerArtifacts(callId: string, drafts: ArtifactDraft[], concerns: Concern[], declared?: DeclaredOutputs): Promise<ArtifactRecord[]>;
  addConcern(artifactId: string, concern: Concern): Promise<void>;
  markStatus(ids: string[], status: ArtifactStatus, reason: string): Promise<void>;
}

// References are parsed and resolved by provenance/references.ts, the same code the
// registry checks them with, so the guard and the registry cannot disagree about one.
export { parseRef, isRef, type ParsedRef, type Resolution } from './references';

/** Resolve "a-12" or "a-12.chosen.ecutwfcRy" against a provenance view. */
export function resolveRef(view: ProvenanceView, ref: Ref): Resolution {
  return resolveReference((id) => view.artifact(id), ref);
}
