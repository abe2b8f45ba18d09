/**
 * The provenance registry of a run: tool calls and the artifacts they create, folded
 * from the event log (provenance.call, provenance.call.end, provenance.artifact,
 * provenance.status, provenance.concern, guard.verdict) and rebuilt identically on
 * reopen. Every write method resolves once its events are durable.
 *
 *   const call = await registry.recordCall({ tool, args, reasons, context, verdicts: [], agent });
 *   const [energy] = await registry.registerArtifacts(call.id, [{ kind: 'scalar', name: 'total_energy', value: -39.48, unit: 'eV' }]);
 *   await registry.endCall(call.id, { status: 'ok' });
 *
 * recordCall records the call as asked, even when a reference in it is wrong, so that a
 * refused call stays traceable; `argumentProblems(args)` is the check the guard runs
 * before letting the tool body run. The rules in rules.ts are enforced where data is
 * made: registerArtifacts (single creator, references exist, values match, acyclic) and
 * endCall with status 'ok' (values match). Violations throw ProvenanceError.
 *
 * The registry also answers the canvas keys `artifacts/<id>` and `calls/<id>` (views()).
 */
import type { DerivedKeys } from '../canvas/canvas';
import { EventLogError, type EventLog } from '../canvas/eventLog';
import { jsonValueProblem } from '../canvas/jsonValue';
import { oneLine, summarizeValue } from '../canvas/summarize';
import type { Actor, CanvasEvent } from '../canvas/types';
import type { Verdict } from './types';
import type { CallEndPayload } from './events';
import { hashValue } from './contentHash';
import { storeFile } from './fileStore';
import { artifactIdOf, resolveRef, type Resolution } from './references';
import {
  argumentProblems,
  checkNoCycle,
  checkReferencedValues,
  checkReferencesExist,
  checkSingleCreator,
  type ArgumentProblem,
  type ProvenanceLookup,
} from './rules';
import {
  ProvenanceError,
  type ArgumentRecord,
  type ArtifactDraft,
  type ArtifactKind,
  type ArtifactRecord,
  type ArtifactStatus,
  type Concern,
  type DeclaredOutputs,
  type Ref,
  type ToolCallRecord,
} from './types';

export type NewCall = Omit<ToolCallRecord, 'id' | 'outputs' | 'status' | 'startedAt'>;

export interface StatusChange {
  status: ArtifactStatus;
  reason: string;
  seq: number;
  ts: string;
}

const ARTIFACT_KINDS: ReadonlySet<ArtifactKind> = new Set([
  'scalar',
  'vector',
  'table',
  'structure',
  'qe-input',
  'qe-output',
  'file',
  'report-claim',
]);
const PROVENANCE: Actor = { kind: 'framework', id: 'provenance' };

export class ProvenanceRegistry implements ProvenanceLookup {
  private readonly artifactsById = new Map<string, ArtifactRecord>();
  private readonly artifactOrder: ArtifactRecord[] = [];
  private readonly callsById = new Map<string, ToolCallRecord>();
  private readonly callOrder: ToolCallRecord[] = [];
  private readonly dependents = new Map<string, string[]>();
  private readonly statusChanges = new Map<string, StatusChange[]>();
  private readonly lastSeqOf = new Map<string, number>();
  private readonly stopObserving: () => void;
  private lastArtifactNumber = 0;
  private lastCallNumber = 0;

  /** `runDir` is where file-backed artifacts are stored (files/<sha256>/<name>). */
  constructor(
    private readonly log: EventLog,
    private readonly runDir: string,
  ) {
    this.stopObserving = log.observe((e) => this.fold(e));
  }

  // ---- read side ------------------------------------------------------------------

  artifact(id: string): ArtifactRecord | undefined {
    return this.artifactsById.get(id);
  }

  call(id: string): ToolCallRecord | undefined {
    return this.callsById.get(id);
  }

  /** Every artifact, in creation order. */
  artifacts(): readonly ArtifactRecord[] {
    return this.artifactOrder;
  }

  /** Every tool call, in the order they were recorded. */
  calls(): readonly ToolCallRecord[] {
    return this.callOrder;
  }

  dependentsOf(id: string): readonly string[] {
    return this.dependents.get(id) ?? [];
  }

  /** Status changes of an artifact after its creation, with their reasons. */
  statusHistory(id: string): readonly StatusChange[] {
    return this.statusChanges.get(id) ?? [];
  }

  resolve(ref: Ref): Resolution {
    return resolveRef((id) => this.artifact(id), ref);
  }

  /** The referenced arguments that do not hold (unknown reference, value differs). */
  argumentProblems(args: Record<string, ArgumentRecord>): ArgumentProblem[] {
    return argumentProblems(this, args);
  }

  /** The registry's canvas keys: artifacts/<id> and calls/<id>. */
  views(): DerivedKeys[] {
    return [
      {
        prefix: 'artifacts/',
        keys: () =>
          this.artifactOrder.map((a) => ({
            key: `artifacts/${a.id}`,
            versions: 1,
            summary: summarizeArtifact(a),
            lastSeq: this.lastSeqOf.get(a.id)!,
          })),
        read: (key) => {
          const a = this.artifactsById.get(key.slice('artifacts/'.length));
          return a && { value: structuredClone(a), versions: 1, seq: this.lastSeqOf.get(a.id)! };
        },
      },
      {
        prefix: 'calls/',
        keys: () =>
          this.callOrder.map((c) => ({ key: `calls/${c.id}`, versions: 1, summary: summarizeCall(c), lastSeq: this.lastSeqOf.get(c.id)! })),
        read: (key) => {
          const c = this.callsById.get(key.slice('calls/'.length));
          return c && { value: structuredClone(c), versions: 1, seq: this.lastSeqOf.get(c.id)! };
        },
      },
    ];
  }

  // ---- write side -----------------------------------------------------------------

  /** Record a tool call as asked (status running). */
  async recordCall(input: NewCall): Promise<ToolCallRecord> {
    if (typeof input.tool !== 'string' || input.tool === '') throw new Error('recordCall needs the tool name (got an empty one).');
    for (const [name, arg] of Object.entries(input.args ?? {})) {
      const problem = jsonValueProblem(arg?.value, `argument "${name}"`);
      if (problem) throw new Error(`call of ${input.tool} not recorded: ${problem}.`);
    }
    const record: ToolCallRecord = {
      ...input,
      args: input.args ?? {},
      reasons: input.reasons ?? {},
      verdicts: input.verdicts ?? [],
      id: `c-${this.lastCallNumber + 1}`,
      startedAt: new Date().toISOString(),
      status: 'running',
      outputs: [],
    };
    delete record.endedAt;
    const problem = jsonValueProblem(record, 'call');
    if (problem) throw new Error(`call of ${input.tool} not recorded: ${problem}.`);
    const actor: Actor = {
      kind: input.agent.role === 'user' ? 'user' : input.agent.role === 'framework' ? 'framework' : 'agent',
      id: input.agent.role,
      ...(input.agent.model ? { model: input.agent.model } : {}),
    };
    await this.log.append({ kind: 'provenance.call', key: `calls/${record.id}`, payload: record, actor });
    return structuredClone(this.callsById.get(record.id)!);
  }

  async recordVerdicts(callId: string, verdicts: Verdict[]): Promise<void> {
    if (!this.callsById.has(callId))
      throw new ProvenanceError('unknown-call', `no tool call ${callId} in this run: verdicts belong to a call recorded with recordCall.`);
    await this.log.append({ kind: 'guard.verdict', payload: { call: callId, verdicts }, actor: { kind: 'framework', id: 'guard' } });
  }

  async endCall(callId: string, end: { status: 'ok' | 'failed' | 'refused'; error?: string; summary?: string }): Promise<ToolCallRecord> {
    const call = this.callsById.get(callId);
    if (!call) throw new ProvenanceError('unknown-call', `no tool call ${callId} in this run: end the call id that recordCall returned.`);
    if (call.status !== 'running') {
      throw new ProvenanceError('immutable', `call ${callId} (${call.tool}) already ended (${call.status}); a call ends once.`);
    }
    if (end.status === 'ok') checkReferencedValues(this, call.args, `call ${callId} (${call.tool}) cannot end ok`);
    const payload: CallEndPayload = { id: callId, status: end.status, endedAt: new Date().toISOString(), outputs: [...call.outputs] };
    if (end.error !== undefined) payload.error = end.error;
    if (end.summary !== undefined) payload.summary = end.summary;
    await this.log.append({ kind: 'provenance.call.end', key: `calls/${callId}`, payload, actor: { kind: 'tool', id: call.tool } });
    return structuredClone(this.callsById.get(callId)!);
  }

  /**
   * Register what a running call produced. File content is stored first (durably), then
   * one provenance.artifact event per draft; `concerns` are stamped on every artifact.
   */
  async registerArtifacts(
    callId: string,
    drafts: ArtifactDraft[],
    concerns: Concern[] = [],
    declared?: DeclaredOutputs,
  ): Promise<ArtifactRecord[]> {
    if (this.log.mode === 'reader') {
      throw new EventLogError(
        'read-only',
        `this run is open read-only (another process is running it); artifacts of ${callId} were not registered.`,
      );
    }
    const call = this.callsById.get(callId);
    const owner = `call ${callId}${call ? ` (${call.tool})` : ''}`;
    const checkCall = (): ToolCallRecord => {
      checkSingleCreator(this, `a-${this.lastArtifactNumber + 1}`, callId);
      const c = this.callsById.get(callId)!;
      checkReferencedValues(this, c.args, `${owner} cannot create artifacts`);
      return c;
    };
    checkCall();
    drafts.forEach((d, i) => checkDraft(d, `${owner}, output ${i + 1}`));
    if (declared) drafts.forEach((d, i) => checkDeclared(d, declared, `${owner}, output ${i + 1}`));
    for (const [i, d] of drafts.entries()) checkReferencesExist(this, d.inputs ?? [], `${owner}, output ${i + 1} ("${d.name}")`);

    const stored = await Promise.all(drafts.map((d) => (d.file ? storeFile(this.runDir, d.file.name, d.file.bytes) : undefined)));

    // Files took time: the call may have ended meanwhile. Everything below is synchronous.
    const current = checkCall();
    const callRefs = Object.values(current.args).flatMap((a) => (a.ref === undefined || a.seed ? [] : [a.ref]));
    const createdAt = new Date().toISOString();
    const appends: Promise<CanvasEvent>[] = [];
    const ids: string[] = [];
    for (const [i, d] of drafts.entries()) {
      const id = `a-${this.lastArtifactNumber + 1}`;
      const inputs = [...new Set([...callRefs, ...(d.inputs ?? [])])];
      checkSingleCreator(this, id, callId);
      checkReferencesExist(this, inputs, `${owner}, output ${i + 1} ("${d.name}")`);
      checkNoCycle(this, id, inputs);
      const file = stored[i];
      const record: ArtifactRecord = {
        id,
        kind: d.kind,
        name: d.name,
        ...(d.value !== undefined ? { value: d.value } : {}),
        ...(d.unit !== undefined ? { unit: d.unit } : {}),
        contentHash: file ? file.sha256 : hashValue(d.value),
        ...(file ? { location: file.location } : {}),
        creator: callId,
        inputs,
        concerns: structuredClone(concerns),
        status: d.status ?? 'final',
        ...(d.tolerance ? { tolerance: d.tolerance } : {}),
        ...(d.meta ? { meta: d.meta } : {}),
        createdAt,
      };
      appends.push(
        this.log.append({
          kind: 'provenance.artifact',
          key: `artifacts/${id}`,
          payload: record,
          actor: { kind: 'tool', id: current.tool },
        }),
      );
      ids.push(id);
    }
    await Promise.all(appends);
    return ids.map((id) => structuredClone(this.artifactsById.get(id)!));
  }

  async addConcern(artifactId: string, concern: Concern, actor: Actor = { kind: 'framework', id: 'guard' }): Promise<void> {
    if (!this.artifactsById.has(artifactId)) {
      throw new ProvenanceError('unknown-reference', `cannot stamp a concern on ${artifactId}: no such artifact in this run.`);
    }
    await this.log.append({ kind: 'provenance.concern', key: `artifacts/${artifactId}`, payload: { id: artifactId, concern }, actor });
  }

  /**
   * Change the status of artifacts. provisional → final (e.g. once approved) and any →
   * stale are allowed; a stale value is never revived (recompute it instead).
   */
  async markStatus(ids: string[], status: ArtifactStatus, reason: string, actor: Actor = PROVENANCE): Promise<void> {
    if (typeof reason !== 'string' || reason.trim() === '')
      throw new Error(`give a reason for marking ${ids.join(', ')} ${status}: it is shown to whoever reviews the result.`);
    for (const id of ids) {
      const a = this.artifactsById.get(id);
      if (!a) throw new ProvenanceError('unknown-reference', `cannot mark ${id} ${status}: no such artifact in this run.`);
      if (a.status === 'stale' && status !== 'stale') {
        throw new ProvenanceError(
          'immutable',
          `${id} (${a.name}) is stale (${this.statusHistory(id).at(-1)?.reason ?? 'an input was superseded'}); a stale value is not revived. Recompute it with a new tool call.`,
        );
      }
    }
    const changed = ids.filter((id) => this.artifactsById.get(id)!.status !== status);
    if (changed.length === 0) return;
    await this.log.append({ kind: 'provenance.status', payload: { ids: changed, status, reason }, actor });
  }

  /** Stop following the log. */
  detach(): void {
    this.stopObserving();
  }

  // ---- fold -----------------------------------------------------------------------

  private fold(e: CanvasEvent): void {
    switch (e.kind) {
      case 'provenance.call': {
        const c = structuredClone(e.payload);
        this.callsById.set(c.id, c);
        this.callOrder.push(c);
        this.lastCallNumber = Math.max(this.lastCallNumber, idNumber(c.id));
        this.lastSeqOf.set(c.id, e.seq);
        return;
      }
      case 'provenance.call.end': {
        const p = e.payload;
        const c = this.callsById.get(p.id);
        if (!c) return;
        c.status = p.status;
        c.endedAt = p.endedAt;
        if (p.error !== undefined) c.error = p.error;
        if (p.summary !== undefined) c.summary = p.summary;
        this.lastSeqOf.set(c.id, e.seq);
        return;
      }
      case 'provenance.artifact': {
        const a = structuredClone(e.payload);
        this.artifactsById.set(a.id, a);
        this.artifactOrder.push(a);
        this.lastArtifactNumber = Math.max(this.lastArtifactNumber, idNumber(a.id));
        this.lastSeqOf.set(a.id, e.seq);
        const creator = this.callsById.get(a.creator);
        if (creator && !creator.outputs.includes(a.id)) creator.outputs.push(a.id);
        for (const up of new Set(a.inputs.map(artifactIdOf))) {
          const list = this.dependents.get(up);
          if (list) list.push(a.id);
          else this.dependents.set(up, [a.id]);
        }
        return;
      }
      case 'provenance.status': {
        const p = e.payload;
        for (const id of p.ids) {
          const a = this.artifactsById.get(id);
          if (!a) continue;
          a.status = p.status;
          const history = this.statusChanges.get(id);
          const change = { status: p.status, reason: p.reason, seq: e.seq, ts: e.ts };
          if (history) history.push(change);
          else this.statusChanges.set(id, [change]);
          this.lastSeqOf.set(id, e.seq);
        }
        return;
      }
      case 'provenance.concern': {
        const p = e.payload;
        const a = this.artifactsById.get(p.id);
        if (!a) return;
        a.concerns.push(structuredClone(p.concern));
        this.lastSeqOf.set(a.id, e.seq);
        return;
      }
      case 'guard.verdict': {
        const p = e.payload;
        const c = this.callsById.get(p.call);
        if (!c) return;
        c.verdicts.push(...structuredClone(p.verdicts));
        this.lastSeqOf.set(c.id, e.seq);
        return;
      }
    }
  }
}

const idNumber = (id: string): number => Number(id.slice(id.indexOf('-') + 1)) || 0;

/** A tool makes only the artifacts it declares, of the declared kind and unit. */
function checkDeclared(d: ArtifactDraft, declared: DeclaredOutputs, owner: string): void {
  const names = Object.keys(declared);
  const spec = Object.hasOwn(declared, d.name) ? declared[d.name] : undefined;
  if (!spec) {
    throw new ProvenanceError(
      'undeclared-artifact',
      `${owner} was not registered: the tool does not declare an artifact "${d.name}"; it declares ${names.length ? names.map((n) => `"${n}"`).join(', ') : 'none'}. Declare it in the tool's outputs (defineTool) or do not make it.`,
    );
  }
  if (spec.kind !== d.kind) {
    throw new ProvenanceError(
      'undeclared-artifact',
      `${owner} was not registered: "${d.name}" is declared a ${spec.kind}, and this one is a ${d.kind}.`,
    );
  }
  if (spec.unit !== undefined && d.unit !== spec.unit) {
    throw new ProvenanceError(
      'undeclared-artifact',
      `${owner} was not registered: "${d.name}" is declared in ${spec.unit}, and this one is in ${d.unit ?? 'no unit'}.`,
    );
  }
}

/** Domain checks on a draft before anything is stored. */
function checkDraft(d: ArtifactDraft, owner: string): void {
  const fail = (what: string): never => {
    throw new Error(`${owner} was not registered: ${what}`);
  };
  if (!ARTIFACT_KINDS.has(d.kind)) fail(`kind ${JSON.stringify(d.kind)} is not one of ${[...ARTIFACT_KINDS].join(', ')}.`);
  if (typeof d.name !== 'string' || d.name.trim() === '')
    fail('give the artifact a name saying what it is in the domain (e.g. "total_energy").');
  if (d.value === undefined && !d.file) fail(`"${d.name}" has neither a value nor a file.`);
  const problem = d.value === undefined ? undefined : jsonValueProblem(d.value, `"${d.name}"`);
  if (problem) fail(`${problem}.`);
  if (d.kind === 'scalar' && (typeof d.value !== 'number' || !d.unit)) {
    fail(
      `"${d.name}" is a scalar: it needs a number value and a unit (e.g. "eV", "Å"; "1" when dimensionless), got ${JSON.stringify(d.value)}${d.unit ? ` ${d.unit}` : ' without a unit'}.`,
    );
  }
  if (d.kind === 'vector' && (!Array.isArray(d.value) || !d.value.every((x) => typeof x === 'number') || !d.unit)) {
    fail(`"${d.name}" is a vector: it needs a list of numbers and one unit for all of them.`);
  }
  if (d.tolerance) {
    const { abs = 0, rel = 0 } = d.tolerance;
    if (!(abs >= 0 && rel >= 0 && Number.isFinite(abs) && Number.isFinite(rel)))
      fail(`"${d.name}" declares tolerance ${JSON.stringify(d.tolerance)}: abs and rel must be finite and ≥ 0.`);
  }
  if (d.status !== undefined && d.status !== 'final' && d.status !== 'provisional')
    fail(`"${d.name}" has status ${JSON.stringify(d.status)}; a new artifact is final or provisional.`);
}

function summarizeArtifact(a: ArtifactRecord): string {
  const what =
    a.value !== undefined
      ? `${a.name} = ${typeof a.value === 'number' ? a.value : summarizeValue(a.value)}${a.unit ? ` ${a.unit}` : ''}`
      : `${a.name} (file ${a.location})`;
  const concerns = a.concerns.length ? `, ${a.concerns.length} concern${a.concerns.length === 1 ? '' : 's'}` : '';
  return oneLine(`${what} (${a.kind}, ${a.status}${concerns}; by ${a.creator})`);
}

function summarizeCall(c: ToolCallRecord): string {
  return oneLine(`${c.tool} ${c.status}${c.outputs.length ? ` → ${c.outputs.join(', ')}` : ''}: ${c.context}`);
}
