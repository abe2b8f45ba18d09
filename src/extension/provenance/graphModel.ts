/**
 * The provenance graph of a run, folded from its event log: tool calls and artifacts,
 * input and create edges, verdict colours, stale/warned/failed flags, and the cell,
 * file or job each node can reveal. Pure: no VS Code API, so it is unit-tested in Node.
 */
import type { CanvasEvent } from '../../core/canvas/types';
import type { Verdict } from '../../core/guard/types';
import type { ArtifactRecord, ArtifactStatus, Concern, ToolCallRecord, ToolCallStatus } from '../../core/provenance/types';
import { CallGroups } from '../../core/report/callGroups';
import { formulaOf } from '../../core/tools/runOutput';
import type { GraphScope, NodeVerdict, ProvenanceGraph, ProvenanceGraphEdge, ProvenanceGraphNode } from '../../shared/provenanceGraph';

const artifactOf = (ref: string): string | undefined => /^(a-\d+)/.exec(ref)?.[1];

const RANK: Record<NodeVerdict, number> = { none: 0, pass: 1, 'not-judged': 2, warn: 3, fail: 4 };
const worse = (a: NodeVerdict, b: NodeVerdict): NodeVerdict => (RANK[b] > RANK[a] ? b : a);

function verdictOf(verdicts: readonly Verdict[]): NodeVerdict {
  let v: NodeVerdict = 'none';
  for (const x of verdicts) {
    if (x.level === 'fail') v = worse(v, 'fail');
    else if (x.level === 'warn') v = worse(v, 'warn');
    else v = worse(v, x.judged ? 'pass' : 'not-judged');
  }
  return v;
}

const isSymbols = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');

/**
 * An artifact's value in a few words for its node: a number with its unit, a string cut short,
 * a structure as its formula and atom count, another record as its first numbers.
 */
export function valueSummary(value: unknown, unit?: string): string {
  let s: string;
  if (typeof value === 'number') s = Number.isInteger(value) ? String(value) : value.toPrecision(6).replace(/\.?0+$/, '');
  else if (typeof value === 'string') s = value.length > 24 ? value.slice(0, 23) + '…' : value;
  else if (typeof value === 'boolean') s = String(value);
  else if (value === undefined || value === null) s = '';
  else if (Array.isArray(value)) s = `[${value.length}]`;
  else {
    const o = value as Record<string, unknown>;
    if (isSymbols(o.symbols)) s = `${formulaOf(o.symbols)} · ${o.symbols.length} atom${o.symbols.length === 1 ? '' : 's'}`;
    else {
      const numbers = Object.entries(o).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
      s = numbers.length
        ? numbers
            .slice(0, 2)
            .map(([k, v]) => `${k} ${valueSummary(v)}`)
            .join(', ') + (Object.keys(o).length > Math.min(2, numbers.length) ? ', …' : '')
        : '{…}';
    }
  }
  return unit && s ? `${s} ${unit}` : s;
}

interface CallState {
  record: ToolCallRecord;
  status: ToolCallStatus;
  verdicts: Verdict[];
  job?: string;
}

interface ArtifactState {
  record: ArtifactRecord;
  status: ArtifactStatus;
  concerns: Concern[];
}

/** Everything the graph needs, kept up to date one event at a time (live runs). */
export class ProvenanceFold {
  private readonly calls = new Map<string, CallState>();
  private readonly artifacts = new Map<string, ArtifactState>();
  /** The canvas cell of each call that created artifacts (the projection groups them the same way). */
  private readonly groups = new CallGroups();
  private runId = '';
  private lastSeq = 0;

  apply(e: CanvasEvent): void {
    if (e.seq <= this.lastSeq) return;
    this.lastSeq = e.seq;
    switch (e.kind) {
      case 'run.start':
        this.runId = e.payload.runId;
        break;
      case 'provenance.call': {
        const r = e.payload;
        this.calls.set(r.id, { record: r, status: r.status, verdicts: [...(r.verdicts ?? [])] });
        this.groups.call(r.id, r.tool, r.step);
        break;
      }
      case 'provenance.call.end': {
        const p = e.payload;
        const c = this.calls.get(p.id);
        if (c) {
          c.status = p.status;
          if (p.outputs) c.record = { ...c.record, outputs: p.outputs };
        }
        break;
      }
      case 'guard.verdict': {
        const p = e.payload;
        this.calls.get(p.call)?.verdicts.push(...p.verdicts);
        break;
      }
      case 'provenance.artifact': {
        const r = e.payload;
        this.artifacts.set(r.id, { record: r, status: r.status, concerns: [...(r.concerns ?? [])] });
        this.groups.artifact(r.creator);
        break;
      }
      case 'provenance.status': {
        const p = e.payload;
        for (const id of p.ids) {
          const a = this.artifacts.get(id);
          if (a) a.status = p.status;
        }
        break;
      }
      case 'provenance.concern': {
        const p = e.payload;
        this.artifacts.get(p.id)?.concerns.push(p.concern);
        break;
      }
      case 'job.transition': {
        const j = e.payload;
        if (j.call) {
          const c = this.calls.get(j.call);
          if (c) c.job = j.id;
        }
        break;
      }
      default:
        break;
    }
  }

  applyAll(events: readonly CanvasEvent[]): this {
    for (const e of events) this.apply(e);
    return this;
  }

  has(id: string): boolean {
    return this.calls.has(id) || this.artifacts.has(id);
  }

  graph(scope: GraphScope = { kind: 'run' }): ProvenanceGraph {
    const keep = scope.kind === 'upstream' ? this.upstreamOf(scope.of) : undefined;
    const nodes: ProvenanceGraphNode[] = [];
    const edges: ProvenanceGraphEdge[] = [];
    const seenEdge = new Set<string>();
    const edge = (from: string, to: string, kind: ProvenanceGraphEdge['kind']) => {
      const k = `${from}>${to}`;
      if (seenEdge.has(k) || !this.has(from) || !this.has(to)) return;
      if (keep && !(keep.has(from) && keep.has(to))) return;
      seenEdge.add(k);
      edges.push({ from, to, kind });
    };
    for (const [id, c] of this.calls) {
      if (keep && !keep.has(id)) continue;
      const verdict = verdictOf(c.verdicts);
      const failed = c.status === 'failed' || c.status === 'refused' || verdict === 'fail';
      const node: ProvenanceGraphNode = {
        id,
        type: 'call',
        label: c.record.tool,
        detail: `${id} · ${c.status}`,
        kind: c.status,
        verdict,
        stale: false,
        warned: verdict === 'warn',
        failed,
      };
      if (c.job) node.job = c.job;
      // the canvas shows a call's artifacts in one cell (notebook/projection.ts)
      const cell = this.groups.groupOf(id);
      if (cell) node.cell = cell;
      nodes.push(node);
    }
    for (const [id, a] of this.artifacts) {
      if (keep && !keep.has(id)) continue;
      let verdict: NodeVerdict = 'none';
      for (const concern of a.concerns) verdict = worse(verdict, concern.level);
      if (verdict === 'none') verdict = verdictOf(this.calls.get(a.record.creator)?.verdicts ?? []);
      const node: ProvenanceGraphNode = {
        id,
        type: 'artifact',
        label: a.record.name,
        detail: `${id} · ${valueSummary(a.record.value, a.record.unit) || a.record.kind}`,
        kind: a.record.kind,
        verdict,
        stale: a.status === 'stale',
        warned: a.concerns.some((x) => x.level === 'warn'),
        failed: a.concerns.some((x) => x.level === 'fail'),
        cell: this.groups.groupOf(a.record.creator)!,
      };
      if (a.record.location) node.file = a.record.location;
      const job = this.calls.get(a.record.creator)?.job;
      if (job) node.job = job;
      nodes.push(node);
    }
    for (const [id, c] of this.calls) {
      for (const arg of Object.values(c.record.args ?? {})) {
        const from = arg.ref ? artifactOf(arg.ref) : undefined;
        if (from) edge(from, id, 'input');
      }
    }
    for (const [id, a] of this.artifacts) {
      edge(a.record.creator, id, 'create');
      for (const ref of a.record.inputs ?? []) {
        const from = artifactOf(ref);
        if (from) edge(from, a.record.creator, 'input');
      }
    }
    return { runId: this.runId, scope, nodes, edges };
  }

  /** Ids upstream of an artifact (or call): itself, its creator, and their inputs, transitively. */
  upstreamOf(id: string): Set<string> {
    const out = new Set<string>();
    const queue = [id];
    while (queue.length) {
      const x = queue.pop()!;
      if (out.has(x)) continue;
      out.add(x);
      const a = this.artifacts.get(x);
      if (a) {
        queue.push(a.record.creator);
        for (const r of a.record.inputs ?? []) {
          const y = artifactOf(r);
          if (y) queue.push(y);
        }
        continue;
      }
      const c = this.calls.get(x);
      if (c) {
        for (const arg of Object.values(c.record.args ?? {})) {
          const y = arg.ref ? artifactOf(arg.ref) : undefined;
          if (y) queue.push(y);
        }
      }
    }
    return out;
  }
}
