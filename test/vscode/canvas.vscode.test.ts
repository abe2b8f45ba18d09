import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseCanvasFile } from '../../src/core/canvas/canvasFile';
import { ApprovalBook } from '../../src/core/guard/approvals';
import { cellIds, recordScalar, runWithCanvas, until, workbench, workspaceDir } from './support/runs';

describe('canvas notebook over a run log (real VS Code)', () => {
  it('round-trips a canvas through the serializer: user cells, projected cells, outputs and the run link survive a save', async () => {
    const ws = workspaceDir();
    const file = path.join(ws, 'roundtrip.dreams');
    fs.copyFileSync(path.join(ws, 'al-lattice.dreams'), file);
    const before = parseCanvasFile(fs.readFileSync(file, 'utf8'));
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    const edit = new vscode.WorkspaceEdit();
    const md = new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, 'A remark: PBE overestimates a0 by ~1 %.', 'markdown');
    edit.set(nb.uri, [vscode.NotebookEdit.insertCells(2, [md])]);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await nb.save(), 'save failed');
    const after = parseCanvasFile(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(after.cells.slice(0, 2), before.cells, 'existing cells changed on save');
    assert.equal(after.cells[2]!.kind, 'markdown');
    assert.equal(after.cells[2]!.text, 'A remark: PBE overestimates a0 by ~1 %.');
  });

  it('projects the run log into cells on open and appends cells live as the run writes', async () => {
    const { run, canvas } = await runWithCanvas('live', 'Lattice constant of fcc Al');
    await workbench();
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    await recordScalar(run, 'fit_eos', 'lattice_constant', 4.0396, 'Å');
    await until('the cell of c-1, which made a-1', () => cellIds(nb).includes('calls/c-1'));
    const cell = nb.getCells().find((c) => c.metadata.dreams.id === 'calls/c-1')!;
    assert.equal(cell.document.getText(), 'lattice_constant = 4.0396 Å');
    const item = cell.outputs[0]!.items.find((i) => i.mime === 'application/vnd.dreams.artifacts+json')!;
    const data = JSON.parse(new TextDecoder().decode(item.data)).cards[0];
    assert.equal(data.value, 4.0396);
    assert.equal(data.creator, 'c-1');
    // a status change arriving later updates the same cell in place
    await run.registry.markStatus(['a-1'], 'stale', 'cutoff changed');
    await until('the stale mark on a-1', () =>
      nb
        .getCells()
        .find((c) => c.metadata.dreams.id === 'calls/c-1')
        ?.document.getText()
        .includes('(stale)'),
    );
    assert.equal(cellIds(nb).filter((id) => id === 'calls/c-1').length, 1);
    // the projection file follows the log; the log is never written by the notebook
    await until('the canvas file to be saved', () => !nb.isDirty);
    const saved = parseCanvasFile(fs.readFileSync(canvas.fsPath, 'utf8'));
    assert.ok(saved.cells.some((c) => c.id === 'calls/c-1'));
    await run.close();
  });

  it('replaces the per-artifact cells of a canvas saved by an older version with the cells of the calls that made them', async () => {
    const { run, canvas } = await runWithCanvas('older', 'Lattice constant of fcc Al');
    await recordScalar(run, 'fit_eos', 'lattice_constant', 4.04, 'Å');
    const file = JSON.parse(fs.readFileSync(canvas.fsPath, 'utf8'));
    file.cells.push({
      kind: 'artifact',
      id: 'artifacts/a-1',
      text: 'lattice_constant = 4.04 Å',
      seq: 3,
      outputs: [
        {
          mime: 'application/vnd.dreams.artifact+json',
          data: {
            id: 'a-1',
            kind: 'scalar',
            name: 'lattice_constant',
            status: 'final',
            creator: 'c-1',
            inputs: [],
            concerns: [],
            value: 4.04,
            unit: 'Å',
          },
        },
      ],
    });
    fs.writeFileSync(canvas.fsPath, JSON.stringify(file));
    await workbench();
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    await until('the call cell', () => cellIds(nb).includes('calls/c-1'));
    await until('the older cell to go', () => !cellIds(nb).includes('artifacts/a-1'));
    assert.deepEqual(cellIds(nb), ['objective-1', 'summary', 'calls/c-1'], 'the objective stays; the record comes back once');
    await run.close();
  });

  it('keeps one cell per record while the run writes in bursts (plan versions arriving while the notebook is being filled)', async () => {
    const { run, canvas } = await runWithCanvas('burst', 'Lattice constant of fcc Cu');
    await workbench();
    const supervisor = { kind: 'agent' as const, id: 'supervisor' };
    const plan = (v: number) =>
      run.canvas.write(
        'plan',
        // each version revises the step (its title) as well as changing its status
        {
          objective: 'Lattice constant of fcc Cu',
          version: v,
          steps: [{ id: 's1', title: `EOS ${v}`, status: v % 2 ? 'running' : 'done' }],
        },
        'burst test',
        supervisor,
      );
    // Before the notebook opens: the plan and a large table, so filling the notebook takes a while.
    assert.ok((await plan(1)).ok);
    const call = await run.registry.recordCall({
      tool: 'run_pw',
      args: {},
      reasons: {},
      context: 'test',
      verdicts: [],
      agent: { role: 'dft' },
    });
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ k: i, energyEv: -100 - i / 1000, note: 'burst test row' }));
    await run.registry.registerArtifacts(call.id, [{ kind: 'table', name: 'large_table', value: { rows } }]);
    await run.registry.endCall(call.id, { status: 'ok' });
    // The run goes on writing while the notebook opens and fills.
    const opened = vscode.workspace.openNotebookDocument(canvas);
    for (let v = 2; v <= 40; v++) {
      assert.ok((await plan(v)).ok);
      if (v % 5 === 0) await recordScalar(run, 'run_pw', 'total_energy', -100 - v, 'eV');
      await new Promise((r) => setTimeout(r, 5 + (v % 7) * 12)); // around the projection's 50 ms batching
    }
    const nb = await opened;
    await until('the last plan version', () =>
      nb
        .getCells()
        .find((c) => c.metadata.dreams.id === 'summary')
        ?.document.getText()
        .includes('plan revised 39 times'),
    );
    await until('its step done', () =>
      nb
        .getCells()
        .find((c) => c.metadata.dreams.id === 'steps/s1')
        ?.document.getText()
        .startsWith('Step 1 of 1: EOS 40 — done'),
    );
    // every run_pw call in a row is a line of one cell: c-1 (the table) to c-9 (the last energy)
    await until('the last energy (a-9, made by c-9)', () =>
      nb
        .getCells()
        .find((c) => c.metadata.dreams.id === 'calls/c-1')
        ?.document.getText()
        .includes('c-9: total_energy'),
    );
    await new Promise((r) => setTimeout(r, 500));
    const ids = cellIds(nb);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      `cells: ${ids.join(', ')}`,
    );
    assert.equal(ids.filter((id) => id === 'steps/s1').length, 1);
    assert.equal(ids.filter((id) => id === 'summary').length, 1);
    await run.close();
  });

  it('refuses an in-place edit of an artifact cell: reverted, nothing written to the log', async () => {
    const { run, canvas, logPath } = await runWithCanvas('noedit', 'Bulk modulus of Si');
    await workbench();
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    await recordScalar(run, 'fit_eos', 'bulk_modulus', 88.1, 'GPa');
    const cell = await until('the artifact cell', () => nb.getCells().find((c) => c.metadata.dreams.id === 'calls/c-1'));
    const original = cell.document.getText();
    const linesBefore = fs.readFileSync(logPath, 'utf8').split('\n').length;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(cell.document.uri, new vscode.Range(0, 0, cell.document.lineCount, 0), 'bulk_modulus = 120 GPa');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await until('the edit to be reverted', () => cell.document.getText() === original);
    assert.equal(fs.readFileSync(logPath, 'utf8').split('\n').length, linesBefore, 'the edit reached the log');
    await run.close();
  });
});

describe('approvals (real VS Code)', () => {
  it('an answer from VS Code is recorded as an event (who, when, comment), releases the waiting call, and a second answer is refused', async () => {
    const { run, canvas, logPath } = await runWithCanvas('approve', 'Cutoff for Al');
    const wb = await workbench();
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    const view = await wb.runs.attach(run.log);
    const e = await recordScalar(run, 'select_converged_settings', 'ecutwfc', 12, 'Ry');
    const book = new ApprovalBook(run.log);
    const req = await book.raise({
      call: 'c-1',
      tool: 'make_pw_input',
      parameter: 'ecutwfc',
      value: 12,
      verdicts: [{ rule: 'cutoff-vs-pseudopotential', level: 'warn', reasons: ['12 Ry is below the 15 Ry the pseudopotential suggests'] }],
      provenancePath: [e, 'c-1'],
    });
    const waiting = book.waitFor(req.id);
    await until('the approval cell', () => cellIds(nb).includes(`approvals/${req.id}`));
    await until('the pending count', () => wb.approvals.count() === 1);

    const t0 = Date.now();
    const answer = await wb.runs.answerApproval(view, req.id, 'approve', 'fine for a convergence test');
    assert.ok(answer.ok, answer.ok ? '' : answer.message);
    const released = await waiting;
    assert.equal(released.decision, 'approve');
    assert.equal(released.by, 'user@vscode');
    assert.equal(released.comment, 'fine for a convergence test');
    assert.ok(Date.parse(released.at) >= t0 - 1000);
    const lines = fs
      .readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const recorded = lines.filter((l) => l.kind === 'approval.answer');
    assert.equal(recorded.length, 1);
    assert.deepEqual(recorded[0].actor, { kind: 'user', id: 'user@vscode' });

    // a busy run writes events all the time: the pending list is redrawn only when it changes
    // (a redraw replaces the rows' commands under the user's click)
    // (once the view has taken the answer: the list's own change is one redraw)
    await until('the answered request to leave the pending list', () => wb.approvals.count() === 0);
    const redraws = wb.approvals.redraws;
    for (let i = 0; i < 5; i++) await run.canvas.write('notes/progress', `step ${i}`, 'busy run', { kind: 'agent', id: 'supervisor' });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(wb.approvals.redraws, redraws, 'notes written while an approval waits did not redraw the view');

    const stale = await wb.runs.answerApproval(view, req.id, 'reject');
    assert.equal(stale.ok, false);
    assert.match(stale.ok ? '' : stale.message, /already answered: approved by user@vscode/);
    await until('the approval cell to show the answer', () =>
      nb
        .getCells()
        .find((c) => c.metadata.dreams.id === `approvals/${req.id}`)
        ?.document.getText()
        .includes('approved'),
    );
    await until('the pending count to drop', () => wb.approvals.count() === 0);
    await run.close();
  });

  it('"Approve all like this" stands for later requests of the same concern: they are answered as they are raised, and their cells say by what', async () => {
    const { run, canvas } = await runWithCanvas('standing', 'Loose relaxations');
    const wb = await workbench();
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    const view = await wb.runs.attach(run.log);
    const book = new ApprovalBook(run.log);
    const loose = {
      tool: 'relax_structure',
      parameter: 'fmaxEvPerAngstrom',
      value: 0.2,
      verdicts: [{ rule: 'relax-fmax@1', level: 'warn' as const, reasons: ['looser than 0.1 eV/Å'] }],
      provenancePath: [],
    };
    const first = await book.raise({ ...loose, call: 'c-1' });
    await until('the pending count', () => wb.approvals.count() === 1);
    const answer = await wb.runs.answerApproval(view, first.id, 'approve', 'a quick look', { standing: true });
    assert.ok(answer.ok && answer.answer.standing, JSON.stringify(answer));
    const later = await book.raise({ ...loose, call: 'c-2', tool: 'adsorption_search' });
    assert.equal((await book.waitFor(later.id)).under, first.id, 'the later request was answered as it was raised');
    const cellText = (id: string) =>
      nb
        .getCells()
        .find((c) => c.metadata.dreams.id === `approvals/${id}`)
        ?.document.getText() ?? '';
    await until('the later cell to say why it was approved', () =>
      cellText(later.id).includes(`approved (standing approval of ${first.id})`),
    );
    assert.match(cellText(first.id), /approved \(standing: and later ones like it\)/);
    await until('no approval pending', () => wb.approvals.count() === 0);
    await run.close();
  });

  it("posts an answer to the run's inbox while another process holds the run, and says so when nobody takes it", async () => {
    const { run, canvas } = await runWithCanvas('locked', 'Lattice constant of Cu');
    const wb = await workbench();
    await vscode.workspace.openNotebookDocument(canvas);
    const req = await new ApprovalBook(run.log).raise({
      call: 'c-1',
      tool: 'run_pw',
      verdicts: [{ rule: 'x', level: 'warn', reasons: ['r'] }],
      provenancePath: [],
    });
    // A reader view (not attached): the writer lock is held by `run`, as a CLI process would.
    const view = await wb.runs.open(path.join(run.dir, 'events.jsonl'));
    const r = await wb.runs.answerApproval(view, req.id, 'approve');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /did not take the answer to ap-1 within 15 s.*inbox/s);
    assert.equal(fs.readdirSync(path.join(run.dir, 'inbox')).filter((f) => f.endsWith('.json')).length, 1, 'the answer waits in the inbox');
    await run.close();
  });
});
