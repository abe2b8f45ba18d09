/**
 * The canvas contract: the append-only event log every other module writes through,
 * and the keyed view agents read and write. Implementation: eventLog.ts, canvas.ts.
 */

/** Who acts. Agents and judges carry their role and model; tools their name. */
export type AgentRole = 'supervisor' | 'dft' | 'hpc' | 'advisor';
export type JudgeRole = 'param-judge' | 'cross-judge' | 'report-judge';
export type LlmRole = AgentRole | JudgeRole | 'planner';

export interface Actor {
  kind: 'agent' | 'judge' | 'tool' | 'user' | 'framework';
  /** Agent role, judge role, tool name, user name, or framework component. */
  id: string;
  model?: string;
}

/** Version of the event line format. A log of a newer version is refused on open. */
export const EVENT_FORMAT_VERSION = 1;

/**
 * One line of the log. `crc` is a checksum over the line's JSON without `crc`
 * (see eventLog.ts for the exact canonical form), so a torn or edited line is found.
 */
export interface CanvasEvent<P = unknown> {
  v: number;
  /** 1-based, contiguous: a gap means damage. */
  seq: number;
  /** ISO 8601 time of the append. */
  ts: string;
  actor: Actor;
  kind: EventKind;
  key?: string;
  payload: P;
  crc: string;
}

/**
 * Event kinds. Modules add their own under their prefix ("job.", "approval.", ...);
 * the canvas treats unknown kinds as opaque but keeps them.
 */
export type EventKind =
  | 'run.start' // payload: RunStartPayload
  | 'run.state' // payload: { state: RunState; reason?: string }
  | 'key.write' // payload: KeyWritePayload (notes/*, plan, reports/*, ...)
  | 'key.verified' // payload: { version: number; reason: string } (Canvas.markVerified; the key becomes immutable)
  | 'provenance.call' // payload: ToolCallRecord (provenance/types.ts)
  | 'provenance.call.end' // payload: { id, status, endedAt, error?, outputs: string[] }
  | 'provenance.artifact' // payload: ArtifactRecord
  | 'provenance.status' // payload: { ids: string[]; status: ArtifactStatus; reason: string }
  | 'provenance.concern' // payload: { id: string; concern: Concern }
  | 'guard.verdict' // payload: { call: string; verdicts: Verdict[] }
  | 'approval.request' // payload: ApprovalRequest (guard/types.ts)
  | 'approval.answer' // payload: ApprovalAnswer
  | 'job.transition' // payload: JobRecord snapshot (hpc/types.ts)
  | 'job.progress' // payload: { id, progress } (throttled)
  | 'llm.usage' // payload: UsageRecord (llm/types.ts)
  | 'objective' // payload: { cellId?: string; text: string }
  | 'user.edit' // payload: { key, value, reason } from the notebook
  | (string & {});

export type RunState = 'created' | 'running' | 'paused' | 'waiting-approval' | 'stopped' | 'completed' | 'failed';

export interface RunStartPayload {
  runId: string;
  objective: string;
  /** Workflow template id, when the run starts from one. */
  workflow?: string;
  settings: Record<string, unknown>;
  software: Record<string, string>;
}

export interface KeyWritePayload {
  value: unknown;
  reason: string;
  /** 1-based version of this key after the write. */
  version: number;
}

/** How a key space may be written. */
export type KeyMode =
  | 'versioned' // every write is a new version; reads return the latest unless asked
  | 'immutable' // written once
  | 'overwrite' // later writes replace (still logged)
  | 'framework'; // only the framework writes; agents may read

export interface KeySpec {
  /** Glob-like prefix: "notes/*", "plan", "reports/*". */
  pattern: string;
  mode: KeyMode;
  /** Optional JSON schema (ajv) the value must satisfy. */
  schema?: object;
  /** A named condition that must hold for a write (e.g. "report not yet verified"). */
  protectedBy?: string;
  description: string;
}

export interface KeySummary {
  key: string;
  mode: KeyMode;
  versions: number;
  /** One line a model or a person can scan. */
  summary: string;
  lastSeq: number;
}

export type WriteResult =
  | { ok: true; key: string; version: number; seq: number; message: string }
  | { ok: false; key: string; message: string };

export type ReadResult =
  | { ok: true; key: string; version: number; versions: number; value: unknown; seq: number }
  | { ok: false; key: string; message: string; closest: string[] };

/** What opening a log found and did. */
export interface RecoveryReport {
  eventsRead: number;
  /** Non-empty when the tail was cut. */
  damage?: {
    line: number;
    byteOffset: number;
    problem: 'torn-line' | 'bad-checksum' | 'invalid-json' | 'sequence-gap' | 'bad-shape' | 'oversized-line';
    detail: string;
    /** Where the damaged file was copied before it was cut. */
    backup: string;
    linesDropped: number;
  };
  /** Set when a writer took over the lock of a process that no longer runs on this host. */
  staleLock?: { pid: number; host: string; startedAt: string };
  /**
   * Readers: bytes after the last complete line (no line end yet). A live writer may still be
   * writing them; with no live writer they are a torn last line (see recoveryReport.ts).
   */
  unfinishedTail?: { line: number; byteOffset: number; bytes: number };
}

/** Durability: when an append's promise resolves, the event is on disk (see eventLog.ts). */
export type DurabilityPolicy = 'fsync-each' | 'group-commit';

/** The read side every view (notebook, CLI, provenance graph) builds on. */
export interface EventSource {
  events(): readonly CanvasEvent[];
  lastSeq(): number;
  /** Called after each durable append, in order. Returns an unsubscribe function. */
  subscribe(listener: (e: CanvasEvent) => void): () => void;
}
