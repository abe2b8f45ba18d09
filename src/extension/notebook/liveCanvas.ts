/**
 * Binds each open canvas notebook to its run: projects the run's event log into cells
 * on open and as events arrive (live updates), refuses in-place edits of projected cells
 * (reverting them visibly, with the typed text offered back), and answers approvals
 * posted by the renderer. The log is only read here, except for a user's approval answer;
 * saving the notebook writes the projection file, never the log.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CanvasCell } from '../../core/canvas/canvasFile';
import type { HostToRendererMessage, RendererToHostMessage } from '../../shared/canvasOutputs';
import type { RunRegistry, RunView } from '../runs';
import { cellToNotebookCellData, fromOutputItem, NOTEBOOK_TYPE } from '../serializer';
import { outputsKey, planCellUpdates, type ShownCell } from './cellUpdates';
import { CanvasProjection, PROJECTED_KINDS } from '../../core/report/canvasProjection';
import { logWarningOf } from '../../core/report/logWarning';
import { trajectoryOf } from './structureTrajectory';

export const RENDERER_ID = 'dreams-canvas-renderer';

interface Binding {
  notebook: vscode.NotebookDocument;
  run: RunView;
  projection: CanvasProjection;
  sub: vscode.Disposable;
  pending: Set<string>;
  timer?: ReturnType<typeof setTimeout>;
  /** The flush in progress: the next one waits for it, so it sees the cells it inserted. */
  flushing?: Promise<void>;
  /** Cells of an older projection (one per artifact, before cells were per call) have been removed. */
  pruned?: boolean;
}

const metaOf = (cell: vscode.NotebookCell) => cell.metadata?.dreams as { kind?: string; id?: string } | undefined;

/** The run log a canvas points at, resolved against the canvas file. */
export function runLogOf(nb: vscode.NotebookDocument): string | undefined {
  const run = nb.metadata?.run as { log?: string } | undefined;
  if (!run?.log || nb.uri.scheme !== 'file') return undefined;
  return path.resolve(path.dirname(nb.uri.fsPath), run.log);
}

export interface CanvasUpdate {
  notebook: vscode.NotebookDocument;
  updates: { id: string; kind: 'text' | 'replace' | 'move' }[];
  inserted: string[];
}

export class LiveCanvas implements vscode.Disposable {
  private readonly bindings = new Map<string, Binding>();
  /** Text of projected cells as the projection last wrote them, to revert edits to. */
  private readonly recorded = new WeakMap<vscode.NotebookDocument, Map<string, string>>();
  private applying = 0;
  private readonly opening = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  onRevealProvenance: ((nb: vscode.NotebookDocument, id: string) => void) | undefined;
  private readonly updates = new vscode.EventEmitter<CanvasUpdate>();
  /** Each live update applied to a notebook: the cells changed in place (text only, or whole) and inserted. */
  readonly onDidUpdate = this.updates.event;

  constructor(private readonly runs: RunRegistry) {
    this.disposables.push(
      vscode.workspace.onDidOpenNotebookDocument((nb) => void this.bind(nb)),
      vscode.workspace.onDidCloseNotebookDocument((nb) => this.unbind(nb)),
      vscode.workspace.onDidChangeNotebookDocument((e) => this.onChange(e)),
      this.messaging.onDidReceiveMessage((m) => void this.onRendererMessage(m.editor, m.message as RendererToHostMessage)),
    );
    for (const nb of vscode.workspace.notebookDocuments) void this.bind(nb);
  }

  bindingOf(nb: vscode.NotebookDocument): { run: RunView; projection: CanvasProjection } | undefined {
    return this.bindings.get(nb.uri.toString());
  }

  /** Notebooks showing the run whose log is at `logPath`. */
  notebooksOf(logPath: string): vscode.NotebookDocument[] {
    return [...this.bindings.values()].filter((b) => b.run.logPath === path.resolve(logPath)).map((b) => b.notebook);
  }

  private snapshot(nb: vscode.NotebookDocument): Map<string, string> {
    let m = this.recorded.get(nb);
    if (!m) {
      m = new Map();
      for (const c of nb.getCells()) {
        const meta = metaOf(c);
        if (meta?.id && PROJECTED_KINDS.has(meta.kind as never)) m.set(meta.id, c.document.getText());
      }
      this.recorded.set(nb, m);
    }
    return m;
  }

  async bind(nb: vscode.NotebookDocument): Promise<void> {
    if (nb.notebookType !== NOTEBOOK_TYPE) return;
    this.snapshot(nb);
    const logPath = runLogOf(nb);
    const key = nb.uri.toString();
    // `opening` holds the notebook from the check to the binding: two binds at once made two bindings
    if (!logPath || this.bindings.has(key) || this.opening.has(key)) return;
    this.opening.add(key);
    let run: RunView;
    try {
      run = await this.runs.open(logPath);
    } catch (e) {
      void vscode.window.showWarningMessage(
        `${path.basename(nb.uri.fsPath)}: could not open its run log ${logPath}: ${(e as Error).message} The canvas shows what it last saved.`,
      );
      return;
    } finally {
      this.opening.delete(key);
    }
    // the report's text is read from the run's files (only below the run directory)
    const runDir = path.resolve(run.runDir);
    const projection = new CanvasProjection({
      readFile: (location) => {
        const file = path.resolve(runDir, location);
        if (!file.startsWith(runDir + path.sep)) return undefined;
        try {
          return fs.readFileSync(file, 'utf8');
        } catch {
          return undefined;
        }
      },
    });
    const binding: Binding = { notebook: nb, run, projection, pending: new Set(), sub: { dispose() {} } };
    this.bindings.set(nb.uri.toString(), binding);
    for (const id of projection.applyAll(run.events())) binding.pending.add(id);
    // A damaged log (lines not read, a torn last line) is said at the top of the summary and in a notification.
    const sayDamage = (health: RunView['health']) => {
      const warning = logWarningOf(health, runDir);
      for (const id of projection.setLogWarning(warning)) binding.pending.add(id);
      if (warning) void vscode.window.showWarningMessage(`DREAMS: ${path.basename(nb.uri.fsPath)} shows a damaged run log. ${warning}`);
    };
    sayDamage(run.health);
    binding.sub = vscode.Disposable.from(
      run.onEvents((events) => {
        for (const e of events) for (const id of projection.apply(e)) binding.pending.add(id);
        this.schedule(binding);
      }),
      run.onDidChangeHealth((health) => {
        sayDamage(health);
        this.schedule(binding);
      }),
    );
    await this.flush(binding);
  }

  private unbind(nb: vscode.NotebookDocument): void {
    const b = this.bindings.get(nb.uri.toString());
    if (!b) return;
    this.bindings.delete(nb.uri.toString());
    b.sub.dispose();
    if (b.timer) clearTimeout(b.timer);
    void this.runs.close(b.run);
  }

  private schedule(b: Binding): void {
    if (b.timer) return;
    b.timer = setTimeout(() => {
      b.timer = undefined;
      void this.flush(b);
    }, 50);
  }

  /**
   * Write the cells the projection changed into the notebook: replace in place, or append.
   * Flushes of one notebook run one after another: a flush that looked for its cells while the
   * previous one's edit was still being applied appended a second copy of a cell (two plan cells).
   */
  flush(b: Binding): Promise<void> {
    const next = (b.flushing ?? Promise.resolve()).then(() => this.flushNow(b));
    b.flushing = next.catch(() => undefined);
    return next;
  }

  private async flushNow(b: Binding): Promise<void> {
    if (!b.pending.size || b.notebook.isClosed) return;
    const ids = [...b.pending];
    b.pending.clear();
    const nb = b.notebook;
    const wasDirty = nb.isDirty;
    if (!b.pruned) {
      b.pruned = true;
      await this.pruneOutdated(b);
    }
    const shown = new Map<string, ShownCell>();
    nb.getCells().forEach((c, index) => {
      const meta = metaOf(c) as { id?: string; seq?: number } | undefined;
      if (!meta?.id) return;
      shown.set(meta.id, {
        index,
        text: c.document.getText(),
        ...(meta.seq !== undefined ? { seq: meta.seq } : {}),
        outputs: () => outputsKey(c.outputs.flatMap((o) => o.items.map(fromOutputItem))),
      });
    });
    const recorded = this.snapshot(nb);
    const changed: CanvasCell[] = [];
    for (const id of ids) {
      const cell = b.projection.cell(id);
      if (!cell) continue;
      recorded.set(id, cell.text);
      changed.push(cell);
    }
    // Only what changed is touched: a cell's text where its outputs are the same (they stay
    // drawn), the whole cell where they differ, no other cell; nothing at all (no edit, no
    // save) when the notebook already shows the run, as on a reopen.
    const plan = planCellUpdates(changed, shown, b.projection.cellOrder(), nb.cellCount, (id) => b.projection.cell(id));
    const lastSeq = b.projection.lastSeq;
    if (!plan.updates.length && !plan.inserts.length && nb.metadata?.lastSeq === lastSeq) return;
    const edits: vscode.NotebookEdit[] = [];
    const we = new vscode.WorkspaceEdit();
    for (const u of plan.updates) {
      const data = cellToNotebookCellData(u.cell);
      if (u.kind === 'replace' || u.kind === 'move') {
        edits.push(vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(u.index, u.index + 1), [data]));
        continue;
      }
      const current = nb.cellAt(u.index);
      edits.push(vscode.NotebookEdit.updateCellMetadata(u.index, { ...current.metadata, ...data.metadata }));
      if (current.document.getText() !== u.cell.text) {
        const doc = current.document;
        we.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), u.cell.text);
      }
    }
    // Inserts from the bottom up, after the in-place updates, so no index moves under another edit.
    for (const { index, cells } of [...plan.inserts].sort((x, y) => y.index - x.index))
      edits.push(vscode.NotebookEdit.insertCells(index, cells.map(cellToNotebookCellData)));
    edits.push(vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, lastSeq }));
    we.set(nb.uri, edits);
    this.updates.fire({
      notebook: nb,
      updates: plan.updates.map((u) => ({ id: u.cell.id, kind: u.kind })),
      inserted: plan.inserts.flatMap((i) => i.cells.map((c) => c.id)),
    });
    this.applying++;
    try {
      await vscode.workspace.applyEdit(we);
    } finally {
      this.applying--;
    }
    // Keep the projection file in step with the log, unless the user has unsaved work in it.
    if (!wasDirty && nb.isDirty) await nb.save();
  }

  /**
   * Record cells the projection no longer makes (a canvas saved by an older version, which had
   * a cell per artifact) are removed: the same records come back in the projection's cells.
   */
  private async pruneOutdated(b: Binding): Promise<void> {
    const nb = b.notebook;
    const outdated: number[] = [];
    nb.getCells().forEach((c, i) => {
      const meta = metaOf(c);
      if (meta?.id && PROJECTED_KINDS.has(meta.kind as never) && !b.projection.cell(meta.id)) outdated.push(i);
    });
    if (!outdated.length) return;
    const we = new vscode.WorkspaceEdit();
    we.set(
      nb.uri,
      outdated.reverse().map((i) => vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(i, i + 1))),
    );
    this.applying++;
    try {
      await vscode.workspace.applyEdit(we);
    } finally {
      this.applying--;
    }
  }

  private onChange(e: vscode.NotebookDocumentChangeEvent): void {
    if (this.applying || e.notebook.notebookType !== NOTEBOOK_TYPE) return;
    const recorded = this.snapshot(e.notebook);
    for (const change of e.cellChanges) {
      if (!change.document) continue;
      const meta = metaOf(change.cell);
      if (!meta?.id || !PROJECTED_KINDS.has(meta.kind as never)) continue;
      const original = recorded.get(meta.id);
      const typed = change.cell.document.getText();
      if (original === undefined || typed === original) continue;
      void this.revert(change.cell, original, typed, meta.id, meta.kind!);
    }
  }

  private async revert(cell: vscode.NotebookCell, original: string, typed: string, id: string, kind: string): Promise<void> {
    const doc = cell.document;
    const we = new vscode.WorkspaceEdit();
    we.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), original);
    this.applying++;
    try {
      await vscode.workspace.applyEdit(we);
    } finally {
      this.applying--;
    }
    const keep = 'Keep my text in a new Markdown cell';
    const choice = await vscode.window.showWarningMessage(
      `The ${kind} cell "${id}" is a record of the run and cannot be edited in place, so your change was undone. ` +
        'Add a Markdown cell for a remark, or an objective cell to ask the agents for something new.',
      keep,
    );
    if (choice === keep) {
      const nb = cell.notebook;
      const md = new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, typed, 'markdown');
      md.metadata = { dreams: { kind: 'markdown', id: `markdown-${Date.now().toString(36)}` } };
      const edit = new vscode.WorkspaceEdit();
      edit.set(nb.uri, [vscode.NotebookEdit.insertCells(cell.index + 1, [md])]);
      await vscode.workspace.applyEdit(edit);
    }
  }

  private async onRendererMessage(editor: vscode.NotebookEditor, m: RendererToHostMessage): Promise<void> {
    if (m.type === 'show-provenance') {
      this.onRevealProvenance?.(editor.notebook, m.id);
      return;
    }
    const reply = (r: HostToRendererMessage) => void this.messaging.postMessage(r, editor);
    if (m.type === 'structure-trajectory') {
      const b = this.bindings.get(editor.notebook.uri.toString());
      const t = b ? trajectoryOf(b.run.events(), b.run.runDir, m.artifact) : { error: 'this canvas is not linked to a run.' };
      reply({ type: 'structure-trajectory', artifact: m.artifact, ...t });
      return;
    }
    if (m.type !== 'approval-answer') return;
    if (!vscode.workspace.isTrusted) {
      reply({
        type: 'approval-result',
        requestId: m.requestId,
        ok: false,
        message: 'This workspace is not trusted, so DREAMS records no answers here. Trust the workspace to answer approvals.',
      });
      return;
    }
    const b = this.bindings.get(editor.notebook.uri.toString());
    if (!b) {
      reply({
        type: 'approval-result',
        requestId: m.requestId,
        ok: false,
        message: 'This canvas is not linked to a run log, so there is nothing to answer. Reopen the canvas of the run.',
      });
      return;
    }
    const result = await this.runs.answerApproval(b.run, m.requestId, m.decision, m.comment, { standing: m.standing === true });
    if (result.ok) {
      reply({ type: 'approval-result', requestId: m.requestId, ok: true, message: 'recorded', answer: { ...result.answer } });
      if (result.alsoApproved?.length)
        void vscode.window.showInformationMessage(
          `DREAMS: ${m.requestId} stands for later requests like it; it also approved ${result.alsoApproved.join(', ')}.`,
        );
    } else {
      reply({ type: 'approval-result', requestId: m.requestId, ok: false, message: result.message });
      void vscode.window.showWarningMessage(`Approval ${m.requestId}: ${result.message}`);
    }
  }

  dispose(): void {
    for (const nb of [...this.bindings.values()].map((b) => b.notebook)) this.unbind(nb);
    for (const d of this.disposables) d.dispose();
    this.updates.dispose();
  }
}
