// A completed run's canvas in real VS Code: the report cell holds the run's report in full (report.md,
// with the E(V) plot's SVG for the renderer to draw inline), and a log whose writer stopped in the
// middle of a line is named at the top of the summary, with what to do, and left as it was.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { completedLatticeRun } from '../harness/completedLatticeRun';
import { until, workbench, workspaceDir } from './support/runs';

const outputOf = (cell: vscode.NotebookCell | undefined, mime: string) => {
  for (const o of cell?.outputs ?? []) for (const i of o.items) if (i.mime === mime) return JSON.parse(new TextDecoder().decode(i.data));
  return undefined;
};

describe('the report cell and a damaged run log (real VS Code)', () => {
  it("opens a completed run's canvas with the report in full and its E(V) plot in the report cell, and says the log is damaged, where and what to do", async () => {
    const ws = workspaceDir();
    const { run, lattice } = await completedLatticeRun(path.join(ws, 'report-cell.run'));
    await run.close();
    const logPath = path.join(run.dir, 'events.jsonl');
    // the writer stopped in the middle of a line: a torn last line, after the run's last event
    const complete = fs.readFileSync(logPath, 'utf8').split('\n').filter(Boolean).length;
    fs.appendFileSync(logPath, '{"v":1,"seq":99,"ts":"2026-12-05T03:00:00.000Z","kind":"run.st');
    const before = fs.readFileSync(logPath);
    const canvasPath = path.join(ws, 'report-cell.dreams');
    fs.writeFileSync(
      canvasPath,
      JSON.stringify({
        dreams: 1,
        run: { id: run.runId, log: path.relative(ws, logPath) },
        cells: [{ kind: 'objective', id: 'objective-1', text: 'Lattice constant of fcc Al with LDA' }],
      }) + '\n',
    );
    const wb = await workbench();
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(canvasPath));
    await vscode.window.showNotebookDocument(nb);
    const cell = (id: string) => nb.getCells().find((c) => c.metadata.dreams?.id === id);

    const report = await until('the report in full in the report cell', () =>
      outputOf(cell('report'), 'application/vnd.dreams.report+json'),
    );
    // report.md's text, headed (as `dreams report --from-damaged` heads it) by what is wrong with the log
    assert.match(report.markdown, /^> \*\*.*events\.jsonl ends in a torn line: .*\*\*\n\n# Lattice constant of fcc Al \(LDA\)\n/);
    assert.match(report.markdown, /## Report a-\d+: accepted by the report judge/);
    assert.match(report.markdown, /## Equation of state\n\n!\[E\(V\)\]\(plots\/eos\.svg\)/, 'the plot, where report.md shows it');
    assert.match(report.images?.['plots/eos.svg'] ?? '', /^<svg [^>]*>[\s\S]*E\(V\), birch-murnaghan fit/, "the plot's SVG with it");
    assert.deepEqual(
      report.claims.map((c: { artifact: string }) => c.artifact),
      [lattice],
    );

    const summary = await until('the damaged log named in the summary', () => {
      const text = cell('summary')?.document.getText();
      return text?.includes('ends in a torn line') ? text : undefined;
    });
    assert.match(
      summary,
      new RegExp(`^### Run ${run.runId}\\n\\n> \\*\\*⚠\\*\\* .*events\\.jsonl ends in a torn line: line ${complete + 1} `),
    );
    assert.match(summary, /`dreams resume ".*"` copies the log aside, cuts the torn line and continues the run/);
    assert.match(summary, /\| State \| \*\*completed\*\*/, 'every complete event was read');
    const view = await wb.runs.open(logPath);
    assert.equal(view.health?.line, complete + 1, "the run's view knows the damaged line");
    await wb.runs.close(view);
    assert.ok(fs.readFileSync(logPath).equals(before), 'opening the damaged log changed nothing in it');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('refuses an answer from the notebook on a log damaged before its last line, naming the damage, and leaves the log as it was', async () => {
    const ws = workspaceDir();
    const { run } = await completedLatticeRun(path.join(ws, 'damaged-answer.run'));
    await run.close();
    const logPath = path.join(run.dir, 'events.jsonl');
    // a changed byte in the fifth line: the lines after it look whole, so it is not a crash's torn tail
    const lines = fs.readFileSync(logPath, 'utf8').split('\n');
    lines[4] = lines[4]!.replace('"seq":5', '"seq":5 ');
    fs.writeFileSync(logPath, lines.join('\n'));
    const before = fs.readFileSync(logPath);
    const wb = await workbench();
    const view = await wb.runs.open(logPath);
    assert.equal(view.health?.line, 5, 'the damage is known when the log is opened');
    const result = await wb.runs.answerApproval(view, 'ap-1', 'approve', 'from the test');
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.message, /damaged at line 5 .*Nothing was changed/);
    assert.ok(fs.readFileSync(logPath).equals(before), 'the log was not cut back');
    assert.deepEqual(
      fs.readdirSync(run.dir).filter((f) => f.startsWith('events.damaged-')),
      [],
      'no copy made: nothing was cut',
    );
    await wb.runs.close(view);
  });
});
