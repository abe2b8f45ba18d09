/**
 * The canvas notebook as a projection of a run's event log: which cells a run shows and
 * what each one's outputs are. A fold over events, so a reopen shows the same cells, and
 * incremental, so a live run adds and updates cells as its events arrive. Pure: no VS Code API
 * (a report's text is read through the `readFile` it is given).
 *
 * The layout is a lab notebook: a summary cell (`summary`) that is rewritten in place as the
 * run goes (objective, state, the result and its artifact, the report judge's verdict, tokens,
 * cost, jobs, open approvals); then one cell per plan step (`steps/<id>`: title, status,
 * worker, tool, the verdicts of its calls), whose outputs are the step's artifacts (their cards
 * as one output, long lists drawn in part), plots and structures, the approvals its calls
 * raised and its jobs while they run; then the report in full in a cell of its own (`report`):
 * the run's composed report as report.md has it (runReport.ts: verdict, text, claims, tables),
 * its plots carried as SVG text with it. Calls outside any step (a user's calls, a run without
 * a plan) keep cells per batch of calls (callGroups.ts); a call is the unit that creates data,
 * and a cell per step or batch rather than per artifact keeps a run of thousands of artifacts
 * quick to open (bench:ui).
 */
import type { BandStructurePlotData, DosPlotData } from '../../shared/electronicStructure';
import type { MagnetizationTableData, RelaxationTrajectoryPlotData } from '../../shared/relaxationAndMagnetism';
import type { CanvasCell, CanvasCellKind, CanvasOutputItem } from '../canvas/canvasFile';
import { CallGroups } from './callGroups';
import { renderRunReport } from './runReport';
import { convergencePanels } from './convergencePanels';
import type { ConvergenceSelectionValue } from '../artifacts/shapes';
import type { CanvasEvent, RunState } from '../canvas/types';
import { birchMurnaghanEnergy, murnaghanEnergy, vinetEnergy, type EosParameters } from '../dft/eosForms';
import { EV_PER_ANGSTROM3_IN_GPA } from '../units';
import type { ApprovalAnswer, ApprovalRequest, Verdict } from '../guard/types';
import type { JobRecord } from '../hpc/types';
import type { ArtifactRecord, ArtifactStatus, Concern, ToolCallRecord } from '../provenance/types';
import {
  CANVAS_MIME,
  type ApprovalCardData,
  type ArtifactCardData,
  type ArtifactListData,
  type JobCardData,
  type PlotData,
  type ReportData,
  type StructureData,
} from '../../shared/canvasOutputs';

/** Structures a relaxation made: the notebook can play the relaxation behind them (its pw.x output's geometries). */
export const RELAXATION_STRUCTURES: ReadonlySet<string> = new Set(['relaxed_structure', 'restart_structure']);

/** Cell kinds the projection owns: the user cannot edit them in place. */
export const PROJECTED_KINDS: ReadonlySet<CanvasCellKind> = new Set([
  'summary',
  'step',
  'plan',
  'note',
  'artifact',
  'approval',
  'verdict',
  'report',
  'job',
  'event',
]);

/** The summary cell's id; the report's. */
export const SUMMARY_CELL = 'summary';
export const REPORT_CELL = 'report';

/** Lines of calls a step cell lists before it says how many more there are (their cards are all in the output). */
const STEP_CALL_LINES = 8;

interface StepView {
  id: string;
  title: string;
  status: string;
  worker?: string;
  tool?: string;
  summary?: string;
}

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
  const v = a.value as
    | {
        form?: string;
        points?: { volumeAngstrom3: number; energyEv: number }[];
        v0Angstrom3?: number;
        b0GPa?: number;
        e0Ev?: number;
        b0Prime?: number;
      }
    | undefined;
  if (!v?.points?.length || v.points.length < 2) return undefined;
  const points = v.points.map((p) => ({ volumeA3: p.volumeAngstrom3, energyEv: p.energyEv }));
  let curve: { volumeA3: number; energyEv: number }[] = [];
  const energy = v.form ? EOS_ENERGY[v.form] : undefined;
  if (energy && v.v0Angstrom3 !== undefined && v.b0GPa !== undefined && v.e0Ev !== undefined && v.b0Prime !== undefined) {
    const params: EosParameters = { e0: v.e0Ev, v0: v.v0Angstrom3, b0: v.b0GPa / EV_PER_ANGSTROM3_IN_GPA, b0Prime: v.b0Prime };
    const lo = Math.min(...points.map((p) => p.volumeA3)),
      hi = Math.max(...points.map((p) => p.volumeA3));
    curve = Array.from({ length: 61 }, (_, i) => lo + ((hi - lo) * i) / 60)
      .map((vol) => ({ volumeA3: vol, energyEv: energy(vol, params) }))
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
  const v = a.value as
    | { parameter?: string; tested?: { value: number; deltaMevPerAtom: number }[]; chosenValue?: number; toleranceMevPerAtom?: number }
    | undefined;
  if (!v?.tested?.length || !v.parameter) return undefined;
  const plot: PlotData = {
    kind: 'convergence',
    title: `Convergence of ${v.parameter} (${a.id})`,
    parameter: v.parameter,
    unit: v.parameter === 'ecutwfc' ? 'Ry' : '1/Å',
    points: v.tested.map((t) => ({ x: t.value, deltaMeVPerAtom: Math.abs(t.deltaMevPerAtom) })),
    panels: convergencePanels(a.value as ConvergenceSelectionValue),
    artifact: a.id,
  };
  if (v.toleranceMevPerAtom !== undefined) plot.thresholdMeVPerAtom = v.toleranceMevPerAtom;
  if (v.chosenValue !== undefined) plot.chosen = v.chosenValue;
  if ((a.value as ConvergenceSelectionValue).converged === false) plot.notConverged = true;
  return plot;
}

/** Band structures, DOS and PDOS: their values are the plot data (src/shared/electronicStructure.ts). */
function electronicPlot(a: ArtifactRecord): PlotData | undefined {
  const v = a.value as { bandsEv?: unknown; energiesEv?: unknown } | undefined;
  if (a.name === 'band_structure' && Array.isArray(v?.bandsEv))
    return { kind: 'band-structure', title: `Band structure (${a.id})`, data: a.value as BandStructurePlotData, artifact: a.id };
  if ((a.name === 'dos' || a.name === 'pdos') && Array.isArray(v?.energiesEv))
    return {
      kind: 'dos',
      title: `${a.name === 'pdos' ? 'Projected DOS' : 'Density of states'} (${a.id})`,
      data: a.value as DosPlotData,
      artifact: a.id,
    };
  return undefined;
}

/**
 * A relaxation's trajectory (energy against the final energy and the largest force per geometry)
 * and a magnetization's table: their values carry the shapes of src/shared/relaxationAndMagnetism.ts.
 */
function everydayPlot(a: ArtifactRecord): PlotData | undefined {
  const v = a.value as { steps?: unknown; finalEnergyEv?: unknown; sites?: unknown; totalBohrMagnetonPerCell?: unknown } | undefined;
  if (a.name === 'relaxation' && Array.isArray(v?.steps)) {
    const data = a.value as RelaxationTrajectoryPlotData;
    const last = [...data.steps].reverse().find((s) => s.energyEv !== undefined)?.energyEv;
    const finalEnergyEv = typeof v.finalEnergyEv === 'number' ? v.finalEnergyEv : last;
    if (finalEnergyEv === undefined) return undefined;
    const what = data.calculation === 'vc-relax' ? 'Variable-cell relaxation' : 'Relaxation';
    return { kind: 'relaxation', title: `${what} (${a.id})`, data, finalEnergyEv, artifact: a.id };
  }
  if (a.name === 'magnetization' && Array.isArray(v?.sites) && typeof v.totalBohrMagnetonPerCell === 'number')
    return { kind: 'magnetization', title: `Magnetization (${a.id})`, data: a.value as MagnetizationTableData, artifact: a.id };
  return undefined;
}

function structureView(a: ArtifactRecord): StructureData | undefined {
  const s = a.value as
    | { symbols?: string[]; positions?: [number, number, number][]; cell?: StructureData['cell']; fixed?: boolean[]; tags?: number[] }
    | undefined;
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
  private readonly approvals = new Map<
    string,
    { request: ApprovalRequest; answer?: ApprovalAnswer; closed?: { reason: string; at: string; supersededBy?: string } }
  >();
  private readonly reportVerdicts = new Map<string, Verdict>();
  private last = 0;
  runId: string | undefined;
  objective: string | undefined;
  // What the summary and the step cells show, kept as events arrive.
  /**
   * How many times the plan was revised: versions that add, drop, reorder or change a step (its
   * title, tool, worker, arguments or dependencies). A step's status or summary changing is the
   * plan being carried out, not revised, though each such change is a version of the key too.
   */
  private planRevisions = 0;
  /** The latest plan's steps without their status, to tell a revision from a status change. */
  private planShape: string | undefined;
  private readonly steps = new Map<string, StepView>();
  /** Step ids in the latest plan's order; a step a later version dropped stays after its predecessor. */
  private stepOrder: string[] = [];
  private readonly stepAttempts = new Map<string, number>();
  private state: RunState = 'created';
  private reason: string | undefined;
  private tokens = 0;
  private cost = 0;
  private unpriced = false;
  private readonly jobs = new Map<string, JobRecord>();
  /** Calls by the plan step they serve, in the order they started. */
  private readonly callsByStep = new Map<string, string[]>();
  /** Cells whose content is built when asked for (the summary, steps and report change with many events). */
  private readonly dirty = new Map<string, number>();
  /** The latest report: its artifact and the call that wrote it. */
  private report: { artifact: string; call: string } | undefined;
  /** The events applied, in order: the composed report is written from them (as report.md is). */
  private readonly history: CanvasEvent[] = [];
  /** What is wrong with the log the events came from (damage, a torn last line), said at the top of the summary. */
  private logWarning: string | undefined;

  /** `readFile`: a file of the run by its artifact location (relative to the run directory), for the report's text. */
  constructor(private readonly opts: { readFile?: (location: string) => string | undefined } = {}) {}

  get lastSeq(): number {
    return this.last;
  }

  /** Apply one event; returns the ids of the cells it added or changed. */
  apply(e: CanvasEvent): string[] {
    if (e.seq <= this.last) return [];
    this.last = e.seq;
    this.history.push(e);
    const changed = this.fold(e);
    // The report cell is the composed report (jobs, guard, usage and plan as they stand): any event may change it.
    return this.report && !changed.includes(REPORT_CELL) ? [...changed, ...this.reportCell(e.seq)] : changed;
  }

  /**
   * A sentence (or a few) on what is wrong with the log these events come from — damaged lines not
   * read, a torn last line — shown at the top of the summary and of the report; undefined when nothing
   * is. Returns the cells it changed.
   */
  setLogWarning(warning: string | undefined): string[] {
    if (warning === this.logWarning) return [];
    this.logWarning = warning;
    return [...this.summaryCell(this.last), ...this.reportCell(this.last)];
  }

  private fold(e: CanvasEvent): string[] {
    switch (e.kind) {
      case 'run.start': {
        const p = e.payload;
        this.runId = p.runId;
        this.objective = p.objective;
        return this.summaryCell(e.seq);
      }
      case 'run.state':
        this.state = e.payload.state;
        this.reason = e.payload.reason;
        return this.summaryCell(e.seq);
      case 'llm.usage': {
        const r = e.payload;
        this.tokens += r.usage.inputTokens + r.usage.outputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens;
        if (r.costUsd === null) this.unpriced = true;
        else this.cost += r.costUsd;
        return this.summaryCell(e.seq);
      }
      case 'step.start': {
        const p = e.payload;
        this.stepAttempts.set(p.id, p.attempt);
        const s = this.steps.get(p.id);
        if (s) {
          s.worker = p.worker;
          s.tool = p.tool;
        }
        return this.steps.has(p.id) ? this.stepCell(p.id, e.seq) : [];
      }
      case 'key.write':
      case 'user.edit':
        return this.keyWrite(e);
      case 'provenance.call': {
        const c = e.payload;
        if (c.step && !this.calls.has(c.id)) {
          const list = this.callsByStep.get(c.step);
          if (list) list.push(c.id);
          else this.callsByStep.set(c.step, [c.id]);
        }
        this.calls.set(c.id, c);
        this.groups.call(c.id, c.tool, c.step);
        // a step's cell lists its calls as they start and end
        return c.step ? this.stepCell(c.step, e.seq) : [];
      }
      case 'provenance.call.end': {
        const c = this.calls.get(e.payload.id);
        if (!c) return [];
        c.status = e.payload.status;
        return c.step ? this.stepCell(c.step, e.seq) : [];
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
        if (r.name === 'report' && r.kind === 'file') {
          this.report = { artifact: r.id, call: r.creator };
          return [...this.artifactCell(r.id, e.seq), ...this.reportCell(e.seq), ...this.summaryCell(e.seq)];
        }
        return [...this.artifactCell(r.id, e.seq), ...this.gapBandsCells(r, e.seq)];
      }
      case 'provenance.status': {
        const p = e.payload;
        return p.ids.flatMap((id) => {
          const a = this.artifacts.get(id);
          if (!a) return [];
          a.status = p.status;
          return [...this.artifactCell(id, e.seq), ...this.gapBandsCells(a.record, e.seq)];
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
        return [...this.approvalCell(r.id, e.seq), ...this.summaryCell(e.seq)];
      }
      case 'approval.answer': {
        const a = e.payload;
        const entry = this.approvals.get(a.id);
        if (!entry || entry.answer) return []; // the first answer stands
        entry.answer = a;
        return [...this.approvalCell(a.id, e.seq), ...this.summaryCell(e.seq)];
      }
      case 'approval.closed': {
        // a rerun superseded the result it was raised on: nothing is left to decide
        const c = e.payload;
        const entry = this.approvals.get(c.id);
        if (!entry || entry.answer || entry.closed) return [];
        entry.closed = { reason: c.reason, at: c.at, ...(c.supersededBy ? { supersededBy: c.supersededBy } : {}) };
        return [...this.approvalCell(c.id, e.seq), ...this.summaryCell(e.seq)];
      }
      case 'job.transition': {
        const j = e.payload;
        this.jobs.set(j.id, j);
        return [...this.jobCell(j, e.seq), ...this.summaryCell(e.seq)];
      }
      case 'report.judged': {
        // The report judge rules after the report is written: its verdict updates the report's card.
        const j = e.payload;
        if (!j.call || !j.report || !this.artifacts.has(j.report)) return [];
        const level = j.level ?? (j.accepted ? 'pass' : 'fail');
        this.reportVerdicts.set(j.call, {
          tier: 'report',
          rule: 'report-judge',
          level,
          reasons: j.summary ? [j.summary] : [],
          judged: true,
        });
        return this.report?.call === j.call ? [...this.reportCell(e.seq), ...this.summaryCell(e.seq)] : [];
      }
      case 'guard.verdict': {
        const p = e.payload;
        const call = this.calls.get(p.call);
        if (call) call.verdicts = p.verdicts;
        const report = p.verdicts.find((v) => v.tier === 'report');
        if (report) this.reportVerdicts.set(p.call, report);
        return call?.step ? this.stepCell(call.step, e.seq) : [];
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

  /** In notebook order: the summary first, the report last, the rest as they were first made. */
  cells(): CanvasCell[] {
    return this.cellOrder().map((id) => this.cell(id)!);
  }

  cell(id: string): CanvasCell | undefined {
    const seq = this.dirty.get(id);
    if (seq !== undefined) {
      this.dirty.delete(id);
      this.cellsById.set(id, this.build(id, seq));
    }
    return this.cellsById.get(id);
  }

  /** The projection's order of cell ids (without building them). */
  cellOrder(): string[] {
    const rank = (id: string) => (id === SUMMARY_CELL ? 0 : id === REPORT_CELL ? 2 : 1);
    // Step cells fill the places step cells hold, in the plan's order: a step a later plan
    // version adds before others (a k sweep extended before the report) shows there, not last.
    const ids = [...this.order];
    const planRank = new Map(this.stepOrder.map((id, i) => [`steps/${id}`, i]));
    const slots = ids.flatMap((id, i) => (planRank.has(id) ? [i] : []));
    const inPlanOrder = slots.map((i) => ids[i]!).sort((a, b) => planRank.get(a)! - planRank.get(b)!);
    slots.forEach((slot, k) => (ids[slot] = inPlanOrder[k]!));
    return ids.sort((a, b) => rank(a) - rank(b));
  }

  /**
   * The cell that shows an artifact (its creator's), a call (its step's or its batch's), an
   * approval (`ap-3` or `approvals/ap-3`: the cell of the step that raised it) or a job; undefined
   * when there is none.
   */
  cellIdOf(id: string): string | undefined {
    if (this.cellsById.has(id)) return id;
    const approval = this.approvals.get(id.startsWith('approvals/') ? id.slice('approvals/'.length) : id);
    if (approval) return this.approvalCellId(approval.request);
    const job = this.jobs.get(id.startsWith('jobs/') ? id.slice('jobs/'.length) : id);
    if (job) return this.jobCellId(job);
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

  /** A cell built when next asked for: many events change it, one build serves them all. */
  private later(id: string, seq: number): string[] {
    if (!this.cellsById.has(id)) {
      this.order.push(id);
      this.cellsById.set(id, { kind: 'event', id, text: '' });
    }
    this.dirty.set(id, seq);
    return [id];
  }

  private build(id: string, seq: number): CanvasCell {
    if (id === SUMMARY_CELL) return this.buildSummary(seq);
    if (id === REPORT_CELL) return this.buildReport(seq);
    if (id.startsWith('calls/')) return this.buildCallGroup(id, seq);
    return this.buildStep(id.slice('steps/'.length), seq);
  }

  private summaryCell(seq: number): string[] {
    return this.runId === undefined && this.logWarning === undefined ? [] : this.later(SUMMARY_CELL, seq);
  }

  private stepCell(step: string, seq: number): string[] {
    return this.later(CallGroups.stepCell(step), seq);
  }

  private reportCell(seq: number): string[] {
    return this.report ? this.later(REPORT_CELL, seq) : [];
  }

  /** The run at a glance, rewritten in place: what was asked, where it stands, what it found and what it cost. */
  private buildSummary(seq: number): CanvasCell {
    const steps = this.stepOrder.map((id) => this.steps.get(id)!);
    const done = steps.filter((st) => st.status === 'done').length;
    const running = steps.filter((st) => st.status === 'running');
    const jobs = [...this.jobs.values()];
    const count = (state: string) => jobs.filter((j) => j.state === state).length;
    const active = jobs.length - count('completed') - count('failed') - count('cancelled');
    const open = this.pendingApprovals();
    const rows: [string, string][] = [
      ['Objective', this.objective ?? ''],
      [
        'State',
        `**${this.state}**${this.reason ? ` (${this.reason})` : ''}` +
          (steps.length
            ? ` · ${done}/${steps.length} steps done${running.length ? `, running: ${running.map((st) => `${st.title} (${st.id})`).join(', ')}` : ''} · ${planRevisionsText(this.planRevisions)}`
            : ''),
      ],
    ];
    const report = this.report ? this.artifacts.get(this.report.artifact) : undefined;
    const claims =
      (report?.record.value as { claims?: { quantity: string; value: number; unit?: string; cites: string }[] } | undefined)?.claims ?? [];
    if (claims.length) {
      rows.push([
        'Result',
        claims
          .slice(0, 4)
          .map((c) => `${c.quantity.replace(/_/g, ' ')} = **${fmt(c.value)}${c.unit ? ' ' + c.unit : ''}** (artifact ${c.cites})`)
          .join('; ') + (claims.length > 4 ? `; ${claims.length - 4} more in the report` : ''),
      ]);
    } else {
      rows.push([
        'Result',
        this.state === 'completed' ? 'no report with claims was written' : 'not yet: the report states it when the run is done',
      ]);
    }
    const verdict = this.report ? this.reportVerdicts.get(this.report.call) : undefined;
    rows.push([
      'Report',
      !this.report
        ? 'not written yet'
        : !verdict
          ? `${this.report.artifact}, not yet judged`
          : `${this.report.artifact}: ${verdict.level === 'pass' ? 'accepted by the report judge' : `${verdict.level} from the report judge`}${verdict.judged === false ? ' (not judged: no judge model)' : ''}`,
    ]);
    rows.push([
      'Tokens and cost',
      `${this.tokens.toLocaleString('en-US')} tokens · ${this.unpriced ? 'cost unknown (a model without a price answered)' : `$${this.cost.toFixed(2)}`}`,
    ]);
    rows.push([
      'Jobs',
      jobs.length
        ? `${count('completed')}/${jobs.length} completed${active ? `, ${active} queued or running` : ''}${count('failed') ? `, ${count('failed')} failed` : ''}${count('cancelled') ? `, ${count('cancelled')} cancelled` : ''}`
        : 'none',
    ]);
    rows.push([
      'Open approvals',
      open.length
        ? open
            .map(
              (r) =>
                `${r.id} (${r.tool}${r.parameter ? `.${r.parameter}` : ''}${this.calls.get(r.call)?.step ? `, step ${this.calls.get(r.call)!.step}` : ''})`,
            )
            .join(', ')
        : 'none',
    ]);
    const cellText = (x: string) => x.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    const [head, ...rest] = rows.map(([k, v]) => `| ${k} | ${cellText(v)} |`);
    const warning = this.logWarning ? [...this.logWarning.split('\n').map((l, i) => `> ${i === 0 ? '**⚠** ' : ''}${l}`), ''] : [];
    const text = [`### Run ${this.runId ?? ''}`, '', ...warning, head, '|---|---|', ...rest].join('\n');
    return { kind: 'summary', id: SUMMARY_CELL, text, seq };
  }

  /** One plan step: what it is, where it stands, what its calls made, and what it asks of the user. */
  private buildStep(stepId: string, seq: number): CanvasCell {
    const step = this.steps.get(stepId) ?? { id: stepId, title: stepId, status: 'running' };
    const index = this.stepOrder.indexOf(stepId);
    const calls = (this.callsByStep.get(stepId) ?? []).map((c) => this.calls.get(c)!);
    const tool = step.tool ?? calls[0]?.tool;
    const worker = step.worker ?? calls[0]?.agent.role;
    const attempt = this.stepAttempts.get(stepId);
    const lines = [
      `${index >= 0 ? `Step ${index + 1} of ${this.stepOrder.length}` : 'Step'}: ${step.title} — ${step.status}`,
      [worker ? `worker ${worker}` : '', tool ? `tool ${tool}` : '', `id ${stepId}${attempt && attempt > 1 ? `, attempt ${attempt}` : ''}`]
        .filter(Boolean)
        .join(' · '),
    ];
    const levels = { pass: 0, warn: 0, fail: 0, notJudged: 0 };
    const flagged = new Set<string>();
    for (const c of calls) {
      for (const v of c.verdicts ?? []) {
        if (v.judged === false) levels.notJudged++;
        else levels[v.level]++;
        if (v.level !== 'pass') flagged.add(v.rule);
      }
    }
    if (calls.length) {
      lines.push(
        `verdicts: ${[levels.pass ? `${levels.pass} pass` : '', levels.warn ? `${levels.warn} warn` : '', levels.fail ? `${levels.fail} fail` : '', levels.notJudged ? `${levels.notJudged} not judged` : ''].filter(Boolean).join(', ') || 'none yet'}` +
          (flagged.size ? ` (${[...flagged].join(', ')})` : ''),
      );
    }
    if (step.summary) lines.push(step.summary);
    const states = (call: string) => (this.byCall.get(call) ?? []).map((x) => this.artifacts.get(x)!);
    const mark = (a: ArtifactState) => (a.status !== 'final' ? ` (${a.status})` : '');
    for (const c of calls.slice(0, STEP_CALL_LINES)) {
      const made = states(c.id);
      lines.push(`${c.id} ${c.status}${made.length ? `: ${made.map((a) => briefOf(a.record) + mark(a)).join(' · ')}` : ''}`);
    }
    if (calls.length > STEP_CALL_LINES) lines.push(`… ${calls.length - STEP_CALL_LINES} more calls (every card is in the output)`);
    const outputs: CanvasOutputItem[] = [];
    const all = calls.flatMap((c) => states(c.id));
    if (all.length) outputs.push({ mime: CANVAS_MIME.artifacts, data: { cards: all.map((a) => this.card(a)) } satisfies ArtifactListData });
    for (const a of all) outputs.push(...this.extraOutputs(a));
    // approvals inline: the ones its calls raised, in the order raised
    const callIds = new Set(calls.map((c) => c.id));
    const approvals = [...this.approvals.values()].filter((x) => callIds.has(x.request.call));
    const waiting = approvals.filter((x) => !x.answer && !x.closed).length;
    if (approvals.length)
      lines.push(`approvals: ${approvals.length}${waiting ? `, ${waiting} waiting for your answer` : ', all answered or closed'}`);
    for (const x of approvals) outputs.push({ mime: CANVAS_MIME.approval, data: this.approvalData(x) });
    // jobs: a line for all of them, a card (with live progress) for those not yet completed
    const jobs = [...this.jobs.values()].filter((j) => j.call && callIds.has(j.call));
    if (jobs.length) {
      const completed = jobs.filter((j) => j.state === 'completed').length;
      lines.push(`jobs: ${completed}/${jobs.length} completed`);
      for (const j of jobs) if (j.state !== 'completed') outputs.push({ mime: CANVAS_MIME.job, data: this.jobData(j) });
    }
    return { kind: 'step', id: CallGroups.stepCell(stepId), text: lines.join('\n'), seq, outputs };
  }

  /**
   * The run's report in full, as report.md has it (runReport.ts, from the same events): the judge's
   * verdict, the report's text, its claims, the convergence and EOS tables, the plots (SVG text the
   * renderer draws inline), the plan, jobs and guard; its claims also as data, so the renderer links
   * each claimed number to its artifact.
   */
  private buildReport(seq: number): CanvasCell {
    const r = this.report!;
    const a = this.artifacts.get(r.artifact)!;
    const value = a.record.value as
      | { title?: string; claims?: { quantity: string; value: number; unit?: string; cites: string }[] }
      | undefined;
    const rendered = renderRunReport({
      runId: this.runId ?? '',
      events: this.history,
      artifacts: () => [...this.artifacts.values()].map((x) => ({ ...x.record, status: x.status, concerns: x.concerns })),
      calls: () => [...this.calls.values()],
      readFile: (location) => this.opts.readFile?.(location),
    });
    const markdown = (this.logWarning ? `> **${this.logWarning.replace(/\n/g, ' ')}**\n\n` : '') + rendered.markdown;
    const images: Record<string, string> = {};
    for (const [name, svg] of Object.entries(rendered.plots)) if (markdown.includes(`](plots/${name})`)) images[`plots/${name}`] = svg;
    const data: ReportData = {
      markdown,
      artifact: r.artifact,
      claims: (value?.claims ?? []).map((c) => ({
        quantity: c.quantity,
        value: c.value,
        ...(c.unit ? { unit: c.unit } : {}),
        artifact: c.cites,
      })),
      composed: true,
      images,
    };
    const verdict = this.reportVerdicts.get(r.call);
    if (verdict) data.verdict = { level: verdict.level, reasons: verdict.reasons };
    const status = a.status !== 'final' ? ` (${a.status})` : '';
    return {
      kind: 'report',
      id: REPORT_CELL,
      text: `Report ${r.artifact}${status}: ${value?.title ?? ''}`,
      seq,
      outputs: [{ mime: CANVAS_MIME.report, data }],
    };
  }

  private keyWrite(e: CanvasEvent<'key.write' | 'user.edit'>): string[] {
    const key = e.key ?? '';
    const p = e.payload;
    const version = 'version' in p ? p.version : undefined;
    if (key === 'plan') {
      // One cell per step, made when the plan names it and rewritten as it goes; the summary counts them.
      const plan = p.value as {
        objective?: string;
        version?: number;
        steps?: { id: string; title: string; status: string; summary?: string; worker?: string; tool?: string }[];
      };
      const shape = JSON.stringify((plan.steps ?? []).map(({ status: _status, summary: _summary, ...definition }) => definition));
      if (this.planShape !== undefined && shape !== this.planShape) this.planRevisions++;
      this.planShape = shape;
      const changed: string[] = [];
      const numbered = new Map(this.stepOrder.map((id, i) => [id, i]));
      this.stepOrder = mergeStepOrder(
        this.stepOrder,
        (plan.steps ?? []).map((st) => st.id),
      );
      // A step whose number moved ("Step 3 of 9") is written again.
      this.stepOrder.forEach((id, i) => {
        if (numbered.has(id) && this.steps.has(id) && (numbered.get(id) !== i || numbered.size !== this.stepOrder.length))
          changed.push(...this.stepCell(id, e.seq));
      });
      for (const st of plan.steps ?? []) {
        const before = this.steps.get(st.id);
        const view: StepView = {
          id: st.id,
          title: st.title,
          status: st.status,
          ...(st.worker ? { worker: st.worker } : {}),
          ...(st.tool ? { tool: st.tool } : {}),
          ...(st.summary ? { summary: st.summary } : {}),
        };
        if (!before || JSON.stringify(before) !== JSON.stringify(view)) {
          this.steps.set(st.id, view);
          changed.push(...this.stepCell(st.id, e.seq));
        }
      }
      return [...changed, ...this.summaryCell(e.seq)];
    }
    if (key.startsWith('notes/')) {
      const text = typeof p.value === 'string' ? p.value : '```json\n' + JSON.stringify(p.value, null, 2) + '\n```';
      return this.put({ kind: 'note', id: key, text: `**${key}** (version ${version ?? 1}, ${e.actor.id})\n\n${text}`, seq: e.seq });
    }
    if (key.startsWith('reports/')) {
      const v = p.value as { text?: string; markdown?: string } | string;
      const markdown = typeof v === 'string' ? v : (v.markdown ?? v.text ?? JSON.stringify(v, null, 2));
      const data: ReportData = { markdown };
      return this.put({
        kind: 'report',
        id: key,
        text: `Report ${key.slice('reports/'.length)}`,
        seq: e.seq,
        outputs: [{ mime: CANVAS_MIME.report, data }],
      });
    }
    return [];
  }

  /** One artifact's card. */
  private card(a: ArtifactState): ArtifactCardData {
    const r = a.record;
    const card: ArtifactCardData = {
      id: r.id,
      kind: r.kind,
      name: r.name,
      status: a.status,
      creator: r.creator,
      inputs: r.inputs ?? [],
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
  /** (A report has a cell of its own: the report cell.) */
  private extraOutputs(a: ArtifactState): CanvasOutputItem[] {
    const r = a.record;
    const outputs: CanvasOutputItem[] = [];
    const plot =
      r.name === 'eos_fit' ? eosPlot(r) : r.name === 'converged_settings' ? convergencePlot(r) : (electronicPlot(r) ?? everydayPlot(r));
    if (plot?.kind === 'band-structure') {
      const gap = this.gapOf(r.id);
      if (gap) plot.data = { ...plot.data, gap };
    }
    if (plot) outputs.push({ mime: CANVAS_MIME.plot, data: plot });
    if (r.kind === 'structure') {
      const s = structureView(r);
      if (s) outputs.push({ mime: CANVAS_MIME.structure, data: s });
    }
    return outputs;
  }

  /**
   * The band edges the latest band_gap computed from band structure `id` (not stale), to mark on
   * its plot: band_gap is a later call than run_bands_x, so the band plot gains them when it lands.
   */
  private gapOf(id: string): BandStructurePlotData['gap'] {
    const gap = [...this.artifacts.values()]
      .filter((a) => a.record.name === 'band_gap' && a.status !== 'stale' && (a.record.inputs ?? []).includes(id))
      .at(-1)?.record.value as
      | { gapEv?: number; direct?: boolean; vbm?: { x: number; energyEv: number }; cbm?: { x: number; energyEv: number } }
      | undefined;
    if (typeof gap?.gapEv !== 'number' || !gap.vbm || !gap.cbm) return undefined;
    return {
      gapEv: gap.gapEv,
      direct: !!gap.direct,
      vbm: { x: gap.vbm.x, energyEv: gap.vbm.energyEv },
      cbm: { x: gap.cbm.x, energyEv: gap.cbm.energyEv },
    };
  }

  /** A band gap changes the plot of the band structure it was computed from: that cell is built again. */
  private gapBandsCells(r: ArtifactRecord, seq: number): string[] {
    if (r.name !== 'band_gap') return [];
    return (r.inputs ?? []).flatMap((id) => (this.artifacts.get(id)?.record.name === 'band_structure' ? this.artifactCell(id, seq) : []));
  }

  /** The cell of the calls that created artifact `id`: one line per call (per artifact for a single call). */
  private artifactCell(id: string, seq: number): string[] {
    const group = this.groups.groupOf(this.artifacts.get(id)!.record.creator)!;
    return this.later(group, seq);
  }

  private buildCallGroup(group: string, seq: number): CanvasCell {
    const calls = this.groups.callsOf(group);
    const statesOf = (call: string) => (this.byCall.get(call) ?? []).map((x) => this.artifacts.get(x)!);
    const mark = (a: ArtifactState) => (a.status !== 'final' ? ` (${a.status})` : '');
    const states = calls.flatMap(statesOf);
    const text =
      calls.length === 1
        ? states.map((a) => summaryOf(a.record) + mark(a)).join('\n')
        : [
            `${this.calls.get(calls[0]!)?.tool ?? 'tool'} × ${calls.length}`,
            ...calls.map(
              (c) =>
                `${c}: ${statesOf(c)
                  .map((a) => briefOf(a.record) + mark(a))
                  .join(' · ')}`,
            ),
          ].join('\n');
    // the cards as one output: every output costs the notebook as much as a small cell does
    const cards: ArtifactListData = { cards: states.map((a) => this.card(a)) };
    const outputs: CanvasOutputItem[] = [{ mime: CANVAS_MIME.artifacts, data: cards }, ...states.flatMap((a) => this.extraOutputs(a))];
    return { kind: 'artifact', id: group, text, seq, outputs };
  }

  private approvalCellId(r: ApprovalRequest): string {
    const step = this.calls.get(r.call)?.step;
    return step ? CallGroups.stepCell(step) : `approvals/${r.id}`;
  }

  private jobCellId(j: JobRecord): string {
    const step = j.call ? this.calls.get(j.call)?.step : undefined;
    return step ? CallGroups.stepCell(step) : `jobs/${j.id}`;
  }

  /** An approval's card: in the cell of the step whose call raised it, or a cell of its own. */
  private approvalCell(id: string, seq: number): string[] {
    const entry = this.approvals.get(id)!;
    const cellId = this.approvalCellId(entry.request);
    if (cellId.startsWith('steps/')) return this.later(cellId, seq);
    const r = entry.request;
    const data = this.approvalData(entry);
    const state = entry.answer
      ? `${entry.answer.decision === 'approve' ? 'approved' : 'rejected'}${entry.answer.under ? ` (standing approval of ${entry.answer.under})` : entry.answer.standing ? ' (standing: and later ones like it)' : ''}`
      : entry.closed
        ? `closed, ${entry.closed.reason}`
        : 'waiting for your answer';
    return this.put({
      kind: 'approval',
      id: `approvals/${id}`,
      text: `Approval ${id}: ${r.tool}${r.parameter ? `.${r.parameter}` : ''} — ${state}`,
      seq,
      outputs: [{ mime: CANVAS_MIME.approval, data }],
    });
  }

  private approvalData(entry: {
    request: ApprovalRequest;
    answer?: ApprovalAnswer;
    closed?: { reason: string; at: string; supersededBy?: string };
  }): ApprovalCardData {
    const r = entry.request;
    const call = this.calls.get(r.call);
    const data: ApprovalCardData = {
      request: {
        id: r.id,
        call: r.call,
        tool: r.tool,
        verdicts: r.verdicts.map((v) => ({ rule: v.rule, level: v.level, reasons: v.reasons })),
        provenancePath: r.provenancePath,
        createdAt: r.createdAt,
        ...(r.parameter !== undefined ? { parameter: r.parameter } : {}),
        ...(r.value !== undefined ? { value: r.value } : {}),
      },
    };
    const reason = r.parameter ? call?.reasons?.[r.parameter] : undefined;
    if (reason) data.agentReason = reason;
    if (call?.context) data.context = call.context;
    if (entry.answer) {
      const a = entry.answer;
      data.answer = {
        decision: a.decision,
        by: a.by,
        at: a.at,
        ...(a.comment ? { comment: a.comment } : {}),
        ...(a.standing ? { standing: true } : {}),
        ...(a.under ? { under: a.under } : {}),
      };
    }
    if (entry.closed && !entry.answer) data.closed = entry.closed;
    return data;
  }

  /** A job's card: in its step's cell (while it is not completed), or a cell of its own. */
  private jobCell(j: JobRecord, seq: number): string[] {
    const cellId = this.jobCellId(j);
    if (cellId.startsWith('steps/')) return this.later(cellId, seq);
    return this.put({
      kind: 'job',
      id: `jobs/${j.id}`,
      text: `Job ${j.id} on ${j.backend}: ${j.state}`,
      seq,
      outputs: [{ mime: CANVAS_MIME.job, data: this.jobData(j) }],
    });
  }

  private jobData(j: JobRecord): JobCardData {
    const data: JobCardData = { id: j.id, backend: j.backend, state: j.state };
    if (j.schedulerId) data.schedulerId = j.schedulerId;
    if (j.error) data.error = j.error;
    const p = j.progress;
    if (p) {
      const parts = [
        p.scfIteration !== undefined ? `SCF iteration ${p.scfIteration}` : '',
        p.estimatedAccuracyRy !== undefined ? `accuracy ${p.estimatedAccuracyRy} Ry` : '',
        p.bfgsStep !== undefined ? `BFGS step ${p.bfgsStep}` : '',
      ].filter(Boolean);
      if (parts.length) data.progress = parts.join(', ');
    }
    if (j.startedAt) {
      const end = j.endedAt ? Date.parse(j.endedAt) : Date.parse(j.updatedAt);
      data.elapsedSeconds = Math.max(0, (end - Date.parse(j.startedAt)) / 1000);
    }
    return data;
  }
}

/** The summary's word on the plan: "plan as first made", "plan revised once", "plan revised 3 times". */
export function planRevisionsText(revisions: number): string {
  return revisions === 0 ? 'plan as first made' : revisions === 1 ? 'plan revised once' : `plan revised ${revisions} times`;
}

/**
 * The steps' order after a new plan version: the plan's own order, and a step it no longer
 * names (dropped or replaced) kept after the step that preceded it before, so its cell stays.
 */
export function mergeStepOrder(before: readonly string[], plan: readonly string[]): string[] {
  const out = [...new Set(plan)];
  const inPlan = new Set(out);
  before.forEach((id, i) => {
    if (inPlan.has(id)) return;
    let at = 0;
    for (let k = i - 1; k >= 0; k--) {
      const j = out.indexOf(before[k]!);
      if (j >= 0) {
        at = j + 1;
        break;
      }
    }
    out.splice(at, 0, id);
  });
  return out;
}
