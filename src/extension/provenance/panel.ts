/**
 * The provenance graph panel: a webview (strict CSP with a nonce, resources only from
 * dist/webview and media) showing a run's graph or the part upstream of one artifact,
 * following the run live, and turning clicks into "reveal the cell / file / job".
 * Restored after a restart by its WebviewPanelSerializer from the state the page keeps.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type {
  GraphScope,
  GraphToHostMessage,
  HostToGraphMessage,
  ProvenancePanelState,
  ProvenanceGraphNode,
} from '../../shared/provenanceGraph';
import type { RunRegistry, RunView } from '../runs';
import { ProvenanceFold } from './graphModel';

export const PROVENANCE_VIEW_TYPE = 'dreams.provenance';

export interface RevealHandlers {
  revealCell(logPath: string, cellId: string): Promise<boolean>;
  revealJob(jobId: string): Promise<void>;
}

export function provenanceHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'provenance.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'provenance.css'));
  // The layout worker is this same script, fetched and started from a blob: URL.
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `connect-src ${webview.cspSource}`,
    'worker-src blob:',
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Provenance</title></head>
<body><div id="root"></div><script nonce="${nonce}" src="${script}"></script></body></html>`;
}

class ProvenancePanel {
  private fold = new ProvenanceFold();
  private scope: GraphScope;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** Figures the page reported on its last render (tests read them). */
  lastRendered: Extract<GraphToHostMessage, { type: 'rendered' }> | undefined;
  readonly renderedEmitter = new vscode.EventEmitter<Extract<GraphToHostMessage, { type: 'rendered' }>>();
  readonly revealEmitter = new vscode.EventEmitter<{ id: string; target: string }>();

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly run: RunView,
    scope: GraphScope,
    extensionUri: vscode.Uri,
    private readonly handlers: RevealHandlers,
    private pendingSelect: string | undefined,
    onDispose: () => void,
  ) {
    this.scope = scope;
    this.fold.applyAll(run.events());
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    panel.webview.html = provenanceHtml(panel.webview, extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: GraphToHostMessage) => void this.onMessage(m)),
      run.onEvents((events) => {
        for (const e of events) this.fold.apply(e);
        this.scheduleUpdate();
      }),
      panel.onDidDispose(() => {
        for (const d of this.disposables) d.dispose();
        if (this.timer) clearTimeout(this.timer);
        onDispose();
      }),
    );
    this.updateTitle();
  }

  private updateTitle(): void {
    this.panel.title =
      this.scope.kind === 'run'
        ? `Provenance: ${path.basename(path.dirname(this.run.logPath))}`
        : `Provenance: upstream of ${this.scope.of}`;
  }

  private post(m: HostToGraphMessage): void {
    void this.panel.webview.postMessage(m);
  }

  private sendGraph(select?: string): void {
    const graph = this.fold.graph(this.scope);
    if (this.scope.kind === 'upstream' && !this.fold.has(this.scope.of)) {
      this.post({
        type: 'notice',
        level: 'error',
        text: `${this.scope.of} is not in this run (yet). Showing nothing; choose "Whole run" to see the run.`,
      });
    }
    const persist: ProvenancePanelState = { log: vscode.Uri.file(this.run.logPath).toString(), scope: this.scope };
    this.post({ type: 'graph', graph, ...(select ? { select } : {}), persist } as HostToGraphMessage);
  }

  /** Live runs: at most one re-layout every 1.5 s. */
  private scheduleUpdate(): void {
    if (!this.ready || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sendGraph();
    }, 1500);
  }

  show(scope: GraphScope, select?: string): void {
    const changed = JSON.stringify(scope) !== JSON.stringify(this.scope);
    this.scope = scope;
    this.updateTitle();
    this.panel.reveal(undefined, false);
    if (!this.ready) {
      this.pendingSelect = select;
      return;
    }
    if (changed) this.sendGraph(select);
    else if (select) this.post({ type: 'select', id: select });
  }

  private node(id: string): ProvenanceGraphNode | undefined {
    return this.fold.graph({ kind: 'upstream', of: id }).nodes.find((n) => n.id === id);
  }

  private async onMessage(m: GraphToHostMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.sendGraph(this.pendingSelect);
        this.pendingSelect = undefined;
        return;
      case 'rendered':
        this.lastRendered = m;
        this.renderedEmitter.fire(m);
        return;
      case 'error':
        void vscode.window.showErrorMessage(`Provenance graph: ${m.text}`);
        return;
      case 'upstream':
        this.show({ kind: 'upstream', of: m.id }, m.id);
        return;
      case 'edit-template':
        await vscode.commands.executeCommand('dreams.editTemplate', this.run.runDir, m.id);
        return;
      case 'whole-run':
        this.show({ kind: 'run' });
        return;
      case 'reveal': {
        this.revealEmitter.fire({ id: m.id, target: m.target });
        const n = this.node(m.id);
        if (!n) return;
        if (m.target === 'file' && n.file) {
          const file = path.join(this.run.runDir, n.file);
          if (!fs.existsSync(file)) {
            void vscode.window.showWarningMessage(
              `${n.id} (${n.label}) points at ${file}, which does not exist. Was the run directory moved or cleaned?`,
            );
            return;
          }
          await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.One, preview: true });
        } else if (m.target === 'cell' && n.cell) {
          const found = await this.handlers.revealCell(this.run.logPath, n.cell);
          if (!found)
            void vscode.window.showInformationMessage(
              `${n.id} has no cell in an open canvas of this run. Open the run's .dreams canvas to see it.`,
            );
        } else if (m.target === 'job' && n.job) {
          await this.handlers.revealJob(n.job);
        }
        return;
      }
    }
  }
}

export class ProvenancePanels implements vscode.WebviewPanelSerializer<ProvenancePanelState>, vscode.Disposable {
  private readonly panels = new Map<string, ProvenancePanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runs: RunRegistry,
    private readonly handlers: RevealHandlers,
  ) {}

  /** The open panel of a run (tests and commands). */
  panelOf(logPath: string): ProvenancePanel | undefined {
    return this.panels.get(path.resolve(logPath));
  }

  async show(logPath: string, scope: GraphScope = { kind: 'run' }, select?: string): Promise<ProvenancePanel> {
    const key = path.resolve(logPath);
    const existing = this.panels.get(key);
    if (existing) {
      existing.show(scope, select);
      return existing;
    }
    const run = await this.runs.open(key);
    const panel = vscode.window.createWebviewPanel(
      PROVENANCE_VIEW_TYPE,
      'Provenance',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')],
      },
    );
    return this.adopt(panel, run, scope, select);
  }

  private adopt(panel: vscode.WebviewPanel, run: RunView, scope: GraphScope, select?: string): ProvenancePanel {
    const p = new ProvenancePanel(panel, run, scope, this.extensionUri, this.handlers, select, () => {
      this.panels.delete(run.logPath);
      void this.runs.close(run);
    });
    this.panels.set(run.logPath, p);
    return p;
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: ProvenancePanelState | undefined): Promise<void> {
    const log = state?.log ? vscode.Uri.parse(state.log).fsPath : undefined;
    if (!log || !fs.existsSync(log)) {
      panel.webview.html = `<!DOCTYPE html><html><body><p>This provenance graph's run ${log ? `(${log}) ` : ''}is no longer there. Close this tab and open the graph again from a canvas.</p></body></html>`;
      return;
    }
    const run = await this.runs.open(log);
    this.adopt(panel, run, state?.scope ?? { kind: 'run' });
  }

  dispose(): void {
    for (const p of this.panels.values()) p.panel.dispose();
  }
}
