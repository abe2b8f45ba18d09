/**
 * The "DREAMS agents" notebook controller: executing an objective cell starts the run of
 * the canvas (or continues it); the notebook's interrupt cancels it. The agent runner is
 * plugged in through AgentRunStarter so the controller only executes. A canvas that is not
 * saved as a file does not run (its run would have no place next to it). While a run goes
 * on, a status-bar item shows its progress (not a notification that stays up for hours).
 */
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, OBJECTIVE_LANGUAGE } from './serializer';
import { UNTRUSTED_MESSAGE } from './trust';
import { runErrorNotice, runOutcomeNotice, type RunNotice } from './runNotice';
import { RunProgressItem } from './runProgress';

export const CONTROLLER_ID = 'dreams-agents';

/** Lines of at most `width` characters, broken at spaces: notebook outputs do not wrap. */
export function wrap(text: string, width = 110): string {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = `  ${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.join('\n');
}
const SHOW_CANVAS = 'Show Canvas';
const SAVE_AS = 'Save Canvas As…';
const canvasName = (nb: vscode.NotebookDocument) => nb.uri.path.split('/').pop() ?? nb.uri.path;

export interface RunRequest {
  /** The .dreams file. */
  canvas: vscode.Uri;
  /** The run log the canvas already points at, when continuing. */
  runLog?: string;
  objective: string;
  signal: AbortSignal;
  /** Progress lines for the cell's output and the status bar. */
  progress(message: string): void;
  /** Something the user must read before the run's record (a setting of the canvas that was ignored): kept at the top of the cell's output. */
  notice(message: string): void;
  /** Called once the run exists, before it does anything: the canvas follows it live from then on. */
  linked(run: { runLog: string; runId: string }): Promise<void>;
}

export interface RunOutcome {
  /** Event log of the run (new or continued), recorded in the canvas. */
  runLog: string;
  runId: string;
  state: string;
  summary: string;
}

export interface AgentRunStarter {
  start(req: RunRequest): Promise<RunOutcome>;
}

export class AgentsController implements vscode.Disposable {
  private readonly controller = vscode.notebooks.createNotebookController(CONTROLLER_ID, NOTEBOOK_TYPE, 'DREAMS agents');
  private order = 0;
  /** One status-bar item per run in progress in this window. */
  readonly statusItems = new Set<RunProgressItem>();
  starter: AgentRunStarter | undefined;
  /** Called with the outcome so the canvas can link its run. */
  onRunLinked: ((canvas: vscode.NotebookDocument, outcome: RunOutcome) => Promise<void>) | undefined;
  private readonly noticeEmitter = new vscode.EventEmitter<RunNotice>();
  /** Each notification about a run's end, as it is shown. */
  readonly onDidNotify = this.noticeEmitter.event;
  private readonly statusEmitter = new vscode.EventEmitter<void>();
  /** A run started from a cell here began or ended (its status-bar item came or went). */
  readonly onDidChangeRunning = this.statusEmitter.event;

  /** Whether a run started from a cell in this window is going on for the canvas `uri`. */
  isRunning(uri: vscode.Uri): boolean {
    return [...this.statusItems].some((s) => s.canvas.toString() === uri.toString());
  }

  constructor() {
    this.controller.supportedLanguages = [OBJECTIVE_LANGUAGE];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = 'Plan and run the objective with DREAMS agents';
    this.controller.executeHandler = (cells, nb) => this.execute(cells, nb);
  }

  private async execute(cells: vscode.NotebookCell[], nb: vscode.NotebookDocument): Promise<void> {
    for (const cell of cells) {
      const exec = this.controller.createNotebookCellExecution(cell);
      exec.executionOrder = ++this.order;
      exec.start(Date.now());
      const notices: string[] = [];
      const noticeOutput = () =>
        notices.length
          ? [new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stderr(notices.map((n) => wrap(`⚠ ${n}`)).join('\n'))])]
          : [];
      const fail = async (text: string) => {
        await exec.replaceOutput([
          ...noticeOutput(),
          new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: 'DREAMS', message: text })]),
        ]);
        exec.end(false, Date.now());
      };
      const objective = cell.document.getText().trim();
      if (cell.document.languageId !== OBJECTIVE_LANGUAGE) {
        await fail('Only objective cells run: this cell is a record of the run. Add an objective cell and run that.');
        continue;
      }
      if (!vscode.workspace.isTrusted) {
        await fail(UNTRUSTED_MESSAGE);
        continue;
      }
      if (nb.uri.scheme !== 'file' || nb.isUntitled) {
        await fail(
          'This canvas is not saved yet, and a run lives next to its canvas file (<name>.dreams → <name>.run/). Save the canvas (File: Save As, a .dreams file in your workspace), then run the cell again.',
        );
        void Promise.resolve(
          vscode.window.showWarningMessage('DREAMS: save the canvas before running it: its run is kept next to the .dreams file.', SAVE_AS),
        ).then(
          async (pick) => {
            if (pick === SAVE_AS) await vscode.commands.executeCommand('workbench.action.files.saveAs');
          },
          () => undefined,
        );
        continue;
      }
      if (!objective) {
        await fail(
          'The objective is empty. Write what the run should find out, e.g. "Lattice constant of fcc Al with PBE, converged to 1 meV/atom".',
        );
        continue;
      }
      if (!this.starter) {
        await fail(
          'No agent runner is available in this VS Code window, so the objective was not started. Run it from a terminal with `dreams run "<objective>"` and open the canvas it writes.',
        );
        continue;
      }
      const abort = new AbortController();
      exec.token.onCancellationRequested(() => abort.abort());
      // Notices first (they say what the run does not do as the canvas asked), then warnings
      // (each once), then one progress line that each report replaces: the summary and step
      // cells below hold the record.
      const warnings: string[] = [];
      let line = '';
      const show = () =>
        exec.replaceOutput([
          ...noticeOutput(),
          new vscode.NotebookCellOutput([
            vscode.NotebookCellOutputItem.text(
              [...(warnings.length > 6 ? [`… ${warnings.length - 6} earlier warnings`, ...warnings.slice(-6)] : warnings), line]
                .filter(Boolean)
                .join('\n'),
              'text/plain',
            ),
          ]),
        ]);
      const status = new RunProgressItem(nb.uri, canvasName(nb));
      this.statusItems.add(status);
      this.statusEmitter.fire();
      try {
        const runLog = (nb.metadata?.run as { log?: string } | undefined)?.log;
        const outcome = await this.starter.start({
          canvas: nb.uri,
          ...(runLog ? { runLog } : {}),
          objective,
          signal: abort.signal,
          linked: (r) => this.onRunLinked?.(nb, { ...r, state: 'running', summary: '' }) ?? Promise.resolve(),
          progress: (m) => {
            status.report(m);
            if (m.startsWith('warning: ')) {
              if (!warnings.includes(m)) warnings.push(m);
            } else line = m;
            void show();
          },
          notice: (m) => {
            notices.push(m);
            void show();
          },
        });
        await this.onRunLinked?.(nb, outcome);
        line = `Run ${outcome.runId}: ${outcome.state}. ${outcome.summary}`;
        await show();
        exec.end(outcome.state === 'completed' || outcome.state === 'paused' || outcome.state === 'waiting-approval', Date.now());
        if (!abort.signal.aborted) this.notify(runOutcomeNotice(outcome, canvasName(nb)), nb);
      } catch (e) {
        await fail(
          abort.signal.aborted
            ? 'The run was cancelled from the notebook; its log keeps everything done so far. Run the cell again to continue.'
            : (e as Error).message,
        );
        if (!abort.signal.aborted) this.notify(runErrorNotice((e as Error).message, canvasName(nb)), nb);
      } finally {
        this.statusItems.delete(status);
        status.dispose();
        this.statusEmitter.fire();
      }
    }
  }

  /** Shows the notice without waiting for it to be closed; its button opens the canvas. */
  private notify(notice: RunNotice | undefined, nb: vscode.NotebookDocument): void {
    if (!notice) return;
    const show =
      notice.level === 'error'
        ? vscode.window.showErrorMessage
        : notice.level === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    void Promise.resolve(show(notice.message, SHOW_CANVAS)).then(
      async (picked) => {
        if (picked === SHOW_CANVAS) await vscode.window.showNotebookDocument(nb);
      },
      () => undefined,
    );
    this.noticeEmitter.fire(notice);
  }

  dispose(): void {
    for (const s of this.statusItems) s.dispose();
    this.noticeEmitter.dispose();
    this.statusEmitter.dispose();
    this.controller.dispose();
  }
}
