// New Canvas asks where the canvas goes before there is anything to run, and a canvas that is
// not a file never starts a run (its run would have nowhere to live next to it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { until, workbench, workspaceDir } from './support/runs';

const KERNEL = { id: 'dreams-agents', extension: 'dreams-dft.dreams-vscode' };
const text = (outs: readonly vscode.NotebookCellOutput[]) =>
  outs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join('\n');
const OBJECTIVE = [
  'workflow: adsorption-search',
  'inputs:',
  '  slab: { generate: { metal: Pt, facet: fcc111, size: [3, 3], layers: 4 } }',
  '  adsorbate: CO',
  '  calculator: { kind: emt }',
  '  planner: offline',
  '  maxRelaxations: 2',
  '  relaxation: { fmaxEvPerAngstrom: 0.05, maxSteps: 300 }',
].join('\n');

/** Runs the command and answers the save dialog it opens the way Enter would: its proposed file. */
async function newCanvasThroughTheSaveDialog(answer: 'accept' | 'cancel'): Promise<vscode.NotebookDocument | undefined> {
  const created = vscode.commands.executeCommand<vscode.NotebookDocument | undefined>('dreams.newCanvas');
  let settled = false;
  void created.then(
    () => (settled = true),
    () => (settled = true),
  );
  // the dialog (VS Code's own, a quick input in the browser) takes a moment to appear
  for (let i = 0; i < 100 && !settled; i++) {
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand(
      answer === 'accept' ? 'workbench.action.acceptSelectedQuickOpenItem' : 'workbench.action.closeQuickOpen',
    );
  }
  return created;
}

describe('New Canvas and unsaved canvases (real VS Code)', () => {
  it('New Canvas asks where to save, proposes untitled.dreams in the workspace, and a run started from it lives next to it', async function () {
    this.timeout(120_000);
    const wb = await workbench();
    const ws = workspaceDir();
    for (const f of fs.readdirSync(ws).filter((f) => /^untitled(-\d+)?\.(dreams|run)$/.test(f)))
      fs.rmSync(path.join(ws, f), { recursive: true, force: true });
    fs.writeFileSync(path.join(ws, 'untitled.dreams'), fs.readFileSync(path.join(ws, 'al-lattice.dreams'))); // taken: the next free name is proposed

    assert.equal(await newCanvasThroughTheSaveDialog('cancel'), undefined, 'a cancelled dialog creates nothing');
    assert.ok(!fs.existsSync(path.join(ws, 'untitled-2.dreams')));

    const nb = await newCanvasThroughTheSaveDialog('accept');
    assert.ok(nb, 'no canvas was created');
    assert.equal(nb.uri.scheme, 'file');
    assert.equal(nb.uri.fsPath, path.join(ws, 'untitled-2.dreams'));
    assert.ok(fs.existsSync(nb.uri.fsPath), 'the canvas file is on disk before anything runs');
    assert.equal(nb.cellCount, 1);

    const c = vscode.workspace.getConfiguration('dreams');
    await c.update('provider', 'offline', vscode.ConfigurationTarget.Global);
    await c.update('approvalPolicy', 'continue', vscode.ConfigurationTarget.Global);
    try {
      const we = new vscode.WorkspaceEdit();
      we.replace(nb.cellAt(0).document.uri, new vscode.Range(0, 0, 0, 0), OBJECTIVE);
      await vscode.workspace.applyEdit(we);
      await vscode.window.showNotebookDocument(nb);
      await vscode.commands.executeCommand('notebook.selectKernel', KERNEL);
      // (not awaited: the command returns when the execution ends)
      void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: nb.uri });
      // while it runs: its progress in the status bar, not in a notification
      const status = await until(
        "the run's status-bar item",
        () => [...wb.controller.statusItems].find((s) => s.canvas.toString() === nb.uri.toString()),
        30_000,
      );
      assert.match(status.text, /^\$\(sync~spin\) DREAMS: /);
      // one status-bar item for the run: while its progress shows, the canvas's summary item stands aside
      let linkedSamples = 0;
      let both = 0;
      await until(
        'the run to finish',
        () => {
          if (wb.controller.isRunning(nb.uri) && wb.canvas.bindingOf(nb)) {
            linkedSamples++;
            if (wb.summary.visible) both++;
          }
          return nb.cellAt(0).executionSummary?.success !== undefined;
        },
        110_000,
      );
      assert.ok(linkedSamples > 0, 'the run was never seen running with its canvas linked');
      assert.equal(both, 0, `two status-bar items for the run in ${both} of ${linkedSamples} looks`);
      assert.equal(nb.cellAt(0).executionSummary?.success, true, text(nb.cellAt(0).outputs));
      assert.equal(wb.controller.statusItems.size, 0, 'the status-bar item went with the run');
      await until('the canvas summary back in the status bar', () => wb.summary.visible);
      const run = nb.metadata.run as { id: string; log: string };
      assert.ok(run?.log.startsWith(`untitled-2.run${path.sep}`), `run log ${run?.log}`);
      assert.ok(fs.existsSync(path.join(ws, run.log)), 'the run is next to its canvas');
      // the run's artifacts appear in the cells of the plan steps that made them
      const cardIds = (x: vscode.NotebookCell) =>
        x.outputs.flatMap((o) =>
          o.items
            .filter((i) => i.mime === 'application/vnd.dreams.artifacts+json')
            .flatMap((i) => (JSON.parse(new TextDecoder().decode(i.data)).cards as { id: string }[]).map((d) => d.id)),
        );
      const stepCells = await until(
        "the run's step cells with its artifacts in the canvas",
        () => {
          const steps = nb
            .getCells()
            .filter((cell) => (cell.metadata?.dreams as { kind?: string } | undefined)?.kind === 'step' && cardIds(cell).length > 0);
          return steps.length > 0 ? steps : undefined;
        },
        30_000,
      );
      const recorded = new Set(
        fs
          .readFileSync(path.join(ws, run.log), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
          .filter((e) => e.kind === 'provenance.artifact')
          .map((e) => e.payload.id as string),
      );
      for (const cell of stepCells) {
        assert.match(String((cell.metadata.dreams as { id?: string }).id), /^steps\/\S+$/);
        for (const id of cardIds(cell))
          assert.ok(recorded.has(id), `${id} in ${(cell.metadata.dreams as { id?: string }).id} is an artifact of the run`);
      }
    } finally {
      await c.update('provider', undefined, vscode.ConfigurationTarget.Global);
      await c.update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a canvas that is not saved does not run, says to save it first, and leaves no run directory anywhere', async () => {
    await workbench();
    const data = new vscode.NotebookData([new vscode.NotebookCellData(vscode.NotebookCellKind.Code, OBJECTIVE, 'dreams-objective')]);
    const nb = await vscode.workspace.openNotebookDocument('dreams-canvas', data);
    assert.equal(nb.uri.scheme, 'untitled');
    await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('notebook.selectKernel', KERNEL);
    const cwdBefore = fs.readdirSync(process.cwd());
    await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: nb.uri });
    await until('the execution to end', () => nb.cellAt(0).executionSummary?.success !== undefined, 30_000);
    assert.equal(nb.cellAt(0).executionSummary?.success, false);
    assert.match(text(nb.cellAt(0).outputs), /This canvas is not saved yet, and a run lives next to its canvas file/);
    assert.equal(nb.metadata.run, undefined);
    assert.deepEqual(
      fs.readdirSync(process.cwd()).filter((f) => f.endsWith('.run') && !cwdBefore.includes(f)),
      [],
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
