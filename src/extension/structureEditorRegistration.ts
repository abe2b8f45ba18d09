/**
 * The "Show structure" editor and command, registered at activation (VS Code asks for a custom
 * editor's provider as soon as it opens one) and answered by the workbench bundle once loaded,
 * so activation does not load the structure readers.
 */
import * as vscode from 'vscode';

export const STRUCTURE_VIEW_TYPE = 'dreams.structure';

/** `provider`: loads the workbench bundle when first called (see extension.ts). */
export function registerStructureEditor(
  context: vscode.ExtensionContext,
  provider: () => Promise<vscode.CustomReadonlyEditorProvider>,
): void {
  context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(
      STRUCTURE_VIEW_TYPE,
      {
        openCustomDocument: (uri) => ({ uri, dispose() {} }) as vscode.CustomDocument,
        resolveCustomEditor: async (document, panel, token) => (await provider()).resolveCustomEditor(document, panel, token),
      },
      { supportsMultipleEditorsPerDocument: true, webviewOptions: { retainContextWhenHidden: false } },
    ),
    vscode.commands.registerCommand('dreams.showStructure', async (target?: unknown) => {
      const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
      if (!uri) {
        void vscode.window.showInformationMessage(
          'Open or select a structure file (CIF, POSCAR, pw.x input or output, extxyz, XSF) to show it.',
        );
        return;
      }
      await vscode.commands.executeCommand('vscode.openWith', uri, STRUCTURE_VIEW_TYPE);
    }),
  );
}
