import * as vscode from 'vscode';
import { emptyCanvasFile } from '../core/canvas/canvasFile';
import { canvasToNotebookData, NOTEBOOK_TYPE } from './serializer';

export function registerCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dreams.newCanvas', async () => {
      const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, canvasToNotebookData(emptyCanvasFile()));
      await vscode.window.showNotebookDocument(doc);
    }),
  );
}
