// The commands behind the Get Started walkthrough's steps, in real VS Code: offline mode is a
// user setting, and the demo canvas is a saved file in the workspace holding the fcc Al study,
// ready to run (the e2e tier runs the same objective to completion on pw.x: al-offline.dreams).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseCanvasFile } from '../../src/core/canvas/canvasFile';
import { parseObjectiveFile } from '../../src/core/workflows/objective';
import { until, workbench, workspaceDir } from './support/runs';

describe('the Get Started walkthrough (real VS Code)', () => {
  it('"Use Offline Mode" sets dreams.provider to offline in the user settings', async () => {
    await workbench();
    const c = () => vscode.workspace.getConfiguration('dreams');
    assert.notEqual(c().inspect('provider')?.globalValue, 'offline');
    try {
      await vscode.commands.executeCommand('dreams.useOffline');
      await until('the user setting', () => c().inspect('provider')?.globalValue === 'offline');
      assert.equal(c().get('provider'), 'offline');
    } finally {
      await c().update('provider', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('"Open Demo Canvas" saves dreams-demo.dreams in the workspace with the fcc Al study, and a second one beside it without touching the first', async () => {
    await workbench();
    const ws = workspaceDir();
    for (const f of fs.readdirSync(ws).filter((f) => /^dreams-demo(-\d+)?\.(dreams|run)$/.test(f)))
      fs.rmSync(path.join(ws, f), { recursive: true, force: true });

    const nb = await vscode.commands.executeCommand<vscode.NotebookDocument | undefined>('dreams.openDemoCanvas');
    assert.ok(nb, 'no demo canvas');
    assert.equal(nb.uri.scheme, 'file', 'the demo canvas is a file, so it can run');
    assert.equal(nb.uri.fsPath, path.join(ws, 'dreams-demo.dreams'));
    assert.equal(vscode.window.activeNotebookEditor?.notebook.uri.toString(), nb.uri.toString(), 'the demo canvas is shown');
    assert.equal(nb.isDirty, false, 'the demo canvas is saved as it is opened');
    const onDisk = parseCanvasFile(fs.readFileSync(nb.uri.fsPath, 'utf8'));
    assert.equal(onDisk.cells.length, 1);
    assert.equal(onDisk.cells[0]!.kind, 'objective');
    assert.equal(nb.cellAt(0).document.getText(), onDisk.cells[0]!.text);
    // the objective is an objective file's YAML the lattice-constant workflow accepts, at demo settings
    const objective = parseObjectiveFile(onDisk.cells[0]!.text, 'the demo canvas');
    assert.equal(objective.workflow, 'lattice-constant');
    assert.equal(objective.inputs?.element, 'Al');
    assert.equal(objective.inputs?.pseudopotential, 'Al.pz-vbc.UPF');
    assert.ok(
      fs.existsSync(path.join('/usr/share/espresso/pseudo', 'Al.pz-vbc.UPF')),
      'the pseudopotential the demo names ships with Debian',
    );

    const firstText = fs.readFileSync(nb.uri.fsPath, 'utf8');
    const second = await vscode.commands.executeCommand<vscode.NotebookDocument | undefined>('dreams.openDemoCanvas');
    assert.equal(second?.uri.fsPath, path.join(ws, 'dreams-demo-2.dreams'));
    assert.equal(fs.readFileSync(nb.uri.fsPath, 'utf8'), firstText, 'the first demo canvas was left as it was');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
