/**
 * The provenance graph as the webview draws it, and the messages between the
 * provenance panel (extension host) and its webview. Types only: both sides import it.
 */

/** Colour class of a node: the worst verdict or concern that applies to it. */
export type NodeVerdict = 'pass' | 'warn' | 'fail' | 'not-judged' | 'none';

export interface ProvenanceGraphNode {
  /** "c-<n>" for tool calls, "a-<n>" for artifacts. */
  id: string;
  type: 'call' | 'artifact';
  /** Tool name for calls; artifact name for artifacts. */
  label: string;
  /** Second line: an artifact's value and unit, a call's status. */
  detail: string;
  /** Artifact kind ("scalar", "qe-input", ...) or the call's status. */
  kind: string;
  verdict: NodeVerdict;
  stale: boolean;
  warned: boolean;
  failed: boolean;
  /** Notebook cell id showing it (canvas key), when there is one. */
  cell?: string;
  /** File-backed artifact: path relative to the run directory. */
  file?: string;
  /** Job run by this call (calls) or producing this output (artifacts). */
  job?: string;
}

export interface ProvenanceGraphEdge {
  from: string;
  to: string;
  /** input: artifact used as an argument of a call; create: call created the artifact. */
  kind: 'input' | 'create';
}

export type GraphScope = { kind: 'run' } | { kind: 'upstream'; of: string };

export interface ProvenanceGraph {
  runId: string;
  scope: GraphScope;
  nodes: ProvenanceGraphNode[];
  edges: ProvenanceGraphEdge[];
}

/** What a click asks the host to show. */
export type RevealTarget = 'cell' | 'file' | 'job';

export type HostToGraphMessage =
  | { type: 'graph'; graph: ProvenanceGraph; select?: string; persist?: ProvenancePanelState }
  | { type: 'select'; id: string }
  | { type: 'notice'; level: 'info' | 'error'; text: string };

export type GraphToHostMessage =
  | { type: 'ready' }
  | { type: 'reveal'; id: string; target: RevealTarget }
  | { type: 'upstream'; id: string }
  | { type: 'edit-template'; id: string }
  | { type: 'whole-run' }
  /** Drawn: first with the provisional layout (phase 'quick'), then with the refined one that replaces it. */
  | {
      type: 'rendered';
      nodes: number;
      edges: number;
      layoutMs: number;
      renderMs: number;
      layout: 'worker' | 'main-thread';
      phase?: 'quick' | 'refined';
    }
  | { type: 'error'; text: string };

/** Persisted by the webview (setState) so the panel comes back after a restart. */
export interface ProvenancePanelState {
  /** The run's event log, as a URI string. */
  log: string;
  scope: GraphScope;
  filters?: GraphFilters;
}

export interface GraphFilters {
  stale: boolean;
  warned: boolean;
  failed: boolean;
}
