/** Workspace Trust: in an untrusted workspace DREAMS shows, but never executes. */
import { DreamsError } from '../core/errors';
import * as vscode from 'vscode';

export const UNTRUSTED_MESSAGE =
  'This workspace is not trusted, so DREAMS runs nothing here: no agents, no pw.x jobs, no cluster connections. ' +
  'Canvases, provenance graphs and QE inputs stay readable. To run, trust the folder (command: "Workspaces: Manage Workspace Trust").';

/** Throws the reason when the workspace is not trusted; callers show it. */
export function requireTrust(action: string): void {
  if (!vscode.workspace.isTrusted) throw new UntrustedError(`${action}: ${UNTRUSTED_MESSAGE}`);
}

export class UntrustedError extends DreamsError<'untrusted-workspace'> {
  constructor(message: string) {
    super('untrusted-workspace', message);
    this.name = 'UntrustedError';
  }
}

export function trustStatusItem(): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('dreams.trust', vscode.StatusBarAlignment.Left, 101);
  item.name = 'DREAMS workspace trust';
  item.text = '$(workspace-untrusted) DREAMS: read-only';
  item.tooltip = UNTRUSTED_MESSAGE;
  item.command = 'workbench.trust.manage';
  const update = () => (vscode.workspace.isTrusted ? item.hide() : item.show());
  update();
  const sub = vscode.workspace.onDidGrantWorkspaceTrust(update);
  return {
    dispose: () => {
      sub.dispose();
      item.dispose();
    },
  };
}
