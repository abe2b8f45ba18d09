import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createRun } from '../../src/core/canvas/run';
import { until, workbench, workspaceDir } from './support/runs';

const KERNEL = { id: 'dreams-agents', extension: 'dreams-dft.dreams-vscode' };

async function canvasWith(name: string, objective: string): Promise<vscode.NotebookDocument> {
  const file = path.join(workspaceDir(), `${name}.dreams`);
  fs.writeFileSync(file, JSON.stringify({ dreams: 1, cells: [{ kind: 'objective', id: 'objective-1', text: objective }] }) + '\n');
  const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  await vscode.window.showNotebookDocument(nb);
  await vscode.commands.executeCommand('notebook.selectKernel', KERNEL);
  return nb;
}

async function execute(nb: vscode.NotebookDocument): Promise<vscode.NotebookCellOutput[]> {
  await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: nb.uri });
  await until('the execution to finish', () => nb.cellAt(0).executionSummary?.success !== undefined, 30_000);
  return [...nb.cellAt(0).outputs];
}

const text = (outs: vscode.NotebookCellOutput[]) => outs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join('\n');

describe('"DREAMS agents" controller (real VS Code)', () => {
  it('refuses an empty objective with what to write instead', async () => {
    await workbench();
    const nb = await canvasWith('empty-objective', '   ');
    const outs = await execute(nb);
    assert.equal(nb.cellAt(0).executionSummary?.success, false);
    assert.match(text(outs), /The objective is empty/);
  });

  it('starts a run through the agent runner, shows its progress and links the run into the canvas', async () => {
    const wb = await workbench();
    const ws = workspaceDir();
    const seen: string[] = [];
    wb.controller.starter = {
      async start(req) {
        seen.push(req.objective);
        const run = await createRun(path.join(ws, 'scripted.run'), { objective: req.objective, slug: 'scripted' });
        req.progress('step 1/1: build_bulk');
        await run.log.append({ kind: 'run.state', key: 'run/state', actor: { kind: 'framework', id: 'run' }, payload: { state: 'completed' } });
        await run.close();
        return { runLog: path.join(run.dir, 'events.jsonl'), runId: run.runId, state: 'completed', summary: 'one step done' };
      },
    };
    try {
      const nb = await canvasWith('scripted', 'Lattice constant of fcc Al');
      const outs = await execute(nb);
      assert.deepEqual(seen, ['Lattice constant of fcc Al']);
      assert.equal(nb.cellAt(0).executionSummary?.success, true);
      assert.match(text(outs), /step 1\/1: build_bulk/);
      assert.match(text(outs), /completed\. one step done/);
      const run = nb.metadata.run as { id: string; log: string };
      assert.match(run.id, /-scripted$/);
      assert.ok(fs.existsSync(path.resolve(ws, run.log)), `the linked log ${run.log} exists`);
    } finally {
      wb.controller.starter = undefined;
    }
  });
});
