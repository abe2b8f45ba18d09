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
 * The event catalogue: every kind of event a run writes, mapped to its payload. One map,
 * declared in parts by the room that owns each fact (TypeScript merges them, as the DOM's
 * WindowEventMap): the canvas's own kinds here, and each room's in its `events.ts`:
 *   provenance/events.ts  provenance.call, provenance.call.end, provenance.artifact,
 *                         provenance.status, provenance.concern, guard.verdict
 *   hpc/events.ts         job.transition, job.progress
 *   llm/events.ts         llm.usage
 *   guard/events.ts       approval.request, approval.answer, approval.proceeded, approval.closed,
 *                         report.judged
 *   plan/events.ts        step.start, step.end
 *   workflows/events.ts   workflow.inputs
 *   agents/events.ts      supervisor.planned, supervisor.replan, supervisor.replanned,
 *                         workflow.rerun, workflow.stale-remains, workflow.superseded
 *   run/events.ts         run.settings, run.recovered
 * Writing a kind that is not in the catalogue, or a payload of the wrong shape, does not
 * compile. Each events.ts also gives its kinds' payload schemas, which run/eventCatalogue.ts
 * gathers to check every event read from disk (a log line of an unknown kind or a malformed
 * payload is refused with its line number, never guessed at).
 */
export interface EventCatalogue {
  'run.start': RunStartPayload;
  'run.state': RunStatePayload;
  /** notes/*, plan, reports/*, ... */
  'key.write': KeyWritePayload;
  /** Canvas.markVerified: the key becomes immutable. */
  'key.verified': { version: number; reason: string };
  /** A value edited in the notebook. */
  'user.edit': { key: string; value: unknown; reason: string };
}

export type EventKind = keyof EventCatalogue;

/** The members every event line has, whatever its kind. */
interface EventEnvelope {
  v: number;
  /** 1-based, contiguous: a gap means damage. */
  seq: number;
  /** ISO 8601 time of the append. */
  ts: string;
  actor: Actor;
  key?: string;
  crc: string;
}

/**
 * One line of the log, of kind K (any kind by default: a union a reader narrows on `kind`, so
 * the payload is the catalogue's for that kind and is never cast). `crc` is a checksum over
 * the line's JSON without `crc` (see eventLine.ts for the exact form), so a torn or edited
 * line is found.
 */
export type CanvasEvent<K extends EventKind = EventKind> = { [P in K]: EventEnvelope & { kind: P; payload: EventCatalogue[P] } }[K];

/** Whether an event is of kind K (for filters and finds that test more than the kind). */
export function isEventOf<K extends EventKind>(e: CanvasEvent, kind: K): e is CanvasEvent<K> & CanvasEvent {
  return e.kind === kind;
}

/** The events of one kind, typed by it. */
export function eventsOf<K extends EventKind>(events: readonly CanvasEvent[], kind: K): CanvasEvent<K>[] {
  return events.filter((e): e is CanvasEvent<K> & CanvasEvent => e.kind === kind);
}

/** What is appended: an event of one kind with its payload (the log adds v, seq, ts and crc). */
export interface AppendInput<K extends EventKind = EventKind> {
  kind: K;
  key?: string;
  payload: EventCatalogue[K];
  actor: Actor;
}

/** The kind and payload of an event, one member per kind (for folds over events of any origin). */
export type EventBody<K extends EventKind = EventKind> = { [P in K]: { kind: P; payload: EventCatalogue[P] } }[K];

/** Where a room writes its events (the run's EventLog): a typed append and what was written so far. */
export interface EventWriter {
  append<K extends EventKind>(input: AppendInput<K>): Promise<CanvasEvent<K>>;
  events(): readonly CanvasEvent[];
}

export type RunState = 'created' | 'running' | 'paused' | 'waiting-approval' | 'stopped' | 'completed' | 'failed';

export interface RunStatePayload {
  state: RunState;
  /** Why the run stopped, failed or waits. */
  reason?: string;
}

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
