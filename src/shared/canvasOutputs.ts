/**
 * Output payloads of canvas notebook cells (one MIME type each) and the messages the
 * notebook renderer exchanges with the extension host. Types only. Energies in eV,
 * lengths in Å, volumes in Å³: the same units as the core.
 */

import type { BandStructurePlotData, DosPlotData } from './electronicStructure';
import type { MagnetizationTableData, RelaxationTrajectoryPlotData } from './relaxationAndMagnetism';

export const CANVAS_MIME = {
  approval: 'application/vnd.dreams.approval+json',
  artifact: 'application/vnd.dreams.artifact+json',
  /** The artifacts of one tool call, as one output (ArtifactListData). */
  artifacts: 'application/vnd.dreams.artifacts+json',
  plan: 'application/vnd.dreams.plan+json',
  report: 'application/vnd.dreams.report+json',
  structure: 'application/vnd.dreams.structure+json',
  plot: 'application/vnd.dreams.plot+json',
  job: 'application/vnd.dreams.job+json',
} as const;

export type VerdictLevelData = 'pass' | 'warn' | 'fail';

export interface ApprovalAnswerData {
  decision: 'approve' | 'reject';
  comment?: string;
  by: string;
  at: string;
  /** It also approves later requests of the same concern in the run. */
  standing?: boolean;
  /** Approved by the standing approval of this request. */
  under?: string;
}

export interface ApprovalCardData {
  request: {
    id: string;
    call: string;
    tool: string;
    parameter?: string;
    value?: unknown;
    verdicts: { rule: string; level: VerdictLevelData; reasons: string[] }[];
    provenancePath: string[];
    createdAt: string;
  };
  /** The agent's stated reason for the value in question, from the call record. */
  agentReason?: string;
  /** The context the agent declared for the call. */
  context?: string;
  answer?: ApprovalAnswerData;
  /** Closed without an answer: the result it was raised on was superseded (nothing is left to decide). */
  closed?: { reason: string; at: string; supersededBy?: string };
}

export interface ArtifactCardData {
  id: string;
  kind: string;
  name: string;
  value?: unknown;
  unit?: string;
  status: 'final' | 'provisional' | 'stale';
  concerns: { level: 'warn' | 'fail'; message: string; source: string }[];
  creator: string;
  /** The tool that created it. */
  tool?: string;
  inputs: string[];
  location?: string;
}

/** Every artifact a tool call made, in the order it made them: one output for the call's cell. */
export interface ArtifactListData {
  cards: ArtifactCardData[];
}

/** A quantity a convergence sweep can be judged by: energy per atom, lattice shift (pressure), c/a shift (shape), moment, gap, force. */
export type ConvergenceQuantity = 'energy' | 'lattice' | 'shape' | 'moment' | 'gap' | 'force';

/** One judged quantity of a sweep: its change against the finest run per tested value (≥ 0, in `unit`) and its tolerance. */
export interface ConvergencePanelData {
  quantity: ConvergenceQuantity;
  label: string;
  unit: string;
  points: { x: number; y: number }[];
  tolerance?: number;
}

export type PlotData =
  | {
      kind: 'eos';
      title: string;
      points: { volumeA3: number; energyEv: number }[];
      fit?: { curve: { volumeA3: number; energyEv: number }[]; v0A3?: number; b0GPa?: number; e0Ev?: number; form?: string };
      /** The artifact plotted, for the provenance link. */
      artifact?: string;
    }
  | {
      kind: 'convergence';
      title: string;
      parameter: string;
      unit: string;
      /** |E(x) − E(finest)| per atom (what outputs written before `panels` drew). */
      points: { x: number; deltaMeVPerAtom: number }[];
      thresholdMeVPerAtom?: number;
      /** One panel per quantity the sweep was judged by (core/report/convergencePanels.ts); drawn instead of `points` when present. */
      panels?: ConvergencePanelData[];
      chosen?: number;
      /** The sweep did not show convergence (the chosen value is the finest tested). */
      notConverged?: boolean;
      artifact?: string;
    }
  | { kind: 'band-structure'; title: string; data: BandStructurePlotData; artifact?: string }
  | { kind: 'dos'; title: string; data: DosPlotData; artifact?: string }
  | {
      kind: 'relaxation';
      title: string;
      data: RelaxationTrajectoryPlotData;
      /** The energy the steps are drawn against (the run's final energy, as the report's plot), eV. */
      finalEnergyEv: number;
      artifact?: string;
    }
  /** Not a plot but the same kind of output: the magnetization artifact as a table. */
  | { kind: 'magnetization'; title: string; data: MagnetizationTableData; artifact?: string };

export interface StructureData {
  symbols: string[];
  /** Cartesian, Å. */
  positions: [number, number, number][];
  /** Lattice vectors as rows, Å. */
  cell: [[number, number, number], [number, number, number], [number, number, number]];
  fixed?: boolean[];
  tags?: number[];
  /** Adsorption site, Cartesian Å, with its kind ("fcc", "top", ...). */
  site?: { position: [number, number, number]; kind: string };
  title?: string;
  artifact?: string;
  /** Periodic directions (all three when absent). */
  pbc?: [boolean, boolean, boolean];
  /** Species labels where they differ from the element (pw.x's Fe1/Fe2). */
  labels?: string[];
  /** Space group, e.g. "Fm-3m (225)", when known. */
  spaceGroup?: string;
  /** Relaxation steps, oldest first, when the view has them. */
  frames?: StructureFrameData[];
  /** The host can read the relaxation steps behind this structure (the pw.x output of its run). */
  trajectory?: boolean;
}

/** One geometry of a relaxation: Cartesian Å; energy in eV, force in eV/Å. */
export interface StructureFrameData {
  positions: [number, number, number][];
  cell?: [[number, number, number], [number, number, number], [number, number, number]];
  energyEv?: number;
  maxForceEvPerAngstrom?: number;
}

export interface PlanData {
  objective: string;
  version: number;
  steps: { id: string; title: string; status: string; summary?: string }[];
}

export interface JobCardData {
  id: string;
  backend: string;
  state: string;
  schedulerId?: string;
  progress?: string;
  error?: string;
  elapsedSeconds?: number;
}

export interface ReportData {
  markdown: string;
  verdict?: { level: VerdictLevelData; reasons: string[] };
  /** The report's artifact. */
  artifact?: string;
  /** The numbers the report claims, each with the artifact it cites: the renderer links them. */
  claims?: { quantity: string; value: number; unit?: string; artifact: string }[];
  /**
   * The run's composed report (report.md: verdict, text, claims, tables, plots): the Markdown
   * states the judge's verdict and lists the claims itself.
   */
  composed?: boolean;
  /**
   * The images the Markdown shows, by the path it names (`plots/eos.svg`) → SVG text. The
   * renderer draws each as an image (a data: URI; an SVG in an image runs no script and loads
   * nothing); an image the Markdown names that is not here is shown as its alt text.
   */
  images?: Record<string, string>;
}

export type RendererToHostMessage =
  | { type: 'approval-answer'; requestId: string; decision: 'approve' | 'reject'; comment?: string; standing?: boolean }
  | { type: 'show-provenance'; id: string }
  | { type: 'structure-trajectory'; artifact: string };

export type HostToRendererMessage =
  | { type: 'approval-result'; requestId: string; ok: boolean; message: string; answer?: ApprovalAnswerData }
  | { type: 'structure-trajectory'; artifact: string; frames?: StructureFrameData[]; error?: string };
