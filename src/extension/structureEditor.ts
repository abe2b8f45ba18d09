/**
 * "Show structure": a read-only custom editor for any structure file DREAMS reads (CIF,
 * POSCAR/CONTCAR, pw.x input and output, extxyz, XSF). The page (dist/webview/structure.js,
 * strict CSP with a nonce) shows the structure in 3-D with its space group and lattice
 * parameters, follows the file as it changes on disk, plays a pw.x relaxation step by step,
 * and starts a canvas next to the file with an objective that reads it.
 */
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CANVAS_FILE_FORMAT, serializeCanvasFile } from '../core/canvas/canvasFile';
import type { HostToStructureEditor, StructureEditorToHost } from '../shared/structureEditor';
import { freeCanvasName } from './commands';
import { objectiveFromStructure, viewOfStructureFile, type StructureFileView } from './structureSummary';

export { STRUCTURE_VIEW_TYPE } from './structureEditorRegistration';

export function structureEditorHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'structure.js'));
  // WebGL needs nothing from the CSP; images are the view's own PNG (data:).
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Structure</title></head>
<body><div id="root"></div><script nonce="${nonce}" src="${script}"></script></body></html>`;
}

/** One open editor: the panel, the file, and what the page last reported (tests read it). */
export interface StructureEditorSession {
  uri: vscode.Uri;
  panel: vscode.WebviewPanel;
  lastRendered: Extract<StructureEditorToHost, { type: 'rendered' }> | undefined;
  readonly onRendered: vscode.Event<Extract<StructureEditorToHost, { type: 'rendered' }>>;
}

export class StructureEditorProvider implements vscode.CustomReadonlyEditorProvider, vscode.Disposable {
  readonly sessions = new Set<StructureEditorSession>();
  private readonly opened = new vscode.EventEmitter<StructureEditorSession>();
  readonly onDidOpen = this.opened.event;
  /** Canvases started from a structure (tests read it). */
  readonly onDidStartCanvas = new vscode.EventEmitter<vscode.Uri>();

  constructor(private readonly extensionUri: vscode.Uri) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose() {} };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const uri = document.uri;
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview')] };
    panel.webview.html = structureEditorHtml(panel.webview, this.extensionUri);
    const rendered = new vscode.EventEmitter<Extract<StructureEditorToHost, { type: 'rendered' }>>();
    const session: StructureEditorSession = { uri, panel, lastRendered: undefined, onRendered: rendered.event };
    this.sessions.add(session);
    let view: StructureFileView | undefined;
    const post = (m: HostToStructureEditor) => void panel.webview.postMessage(m);
    const load = () => {
      if (uri.scheme !== 'file') {
        post({ type: 'error', text: `${uri.toString()} is not a file on this machine; DREAMS reads structures from local files.` });
        return;
      }
      try {
        view = viewOfStructureFile(uri.fsPath, vscode.workspace.asRelativePath(uri));
        post({ type: 'structure', data: { summary: view.summary, structure: view.structure, trusted: vscode.workspace.isTrusted } });
      } catch (e) {
        view = undefined;
        const err = e as Error & { located?: () => string };
        post({ type: 'error', text: typeof err.located === 'function' ? err.located() : err.message });
      }
    };
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(uri.fsPath)), path.basename(uri.fsPath)),
    );
    const disposables: vscode.Disposable[] = [
      watcher,
      rendered,
      watcher.onDidChange(load),
      watcher.onDidCreate(load),
      vscode.workspace.onDidGrantWorkspaceTrust(load),
      panel.webview.onDidReceiveMessage((m: StructureEditorToHost) => {
        switch (m.type) {
          case 'ready':
            load();
            return;
          case 'rendered':
            session.lastRendered = m;
            rendered.fire(m);
            return;
          case 'open-text':
            void vscode.commands.executeCommand('vscode.openWith', uri, 'default');
            return;
          case 'start-canvas':
            if (view) void this.startCanvas(uri, view);
            return;
          case 'save-image':
            void this.saveImage(uri, m.dataUrl);
            return;
          case 'error':
            void vscode.window.showErrorMessage(`Structure view of ${path.basename(uri.fsPath)}: ${m.text}`);
            return;
        }
      }),
    ];
    panel.onDidDispose(() => {
      this.sessions.delete(session);
      for (const d of disposables) d.dispose();
    });
    this.opened.fire(session);
  }

  /** A canvas next to the structure file, its objective cell reading the file. */
  async startCanvas(uri: vscode.Uri, view: StructureFileView): Promise<vscode.Uri | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('This folder is not trusted, so DREAMS runs nothing here. Trust the folder to start a canvas.');
      return undefined;
    }
    const folder = vscode.Uri.file(path.dirname(uri.fsPath));
    const stem =
      path
        .basename(uri.fsPath)
        .replace(/\.[^.]+$/, '')
        .replace(/[^A-Za-z0-9_.-]+/g, '-') || 'structure';
    const target = await freeCanvasName(folder, stem);
    const text = objectiveFromStructure(path.basename(uri.fsPath), view);
    await vscode.workspace.fs.writeFile(
      target,
      new TextEncoder().encode(
        serializeCanvasFile({ dreams: CANVAS_FILE_FORMAT, cells: [{ kind: 'objective', id: 'objective-1', text }] }),
      ),
    );
    const doc = await vscode.workspace.openNotebookDocument(target);
    await vscode.window.showNotebookDocument(doc, { viewColumn: vscode.ViewColumn.Beside });
    this.onDidStartCanvas.fire(target);
    return target;
  }

  private async saveImage(uri: vscode.Uri, dataUrl: string): Promise<void> {
    const m = /^data:image\/png;base64,(.+)$/.exec(dataUrl);
    if (!m) return;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(uri.fsPath.replace(/(\.[^./]+)?$/, '.png')),
      filters: { 'PNG image': ['png'] },
      saveLabel: 'Save picture',
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(m[1]!, 'base64'));
  }

  dispose(): void {
    this.opened.dispose();
    this.onDidStartCanvas.dispose();
  }
}
