import * as vscode from 'vscode';
import { emptyCanvasFile, serializeCanvasFile } from '../core/canvas/canvasFile';
import { clearApiKey, setApiKey } from './secrets';

/** Commands that need nothing but the VS Code API: registered at activation. */
export function registerCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dreams.newCanvas', (target?: vscode.Uri) => newCanvas(target)),
    vscode.commands.registerCommand('dreams.setApiKey', () => setApiKey(context.secrets)),
    vscode.commands.registerCommand('dreams.clearApiKey', () => clearApiKey(context.secrets)),
  );
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** `untitled.dreams` in the folder, or `untitled-2.dreams`, … when that is taken. */
export async function freeCanvasName(folder: vscode.Uri, stem = 'untitled'): Promise<vscode.Uri> {
  for (let i = 1; ; i++) {
    const uri = vscode.Uri.joinPath(folder, `${stem}${i === 1 ? '' : `-${i}`}.dreams`);
    if (!(await exists(uri))) return uri;
  }
}

/**
 * A new canvas is a file from the start: its run lives next to it (`<name>.run/`), so the
 * user says where it goes (the save dialog offers `untitled.dreams` in the workspace) before
 * there is anything to run. An existing file is opened, never overwritten.
 */
export async function newCanvas(target?: vscode.Uri): Promise<vscode.NotebookDocument | undefined> {
  let uri = target;
  if (!uri) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    uri = await vscode.window.showSaveDialog({
      title: 'DREAMS: where should the new canvas go? (its runs are kept next to it)',
      saveLabel: 'Create Canvas',
      filters: { 'DREAMS canvas': ['dreams'] },
      ...(folder ? { defaultUri: await freeCanvasName(folder) } : {}),
    });
    if (!uri) return undefined;
  }
  if (!uri.path.endsWith('.dreams')) uri = uri.with({ path: `${uri.path}.dreams` });
  if (await exists(uri)) {
    void vscode.window.showInformationMessage(
      `${vscode.workspace.asRelativePath(uri)} already exists: it is opened as it is, not replaced.`,
    );
  } else {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeCanvasFile(emptyCanvasFile())));
  }
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}
