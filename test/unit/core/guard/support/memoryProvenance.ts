/**
 * An in-memory provenance registry for guard unit tests: the ProvenanceWriter port over
 * plain arrays, with seeding helpers so a test states the registry a call meets.
 */
import type { ArtifactDraft, ArtifactRecord, ArtifactStatus, Concern, ToolCallRecord } from '../../../../../src/core/provenance/types';
import type { ProvenanceWriter } from '../../../../../src/core/provenance/view';
import type { Verdict } from '../../../../../src/core/guard/types';

export interface SeedArtifact extends Partial<ArtifactRecord> {
  id: string;
  kind: ArtifactRecord['kind'];
  name: string;
  /** Tool that made it (a creator call is recorded for it). */
  creatorTool?: string;
}

export class MemoryProvenance implements ProvenanceWriter {
  readonly calls: ToolCallRecord[] = [];
  readonly records: ArtifactRecord[] = [];
  readonly verdictLog: { call: string; verdicts: Verdict[] }[] = [];
  readonly statusLog: { ids: string[]; status: ArtifactStatus; reason: string }[] = [];

  constructor(seed: SeedArtifact[] = []) {
    for (const s of seed) {
      const { creatorTool, ...rest } = s;
      const creator = rest.creator ?? this.creatorCall(creatorTool ?? 'seed').id;
      this.records.push({
        contentHash: 'seed',
        inputs: [],
        concerns: [],
        status: 'final',
        createdAt: '2026-01-01T00:00:00.000Z',
        ...rest,
        creator,
      });
    }
  }

  private creatorCall(tool: string): ToolCallRecord {
    const rec: ToolCallRecord = {
      id: `c-${this.calls.length + 1}`,
      tool,
      args: {},
      reasons: {},
      context: 'seeded',
      verdicts: [],
      agent: { role: 'framework' },
      startedAt: '2026-01-01T00:00:00.000Z',
      status: 'ok',
      outputs: [],
    };
    this.calls.push(rec);
    return rec;
  }

  /** Record a finished call of `tool` with these arguments and the artifacts it made (for calls whose body cannot run here). */
  async seedCall(
    tool: string,
    args: Record<string, unknown>,
    drafts: ArtifactDraft[],
    refs: Record<string, string> = {},
  ): Promise<ArtifactRecord[]> {
    const rec = await this.recordCall({
      tool,
      reasons: {},
      context: 'seeded',
      verdicts: [],
      agent: { role: 'dft' },
      args: Object.fromEntries(Object.entries(args).map(([k, value]) => [k, { value, ...(refs[k] ? { ref: refs[k] } : {}) }])),
    });
    const listRefs = Object.values(args)
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .filter((v): v is string => typeof v === 'string' && /^a-\d+/.test(v));
    const made = await this.registerArtifacts(
      rec.id,
      drafts.map((d) => ({ ...d, inputs: [...new Set([...listRefs, ...(d.inputs ?? [])])] })),
      [],
    );
    await this.endCall(rec.id, { status: 'ok' });
    return made;
  }

  artifact(id: string) {
    return this.records.find((a) => a.id === id);
  }
  call(id: string) {
    return this.calls.find((c) => c.id === id);
  }
  artifacts() {
    return this.records;
  }

  async recordCall(c: Omit<ToolCallRecord, 'id' | 'outputs' | 'status' | 'startedAt'>): Promise<ToolCallRecord> {
    const rec: ToolCallRecord = {
      ...c,
      id: `c-${this.calls.length + 1}`,
      outputs: [],
      status: 'running',
      startedAt: new Date().toISOString(),
    };
    this.calls.push(rec);
    return rec;
  }
  async recordVerdicts(callId: string, verdicts: Verdict[]) {
    this.verdictLog.push({ call: callId, verdicts });
    this.call(callId)!.verdicts.push(...verdicts);
  }
  async endCall(callId: string, end: { status: 'ok' | 'failed' | 'refused'; error?: string }) {
    Object.assign(this.call(callId)!, end, { endedAt: new Date().toISOString() });
  }
  async registerArtifacts(callId: string, drafts: ArtifactDraft[], concerns: Concern[]) {
    const call = this.call(callId)!;
    const refs = Object.values(call.args)
      .filter((a) => !a.seed)
      .map((a) => a.ref)
      .filter((r): r is string => !!r);
    const made = drafts.map((d) => {
      const rec: ArtifactRecord = {
        id: `a-${this.records.length + 1}`,
        kind: d.kind,
        name: d.name,
        value: d.value,
        unit: d.unit,
        contentHash: 'h',
        creator: callId,
        inputs: [...new Set([...refs, ...(d.inputs ?? [])])],
        concerns: [...concerns],
        status: d.status ?? 'final',
        tolerance: d.tolerance,
        meta: d.meta,
        createdAt: new Date().toISOString(),
      };
      this.records.push(rec);
      call.outputs.push(rec.id);
      return rec;
    });
    return made;
  }
  async addConcern(id: string, concern: Concern) {
    this.artifact(id)!.concerns.push(concern);
  }
  async markStatus(ids: string[], status: ArtifactStatus, reason: string) {
    this.statusLog.push({ ids, status, reason });
    for (const id of ids) this.artifact(id)!.status = status;
  }
}
