/**
 * The canvas notebook as a projection of a run's event log: which cells a run shows and
 * what each one's outputs are. A fold over events, so a reopen shows the same cells, and
 * incremental, so a live run adds and updates cells as its events arrive. Pure: no VS Code API.
 *
 * Artifacts are shown by the tool calls that made them: the calls of one tool in a row (a
 * sweep, an EOS series) share a cell (callGroups.ts), one line per call in the cell, their
 * artifacts' cards as one output and their plots and structures as outputs of their own. A
 * call is the unit that creates data, and a cell per batch of calls rather than per artifact
 * keeps a run of thousands of artifacts quick to open (bench:ui).
 */
import type { BandStructurePlotData, DosPlotData } from '../../shared/electronicStructure';
import type { CanvasCell, CanvasCellKind, CanvasOutputItem } from '../../core/canvas/canvasFile';
import { CallGroups } from './callGroups';
import type { CanvasEvent } from '../../core/canvas/types';
import { birchMurnaghanEnergy, murnaghanEnergy, vinetEnergy, type EosParameters } from '../../core/dft/eosForms';
import { EV_PER_ANGSTROM3_IN_GPA } from '../../core/units';
import type { ApprovalAnswer, ApprovalRequest, Verdict } from '../../core/guard/types';
import type { JobRecord } from '../../core/hpc/types';
import type { ArtifactRecord, ArtifactStatus, Concern, ToolCallRecord } from '../../core/provenance/types';
import {
  CANVAS_MIME,
  type ApprovalCardData,
  type ArtifactCardData,
  type ArtifactListData,
  type JobCardData,
  type PlanData,
  type PlotData,
  type ReportData,
  type StructureData,
} from '../../shared/canvasOutputs';
import { RELAXATION_STRUCTURES } from './structureTrajectory';

/** Cell kinds the projection owns: the user cannot edit them in place. */
export const PROJECTED_KINDS: ReadonlySet<CanvasCellKind> = new Set(['plan', 'note', 'artifact', 'approval', 'verdict', 'report', 'job', 'event']);

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6))));

function summaryOf(a: ArtifactRecord): string {
  const v = a.value;
  if (typeof v === 'number') return `${a.name} = ${fmt(v)}${a.unit ? ' ' + a.unit : ''}`;
  if (a.kind === 'structure' && v && typeof v === 'object' && Array.isArray((v as { symbols?: unknown }).symbols)) {
    return `${a.name}: ${(v as { symbols: string[] }).symbols.length} atoms`;
  }
  if (a.location) return `${a.name}: ${a.location}`;
  return `${a.name} (${a.kind})`;
}

/** An artifact in a line of a batch: its value where it is a number, else its name. */
function briefOf(a: ArtifactRecord): string {
  return typeof a.value === 'number' ? `${a.name} = ${fmt(a.value)}${a.unit ? ' ' + a.unit : ''}` : a.name;
}

/** The recorded fit drawn from its own parameters (no refit): closed forms for BM, Murnaghan, Vinet. */
const EOS_ENERGY: Record<string, (v: number, p: EosParameters) => number> = {
  'birch-murnaghan': birchMurnaghanEnergy,
  murnaghan: murnaghanEnergy,
  vinet: vinetEnergy,
};

function eosPlot(a: ArtifactRecord): PlotData | undefined {
  const v = a.value as { form?: string; points?: { volumeAngstrom3: number; energyEv: number }[]; v0Angstrom3?: number; b0GPa?: number; e0Ev?: number; b0Prime?: number } | undefined;
  if (!v?.points?.length || v.points.length < 2) return undefined;
  const points = v.points.map((p) => ({ volumeA3: p.volumeAngstrom3, energyEv: p.energyEv }));
  let curve: { volumeA3: number; energyEv: number }[] = [];
  const energy = v.form ? EOS_ENERGY[v.form] : undefined;
  if (energy && v.v0Angstrom3 !== undefined && v.b0GPa !== undefined && v.e0Ev !== undefined && v.b0Prime !== undefined) {
    const params: EosParameters = { e0: v.e0Ev, v0: v.v0Angstrom3, b0: v.b0GPa / EV_PER_ANGSTROM3_IN_GPA, b0Prime: v.b0Prime };
    const lo = Math.min(...points.map((p) => p.volumeA3)), hi = Math.max(...points.map((p) => p.volumeA3));
    curve = Array.from({ length: 61 }, (_, i) => lo + ((hi - lo) * i) / 60).map((vol) => ({ volumeA3: vol, energyEv: energy(vol, params) }))
      .filter((p) => Number.isFinite(p.energyEv));
  }
  const fit: NonNullable<Extract<PlotData, { kind: 'eos' }>['fit']> = { curve };
  if (v.form) fit.form = v.form;
  if (v.v0Angstrom3 !== undefined) fit.v0A3 = v.v0Angstrom3;
  if (v.b0GPa !== undefined) fit.b0GPa = v.b0GPa;
  if (v.e0Ev !== undefined) fit.e0Ev = v.e0Ev;
  return { kind: 'eos', title: `Equation of state (${a.id})`, points, fit, artifact: a.id };
}

function convergencePlot(a: ArtifactRecord): PlotData | undefined {
  const v = a.value as { parameter?: string; tested?: { value: number; deltaMevPerAtom: number }[]; chosenValue?: number; toleranceMevPerAtom?: number } | undefined;
  if (!v?.tested?.length || !v.parameter) return undefined;
  const plot: PlotData = {
    kind: 'convergence',
    title: `Convergence of ${v.parameter} (${a.id})`,
    parameter: v.parameter,
    unit: v.parameter === 'ecutwfc' ? 'Ry' : '1/Å',
    points: v.tested.map((t) => ({ x: t.value, deltaMeVPerAtom: Math.abs(t.deltaMevPerAtom) })),
    artifact: a.id,
  };
  if (v.toleranceMevPerAtom !== undefined) plot.thresholdMeVPerAtom = v.toleranceMevPerAtom;
  if (v.chosenValue !== undefined) plot.chosen = v.chosenValue;
  return plot;
}

/** Band structures, DOS and PDOS: their values are the plot data (src/shared/electronicStructure.ts). */
function electronicPlot(a: ArtifactRecord): PlotData | undefined {
  const v = a.value as { bandsEv?: unknown; energiesEv?: unknown } | undefined;
  if (a.name === 'band_structure' && Array.isArray(v?.bandsEv)) return { kind: 'band-structure', title: `Band structure (${a.id})`, data: a.value as BandStructurePlotData, artifact: a.id };
  if ((a.name === 'dos' || a.name === 'pdos') && Array.isArray(v?.energiesEv)) return { kind: 'dos', title: `${a.name === 'pdos' ? 'Projected DOS' : 'Density of states'} (${a.id})`, data: a.value as DosPlotData, artifact: a.id };
  return undefined;
}

function structureView(a: ArtifactRecord): StructureData | undefined {
  const s = a.value as { symbols?: string[]; positions?: [number, number, number][]; cell?: StructureData['cell']; fixed?: boolean[]; tags?: number[] } | undefined;
  if (!s?.symbols || !s.positions || !s.cell) return undefined;
  const view: StructureData = { symbols: s.symbols, positions: s.positions, cell: s.cell, title: `${a.name} (${a.id})`, artifact: a.id };
  if (s.fixed) view.fixed = s.fixed;
  if (s.tags) view.tags = s.tags;
  const pbc = (a.value as { pbc?: [boolean, boolean, boolean] }).pbc;
  if (pbc) view.pbc = pbc;
  if (RELAXATION_STRUCTURES.has(a.name)) view.trajectory = true;
  const site = a.meta?.site as { kind?: string; position?: [number, number, number] } | string | undefined;
  if (site && typeof site === 'object' && site.position) view.site = { position: site.position, kind: site.kind ?? 'adsorption' };
  else if (typeof site === 'string' && s.tags) {
    // The site of a placed adsorbate: under its lowest atom (tag 0 is the adsorbate, ASE's convention).
    const ads = s.positions.filter((_, i) => s.tags![i] === 0);
    if (ads.length) {
      const anchor = ads.reduce((lo, p) => (p[2] < lo[2] ? p : lo));
      view.site = { position: anchor, kind: site };
    }
  }
  return view;
}

interface ArtifactState {
  record: ArtifactRecord;
  status: ArtifactStatus;
  concerns: Concern[];
}

export class CanvasProjection {
  private readonly order: string[] = [];
  private readonly cellsById = new Map<string, CanvasCell>();
  private readonly calls = new Map<string, ToolCallRecord>();
  private readonly artifacts = new Map<string, ArtifactState>();
  /** Artifact ids by the call that created them, in creation order. */
  private readonly byCall = new Map<string, string[]>();
  private readonly groups = new CallGroups();
  private readonly approvals = new Map<string, { request: ApprovalRequest; answer?: ApprovalAnswer; closed?: { reason: string; at: string; supersededBy?: string } }>();
  private readonly reportVerdicts = new Map<string, Verdict>();
  private last = 0;
  runId: string | undefined;
  objective: string | undefined;

  get lastSeq(): number {
    return this.last;
  }

  /** Apply one event; returns the ids of the cells it added or changed. */
  apply(e: CanvasEvent): string[] {
    if (e.seq <= this.last) return [];
    this.last = e.seq;
    switch (e.kind) {
      case 'run.start': {
        const p = e.payload;
        this.runId = p.runId;
        this.objective = p.objective;
        return [];
      }
      case 'key.write':
      case 'user.edit':
        return this.keyWrite(e);
      case 'provenance.call': {
        const c = e.payload;
        this.calls.set(c.id, c);
        this.groups.call(c.id, c.tool);
        return [];
      }
      case 'provenance.artifact': {
        const r = e.payload;
        if (!this.artifacts.has(r.id)) {
          this.groups.artifact(r.creator);
          const list = this.byCall.get(r.creator);
          if (list) list.push(r.id);
          else this.byCall.set(r.creator, [r.id]);
        }
        this.artifacts.set(r.id, { record: r, status: r.status, concerns: [...(r.concerns ?? [])] });
        return this.artifactCell(r.id, e.seq);
      }
      case 'provenance.status': {
        const p = e.payload;
        return p.ids.flatMap((id) => {
          const a = this.artifacts.get(id);
          if (!a) return [];
          a.status = p.status;
          return this.artifactCell(id, e.seq);
        });
      }
      case 'provenance.concern': {
        const p = e.payload;
        const a = this.artifacts.get(p.id);
        if (!a) return [];
        a.concerns.push(p.concern);
        return this.artifactCell(p.id, e.seq);
      }
      case 'approval.request': {
        const r = e.payload;
        this.approvals.set(r.id, { request: r });
        return this.approvalCell(r.id, e.seq);
      }
      case 'approval.answer': {
        const a = e.payload;
        const entry = this.approvals.get(a.id);
        if (!entry || entry.answer) return []; // the first answer stands
        entry.answer = a;
        return this.approvalCell(a.id, e.seq);
      }
      case 'approval.closed': {
        // a rerun superseded the result it was raised on: nothing is left to decide
        const c = e.payload;
        const entry = this.approvals.get(c.id);
        if (!entry || entry.answer || entry.closed) return [];
        entry.closed = { reason: c.reason, at: c.at, ...(c.supersededBy ? { supersededBy: c.supersededBy } : {}) };
        return this.approvalCell(c.id, e.seq);
      }
      case 'job.transition':
        return this.jobCell(e.payload, e.seq);
      case 'report.judged': {
        // The report judge rules after the report is written: its verdict updates the report's card.
        const j = e.payload;
        if (!j.call || !j.report || !this.artifacts.has(j.report)) return [];
        const level = j.level ?? (j.accepted ? 'pass' : 'fail');
        this.reportVerdicts.set(j.call, { tier: 'report', rule: 'report-judge', level, reasons: j.summary ? [j.summary] : [], judged: true });
        return this.artifactCell(j.report, e.seq);
      }
      case 'guard.verdict': {
        const p = e.payload;
        const report = p.verdicts.find((v) => v.tier === 'report');
        if (!report) return [];
        this.reportVerdicts.set(p.call, report);
        return [];
      }
      default:
        return [];
    }
  }

  applyAll(events: readonly CanvasEvent[]): string[] {
    const changed = new Set<string>();
    for (const e of events) for (const id of this.apply(e)) changed.add(id);
    return [...changed];
  }

  cells(): CanvasCell[] {
    return this.order.map((id) => this.cellsById.get(id)!);
  }

  cell(id: string): CanvasCell | undefined {
    return this.cellsById.get(id);
  }

  /** The cell that shows an artifact (its creator's), or a call's cell; undefined when there is none. */
  cellIdOf(id: string): string | undefined {
    return this.groups.groupOf(this.artifacts.get(id)?.record.creator ?? id);
  }

  pendingApprovals(): ApprovalRequest[] {
    return [...this.approvals.values()].filter((a) => !a.answer && !a.closed).map((a) => a.request);
  }

  private put(cell: CanvasCell): string[] {
    if (!this.cellsById.has(cell.id)) this.order.push(cell.id);
    this.cellsById.set(cell.id, cell);
    return [cell.id];
  }

  private keyWrite(e: CanvasEvent<'key.write' | 'user.edit'>): string[] {
    const key = e.key ?? '';
    const p = e.payload;
    const version = 'version' in p ? p.version : undefined;
    if (key === 'plan') {
      const plan = p.value as { objective?: string; version?: number; steps?: { id: string; title: string; status: string; summary?: string }[] };
      const data: PlanData = { objective: plan.objective ?? this.objective ?? '', version: plan.version ?? version ?? 1, steps: plan.steps ?? [] };
      return this.put({ kind: 'plan', id: 'plan', text: `Plan, version ${data.version}: ${data.steps.length} steps`, seq: e.seq,
        outputs: [{ mime: CANVAS_MIME.plan, data }] });
    }
    if (key.startsWith('notes/')) {
      const text = typeof p.value === 'string' ? p.value : '```json\n' + JSON.stringify(p.value, null, 2) + '\n```';
      return this.put({ kind: 'note', id: key, text: `**${key}** (version ${version ?? 1}, ${e.actor.id})\n\n${text}`, seq: e.seq });
    }
    if (key.startsWith('reports/')) {
      const v = p.value as { text?: string; markdown?: string } | string;
      const markdown = typeof v === 'string' ? v : v.markdown ?? v.text ?? JSON.stringify(v, null, 2);
      const data: ReportData = { markdown };
      return this.put({ kind: 'report', id: key, text: `Report ${key.slice('reports/'.length)}`, seq: e.seq, outputs: [{ mime: CANVAS_MIME.report, data }] });
    }
    return [];
  }

  /** One artifact's card. */
  private card(a: ArtifactState): ArtifactCardData {
    const r = a.record;
    const card: ArtifactCardData = {
      id: r.id, kind: r.kind, name: r.name, status: a.status, creator: r.creator, inputs: r.inputs ?? [],
      concerns: a.concerns.map((c) => ({ level: c.level, message: c.message, source: c.source })),
    };
    const tool = this.calls.get(r.creator)?.tool;
    if (tool) card.tool = tool;
    if (r.value !== undefined && r.kind !== 'structure') card.value = r.value;
    if (r.unit) card.unit = r.unit;
    if (r.location) card.location = r.location;
    return card;
  }

  /** An artifact's plot, structure or report, where it has one: outputs of their own (other renderers). */
  private extraOutputs(a: ArtifactState): CanvasOutputItem[] {
    const r = a.record;
    const outputs: CanvasOutputItem[] = [];
    const plot = r.name === 'eos_fit' ? eosPlot(r) : r.name === 'converged_settings' ? convergencePlot(r) : electronicPlot(r);
    if (plot) outputs.push({ mime: CANVAS_MIME.plot, data: plot });
    if (r.kind === 'structure') {
      const s = structureView(r);
      if (s) outputs.push({ mime: CANVAS_MIME.structure, data: s });
    }
    if (r.name === 'report' && r.kind === 'file') {
      const verdict = this.reportVerdicts.get(r.creator);
      const data: ReportData = { markdown: String((r.value as { title?: string })?.title ?? r.name) };
      if (verdict) data.verdict = { level: verdict.level, reasons: verdict.reasons };
      outputs.push({ mime: CANVAS_MIME.report, data });
    }
    return outputs;
  }

  /** The cell of the calls that created artifact `id`: one line per call (per artifact for a single call). */
  private artifactCell(id: string, seq: number): string[] {
    const group = this.groups.groupOf(this.artifacts.get(id)!.record.creator)!;
    const calls = this.groups.callsOf(group);
    const statesOf = (call: string) => (this.byCall.get(call) ?? []).map((x) => this.artifacts.get(x)!);
    const mark = (a: ArtifactState) => (a.status !== 'final' ? ` (${a.status})` : '');
    const states = calls.flatMap(statesOf);
    const text = calls.length === 1
      ? states.map((a) => summaryOf(a.record) + mark(a)).join('\n')
      : [`${this.calls.get(calls[0]!)?.tool ?? 'tool'} × ${calls.length}`,
        ...calls.map((c) => `${c}: ${statesOf(c).map((a) => briefOf(a.record) + mark(a)).join(' · ')}`)].join('\n');
    // the cards as one output: every output costs the notebook as much as a small cell does
    const cards: ArtifactListData = { cards: states.map((a) => this.card(a)) };
    const outputs: CanvasOutputItem[] = [{ mime: CANVAS_MIME.artifacts, data: cards }, ...states.flatMap((a) => this.extraOutputs(a))];
    return this.put({ kind: 'artifact', id: group, text, seq, outputs });
  }

  private approvalCell(id: string, seq: number): string[] {
    const entry = this.approvals.get(id)!;
    const r = entry.request;
    const call = this.calls.get(r.call);
    const data: ApprovalCardData = {
      request: {
        id: r.id, call: r.call, tool: r.tool, verdicts: r.verdicts.map((v) => ({ rule: v.rule, level: v.level, reasons: v.reasons })),
        provenancePath: r.provenancePath, createdAt: r.createdAt,
        ...(r.parameter !== undefined ? { parameter: r.parameter } : {}),
        ...(r.value !== undefined ? { value: r.value } : {}),
      },
    };
    const reason = r.parameter ? call?.reasons?.[r.parameter] : undefined;
    if (reason) data.agentReason = reason;
    if (call?.context) data.context = call.context;
    if (entry.answer) {
      const a = entry.answer;
      data.answer = { decision: a.decision, by: a.by, at: a.at, ...(a.comment ? { comment: a.comment } : {}), ...(a.standing ? { standing: true } : {}), ...(a.under ? { under: a.under } : {}) };
    }
    if (entry.closed && !entry.answer) data.closed = entry.closed;
    const state = entry.answer ? `${entry.answer.decision === 'approve' ? 'approved' : 'rejected'}${entry.answer.under ? ` (standing approval of ${entry.answer.under})` : entry.answer.standing ? ' (standing: and later ones like it)' : ''}`
      : entry.closed ? `closed, ${entry.closed.reason}` : 'waiting for your answer';
    return this.put({ kind: 'approval', id: `approvals/${id}`, text: `Approval ${id}: ${r.tool}${r.parameter ? `.${r.parameter}` : ''} — ${state}`, seq,
      outputs: [{ mime: CANVAS_MIME.approval, data }] });
  }

  private jobCell(j: JobRecord, seq: number): string[] {
    const data: JobCardData = { id: j.id, backend: j.backend, state: j.state };
    if (j.schedulerId) data.schedulerId = j.schedulerId;
    if (j.error) data.error = j.error;
    const p = j.progress;
    if (p) {
      const parts = [p.scfIteration !== undefined ? `SCF iteration ${p.scfIteration}` : '', p.estimatedAccuracyRy !== undefined ? `accuracy ${p.estimatedAccuracyRy} Ry` : '', p.bfgsStep !== undefined ? `BFGS step ${p.bfgsStep}` : ''].filter(Boolean);
      if (parts.length) data.progress = parts.join(', ');
    }
    if (j.startedAt) {
      const end = j.endedAt ? Date.parse(j.endedAt) : Date.parse(j.updatedAt);
      data.elapsedSeconds = Math.max(0, (end - Date.parse(j.startedAt)) / 1000);
    }
    return this.put({ kind: 'job', id: `jobs/${j.id}`, text: `Job ${j.id} on ${j.backend}: ${j.state}`, seq, outputs: [{ mime: CANVAS_MIME.job, data }] });
  }
}
