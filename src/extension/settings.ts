/**
 * Settings a shared folder cannot change, seen from VS Code: the machine- and application-
 * scoped `dreams.*` settings (see settingsPolicy.ts) are ignored by VS Code when a workspace or
 * folder sets them, which would otherwise pass unnoticed. This finds such values in the open
 * workspace's settings files and tells the user once per set of keys, in a notification and in
 * the log, and gives the runner the same sentence for the notebook.
 */
import * as vscode from 'vscode';
import { parse as parseJsonc } from 'jsonc-parser';
import type { Logger } from '../core/logger';
import { ignoredSettingsMessage, userOnlyKeysIn } from './settingsPolicy';

export interface IgnoredSettings {
  keys: string[];
  /** The settings file, for the message and the button that opens it. */
  file: vscode.Uri;
}

async function readJsonc(uri: vscode.Uri): Promise<unknown> {
  try {
    return parseJsonc(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), [], { allowTrailingComma: true });
  } catch {
    return undefined; // no such file
  }
}

/** User-only settings a workspace file or a folder's .vscode/settings.json tries to set. */
export async function ignoredWorkspaceSettings(): Promise<IgnoredSettings[]> {
  const out: IgnoredSettings[] = [];
  const ws = vscode.workspace.workspaceFile;
  if (ws && ws.scheme !== 'untitled') {
    const keys = userOnlyKeysIn(((await readJsonc(ws)) as { settings?: unknown } | undefined)?.settings);
    if (keys.length) out.push({ keys, file: ws });
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const keys = userOnlyKeysIn(await readJsonc(file));
    if (keys.length) out.push({ keys, file });
  }
  return out;
}

export function ignoredSettingsNotices(found: readonly IgnoredSettings[]): string[] {
  return found.map((f) => ignoredSettingsMessage(f.keys, vscode.workspace.asRelativePath(f.file)));
}

/** Tells the user when the workspace sets user-only settings: at start and whenever a settings file changes. */
export class IgnoredSettingsWatcher implements vscode.Disposable {
  private readonly told = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly notifyEmitter = new vscode.EventEmitter<string>();
  /** Each message as it is shown (tests). */
  readonly onDidNotify = this.notifyEmitter.event;

  constructor(private readonly log: Logger) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.vscode/settings.json,*.code-workspace}');
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => void this.check()),
      watcher.onDidCreate(() => void this.check()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.check()),
      this.notifyEmitter,
    );
    void this.check();
  }

  async check(): Promise<IgnoredSettings[]> {
    const found = await ignoredWorkspaceSettings();
    for (const f of found) {
      const key = `${f.file.toString()}#${f.keys.join(',')}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      const message = ignoredSettingsMessage(f.keys, vscode.workspace.asRelativePath(f.file));
      this.log.warn(message);
      this.notifyEmitter.fire(message);
      void Promise.resolve(vscode.window.showWarningMessage(message, 'Open User Settings', 'Show File')).then(
        (pick) => {
          if (pick === 'Open User Settings')
            void vscode.commands.executeCommand('workbench.action.openSettings', '@ext:dreams-dft.dreams-vscode');
          else if (pick === 'Show File') void vscode.window.showTextDocument(f.file);
        },
        () => undefined,
      );
    }
    return found;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
