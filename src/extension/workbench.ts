/**
 * Everything past the serializer, loaded after activation so opening a canvas stays fast:
 * runs, the live canvas, the controller, the provenance panels, approvals, jobs, the
 * status bar and the QE language features.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalsView } from './approvalsView';
import { AgentsController } from './controller';
import { JobsView, type JobEntry } from './jobsView';
import { LiveCanvas, runLogOf } from './notebook/liveCanvas';
import { ProvenancePanels } from './provenance/panel';
import { registerQeLanguage } from './qe/qeLanguage';
import { registerTemplateEditing, workingCopyOf } from './qe/templates';
import { eventsOf } from '../core/canvas/types';
import { openRunLog } from '../core/run/directory';
import { RunRegistry } from './runs';
import { RunSummaryItem } from './runSummary';
import { NOTEBOOK_TYPE } from './serializer';
import type { LateCommand } from './lateCommands';
import { trustStatusItem } from './trust';
import { DreamsLog } from './log';
import { IgnoredSettingsWatcher } from './settings';
import { addClusterProfileCommand, testConnectionCommand } from './clusterTest';
import { StructureEditorProvider } from './structureEditor';
import { registerStructureDrop } from './structureDrop';
import { checkPw, choosePseudoDir, openDemoCanvas, useOffline, WALKTHROUGH_ID } from './walkthrough';

export interface DreamsWorkbench {
  runs: RunRegistry;
  canvas: LiveCanvas;
  controller: AgentsController;
  /** The active canvas's run in the status bar (hidden while a run started here shows its progress). */
  summary: RunSummaryItem;
  provenance: ProvenancePanels;
  approvals: ApprovalsView;
  jobs: JobsView;
  qeDiagnostics: vscode.DiagnosticCollection;
  log: DreamsLog;
  ignoredSettings: IgnoredSettingsWatcher;
  approvalsTree: vscode.TreeView<unknown>;
  commands: Record<LateCommand, (...args: unknown[]) => unknown>;
  structureEditor: StructureEditorProvider;
}

async function revealCell(canvas: LiveCanvas, logPath: string, cellId: string): Promise<boolean> {
  for (const nb of canvas.notebooksOf(logPath)) {
    // an approval, job or artifact id (or an older cell id) is shown in the cell the projection puts it in
    const id = canvas.bindingOf(nb)?.projection.cellIdOf(cellId) ?? cellId;
    const i = nb.getCells().findIndex((c) => (c.metadata?.dreams as { id?: string } | undefined)?.id === id);
    if (i < 0) continue;
    const range = new vscode.NotebookRange(i, i + 1);
    const editor = await vscode.window.showNotebookDocument(nb, {
      viewColumn: vscode.ViewColumn.One,
      selections: [range],
      preserveFocus: false,
    });
    editor.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
    return true;
  }
  return false;
}

export function startWorkbench(context: vscode.ExtensionContext): DreamsWorkbench {
  const log = new DreamsLog();
  const runs = new RunRegistry();
  const canvas = new LiveCanvas(runs);
  const controller = new AgentsController();
  // The agent runtime (SDK, tools, guard) loads on the first run, not at start-up.
  controller.starter = { start: async (req) => new (await import('./agentRunner')).VsCodeAgentRunner(context.secrets, log).start(req) };
  const ignoredSettings = new IgnoredSettingsWatcher(log.logger.scoped('settings'));
  const jobs = new JobsView(runs);
  const approvals = new ApprovalsView(runs);
  const summary = new RunSummaryItem();
  const provenance = new ProvenancePanels(context.extensionUri, runs, {
    revealCell: (log, id) => revealCell(canvas, log, id),
    revealJob: (id) => jobs.reveal(id),
  });
  const jobsTree = vscode.window.createTreeView('dreams.jobs', { treeDataProvider: jobs, showCollapseAll: true });
  jobs.attach(jobsTree);
  const approvalsTree = vscode.window.createTreeView('dreams.approvals', { treeDataProvider: approvals });
  approvals.attach(approvalsTree);
  const qeDiagnostics = registerQeLanguage(context);

  registerTemplateEditing(context, async (runDir, artifactId) => {
    const { log } = await openRunLog(path.join(runDir, 'events.jsonl'), { mode: 'reader' });
    const artifact = eventsOf(log.events(), 'provenance.artifact').find((e) => e.payload.id === artifactId)?.payload;
    await log.close();
    if (!artifact) throw new Error(`${artifactId} is not in the run at ${runDir}.`);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(workingCopyOf(runDir, artifact)));
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
  });

  canvas.onRevealProvenance = (nb, id) => {
    const log = runLogOf(nb);
    if (!log) {
      void vscode.window.showInformationMessage('This canvas has no run yet, so there is no provenance to show.');
      return;
    }
    void provenance.show(log, { kind: 'upstream', of: id }, id);
  };
  controller.onRunLinked = async (nb, outcome) => {
    if (runLogOf(nb) === path.resolve(outcome.runLog)) return;
    const rel = path.relative(path.dirname(nb.uri.fsPath), outcome.runLog);
    const we = new vscode.WorkspaceEdit();
    we.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, run: { id: outcome.runId, log: rel } })]);
    await vscode.workspace.applyEdit(we);
    await canvas.bind(nb);
  };

  const activeRunEvents = () => {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    return nb ? canvas.bindingOf(nb)?.run.events() : undefined;
  };
  // One status-bar item for a run: while a run started from a cell here goes on, its progress
  // item (the status line: step, jobs, tokens, cost, approvals) stands for the canvas's summary.
  const updateSummary = () => {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    summary.show(nb && controller.isRunning(nb.uri) ? undefined : activeRunEvents());
  };

  const jobEntry = (e: JobEntry | undefined) => {
    if (!e || e.kind !== 'job') throw new Error('Choose a job in the DREAMS jobs view first.');
    return e;
  };
  context.subscriptions.push(
    runs,
    canvas,
    controller,
    jobs,
    approvals,
    summary,
    provenance,
    jobsTree,
    approvalsTree,
    trustStatusItem(),
    log,
    ignoredSettings,
    runs.onDidChange(updateSummary),
    controller.onDidChangeRunning(updateSummary),
    vscode.window.onDidChangeActiveNotebookEditor(updateSummary),
    vscode.commands.registerCommand('dreams.showProvenance', async (target?: vscode.Uri | string) => {
      const nb =
        typeof target === 'string'
          ? undefined
          : target
            ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === target.toString())
            : vscode.window.activeNotebookEditor?.notebook;
      const log = typeof target === 'string' ? target : nb && nb.notebookType === NOTEBOOK_TYPE ? runLogOf(nb) : undefined;
      if (!log) {
        void vscode.window.showInformationMessage('Open a DREAMS canvas that has a run to see its provenance graph.');
        return;
      }
      await provenance.show(log);
    }),
    vscode.commands.registerCommand('dreams.revealCell', (log: string, cellId: string) => revealCell(canvas, log, cellId)),
    vscode.commands.registerCommand('dreams.jobs.openInput', (e?: JobEntry) => jobs.openFile(jobEntry(e), 'input')),
    vscode.commands.registerCommand('dreams.jobs.openOutput', (e?: JobEntry) => jobs.openFile(jobEntry(e), 'output')),
    vscode.commands.registerCommand('dreams.jobs.cancel', (e?: JobEntry) => jobs.cancel(jobEntry(e))),
    vscode.commands.registerCommand('dreams.jobs.resubmit', (e?: JobEntry) => jobs.resubmit(jobEntry(e))),
  );
  // Registered at activation (extension.ts LATE_COMMANDS) and answered here once the workbench is up:
  // a walkthrough button can be the very thing that activates the extension.
  const commands: Record<LateCommand, (...args: unknown[]) => unknown> = {
    'dreams.showLog': () => log.channel.show(true),
    'dreams.testClusterConnection': (name) =>
      testConnectionCommand(log.logger, () => log.channel.show(true), typeof name === 'string' ? name : undefined),
    'dreams.addClusterProfile': () => addClusterProfileCommand(),
    'dreams.checkPw': () => checkPw(),
    'dreams.choosePseudoDir': () => choosePseudoDir(),
    'dreams.useOffline': () => useOffline(),
    'dreams.openDemoCanvas': () => openDemoCanvas(),
    'dreams.openWalkthrough': () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
  };
  const structureEditor = new StructureEditorProvider(context.extensionUri);
  context.subscriptions.push(structureEditor);
  registerStructureDrop(context);
  return {
    runs,
    canvas,
    controller,
    summary,
    provenance,
    approvals,
    jobs,
    qeDiagnostics,
    log,
    ignoredSettings,
    approvalsTree: approvalsTree as vscode.TreeView<unknown>,
    commands,
    structureEditor,
  };
}
