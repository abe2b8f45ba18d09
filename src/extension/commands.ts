import * as vscode from 'vscode';
import { emptyCanvasFile } from '../core/canvas/canvasFile';
import { clearApiKey, setApiKey } from './secrets';
import { canvasToNotebookData, NOTEBOOK_TYPE } from './serializer';

/** Commands that need nothing but the VS Code API: registered at activation. */
export function registerCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dreams.newCanvas', async () => {
      const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, canvasToNotebookData(emptyCanvasFile()));
      await vscode.window.showNotebookDocument(doc);
    }),
    vscode.commands.registerCommand('dreams.setApiKey', () => setApiKey(context.secrets)),
    vscode.commands.registerCommand('dreams.clearApiKey', () => clearApiKey(context.secrets)),
  );
}
