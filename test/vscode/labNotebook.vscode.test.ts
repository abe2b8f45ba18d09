// The canvas as a lab notebook in real VS Code: the summary cell first, one cell per plan
// step with the approval its call raised inside it, the report in full at the end; a second
// canvas of the same run (a reopen) gets the same cells.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseCanvasFile } from '../../src/core/canvas/canvasFile';
import { ApprovalBook } from '../../src/core/guard/approvals';
import { cellIds, runWithCanvas, until, workbench } from './support/runs';

const REPORT =
  '# Lattice constant of fcc Al\n\nThe equilibrium lattice constant is 4.040 Å.\n\n| quantity | value |\n|---|---|\n| a0 | 4.040 Å |\n';
const outputOf = (cell: vscode.NotebookCell | undefined, mime: string) => {
  for (const o of cell?.outputs ?? []) for (const i of o.items) if (i.mime === mime) return JSON.parse(new TextDecoder().decode(i.data));
  return undefined;
};

describe('the canvas as a lab notebook (real VS Code)', () => {
  it('shows the summary first, a cell per step with its approval inside it, the report in full last, and the same cells in a reopened canvas', async () => {
    const { run, canvas } = await runWithCanvas('lab', 'Lattice constant of fcc Al');
    await workbench();
    const supervisor = { kind: 'agent' as const, id: 'supervisor' };
    const plan = (eos: string, report: string) =>
      run.canvas.write(
        'plan',
        {
          objective: 'Lattice constant of fcc Al',
          version: 1,
          steps: [
            { id: 'eos', title: 'Fit the equation of state', worker: 'dft', tool: 'fit_eos', status: eos },
            { id: 'report', title: 'Write the report', worker: 'dft', tool: 'write_report', status: report },
          ],
        },
        'lab test',
        supervisor,
      );
    assert.ok((await plan('running', 'pending')).ok);
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    const eos = await run.registry.recordCall({
      tool: 'fit_eos',
      args: {},
      reasons: {},
      context: 'test',
      verdicts: [],
      agent: { role: 'dft' },
      step: 'eos',
    });
    const [a] = await run.registry.registerArtifacts(eos.id, [{ kind: 'scalar', name: 'lattice_constant', value: 4.0401, unit: 'Å' }]);
    const book = new ApprovalBook(run.log);
    const req = await book.raise({
      call: eos.id,
      tool: 'fit_eos',
      parameter: 'points',
      value: 5,
      verdicts: [{ rule: 'eos-points', level: 'warn', reasons: ['five points span only ±2 % of the volume'] }],
      provenancePath: [a!.id, eos.id],
    });
    const step = () => nb.getCells().find((c) => c.metadata.dreams.id === 'steps/eos');
    await until(
      'the approval card in the step of its call',
      () => outputOf(step(), 'application/vnd.dreams.approval+json')?.request?.id === req.id,
    );
    assert.ok(!cellIds(nb).includes(`approvals/${req.id}`), 'no approval cell of its own');
    const summary = () => nb.getCells().find((c) => c.metadata.dreams.id === 'summary');
    await until('the open approval in the summary', () => summary()?.document.getText().includes(`${req.id} (fit_eos.points, step eos)`));
    assert.equal(summary()!.kind, vscode.NotebookCellKind.Markup, 'the summary is rendered Markdown');
    assert.match(step()!.document.getText(), /^Step 1 of 2: Fit the equation of state — running\nworker dft · tool fit_eos · id eos/);
    await book.answer(req.id, 'approve', 'user@test');
    await run.registry.endCall(eos.id, { status: 'ok' });

    assert.ok((await plan('done', 'running')).ok);
    const rep = await run.registry.recordCall({
      tool: 'write_report',
      args: {},
      reasons: {},
      context: 'test',
      verdicts: [],
      agent: { role: 'dft' },
      step: 'report',
    });
    await run.registry.registerArtifacts(rep.id, [
      {
        kind: 'file',
        name: 'report',
        value: { title: 'Lattice constant of fcc Al', claims: [{ quantity: 'lattice_constant', value: 4.0401, unit: 'Å', cites: a!.id }] },
        file: { name: 'report.md', bytes: REPORT },
        inputs: [a!.id],
      },
    ]);
    await run.registry.endCall(rep.id, { status: 'ok' });
    assert.ok((await plan('done', 'done')).ok);
    const report = await until('the report in full', () =>
      outputOf(
        nb.getCells().find((c) => c.metadata.dreams.id === 'report'),
        'application/vnd.dreams.report+json',
      ),
    );
    // the run's composed report (report.md): its title, then the report's own text among the run's sections
    assert.match(report.markdown, /^# Lattice constant of fcc Al\n/, 'the report itself, not its path');
    assert.ok(report.markdown.includes(REPORT.replace(/^# .*\n+/, '').trim()), "the report's own text");
    assert.deepEqual(report.claims, [{ quantity: 'lattice_constant', value: 4.0401, unit: 'Å', artifact: a!.id }]);
    await until('the result in the summary', () =>
      summary()?.document.getText().includes(`lattice constant = **4.0401 Å** (artifact ${a!.id})`),
    );
    assert.deepEqual(cellIds(nb), ['objective-1', 'summary', 'steps/eos', 'steps/report', 'report']);
    assert.match(step()!.document.getText(), /approvals: 1, all answered or closed/);

    // a reopen: a second canvas of the same run, from the saved file, gets the same cells. The last plan version
    // (both steps done) is drawn first, so the file read below is the run's final state, not one update before it.
    const reportStep = () => nb.getCells().find((c) => c.metadata.dreams.id === 'steps/report');
    await until('the report step drawn as done', () =>
      /^Step 2 of 2: Write the report — done\n/.test(reportStep()?.document.getText() ?? ''),
    );
    await until('the summary with both steps done', () => summary()?.document.getText().includes('2/2 steps done'));
    await until(
      'the canvas file saved with both steps done',
      () => !nb.isDirty && fs.readFileSync(canvas.fsPath, 'utf8').includes('2/2 steps done'),
    );
    const saved = parseCanvasFile(fs.readFileSync(canvas.fsPath, 'utf8'));
    const copy = path.join(path.dirname(canvas.fsPath), 'lab-reopened.dreams');
    fs.writeFileSync(copy, fs.readFileSync(canvas.fsPath));
    const again = await vscode.workspace.openNotebookDocument(vscode.Uri.file(copy));
    await new Promise((r) => setTimeout(r, 1500)); // (time for a flush that should change nothing)
    assert.deepEqual(
      cellIds(again),
      saved.cells.map((c) => c.id),
    );
    assert.deepEqual(
      again.getCells().map((c) => c.document.getText()),
      saved.cells.map((c) => c.text),
    );
    await run.close();
  });
});
