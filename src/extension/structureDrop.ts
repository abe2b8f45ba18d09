/**
 * Drag a structure file into an objective cell: an empty cell gets an objective that reads it
 * (a lattice constant for a bulk crystal, an adsorption search for a slab), a cell that already
 * holds an objective gets `{ file: <path> }` where the file was dropped. Paths are relative to
 * the canvas, as the objective cell reads them. Drop with Shift held (VS Code's gesture for
 * dropping into an editor).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatFromName } from '../core/dft/io/structureFile';
import { dropText } from './structureSummary';

export function registerStructureDrop(context: vscode.ExtensionContext): void {
  const provider: vscode.DocumentDropEditProvider = {
    async provideDocumentDropEdits(document, _position, dataTransfer) {
      const list = await dataTransfer.get('text/uri-list')?.asString();
      const uris = (list ?? '')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => vscode.Uri.parse(l));
      const file = uris.find((u) => u.scheme === 'file' && formatFromName(u.fsPath));
      if (!file) return undefined;
      const nb = vscode.workspace.notebookDocuments.find((n) => n.getCells().some((c) => c.document === document));
      const canvasDir = nb && nb.uri.scheme === 'file' ? path.dirname(nb.uri.fsPath) : path.dirname(file.fsPath);
      try {
        const edit = new vscode.DocumentDropEdit(dropText(file.fsPath, document.getText(), canvasDir));
        edit.title = `Objective from ${path.basename(file.fsPath)}`;
        return edit;
      } catch (e) {
        const err = e as Error & { located?: () => string };
        void vscode.window.showErrorMessage(
          `DREAMS cannot use ${path.basename(file.fsPath)}: ${typeof err.located === 'function' ? err.located() : err.message}`,
        );
        return undefined;
      }
    },
  };
  context.subscriptions.push(vscode.languages.registerDocumentDropEditProvider({ language: 'dreams-objective' }, provider));
}
