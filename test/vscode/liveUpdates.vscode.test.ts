// Live updates of the lab notebook in real VS Code touch only what changed: while a step gains
// a call, that step's cell keeps its drawn outputs (same output ids) and every other step cell
// is left as it was (the same cell objects); a new artifact redraws its own step's outputs only.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { cellIds, runWithCanvas, until, workbench } from './support/runs';

const cellOf = (nb: vscode.NotebookDocument, id: string) => nb.getCells().find((c) => c.metadata.dreams?.id === id);
// (an output's id is VS Code's, kept while the output stays drawn; the API does not type it)
const outputIds = (c: vscode.NotebookCell | undefined) => (c?.outputs ?? []).map((o) => (o as unknown as { id: string }).id);

describe('live updates of the canvas notebook (real VS Code)', () => {
  it("a call starting in a step changes that step's text in place: its outputs and every other cell stay as drawn; a new artifact redraws its own step's outputs only", async () => {
    const { run, canvas } = await runWithCanvas('incremental', 'Lattice constant of fcc Al');
    const wb = await workbench();
    const supervisor = { kind: 'agent' as const, id: 'supervisor' };
    assert.ok(
      (
        await run.canvas.write(
          'plan',
          {
            objective: 'Lattice constant of fcc Al',
            version: 1,
            steps: [
              { id: 'cutoff', title: 'Converge the cutoff', worker: 'dft', tool: 'run_scf', status: 'done' },
              { id: 'eos', title: 'Fit the equation of state', worker: 'dft', tool: 'fit_eos', status: 'running' },
            ],
          },
          'live update test',
          supervisor,
        )
      ).ok,
    );
    const call = (tool: string, step: string) =>
      run.registry.recordCall({ tool, args: {}, reasons: {}, context: 'test', verdicts: [], agent: { role: 'dft' }, step });
    const c1 = await call('run_scf', 'cutoff');
    await run.registry.registerArtifacts(c1.id, [{ kind: 'scalar', name: 'total_energy', value: -57.1, unit: 'eV' }]);
    await run.registry.endCall(c1.id, { status: 'ok' });
    const c2 = await call('fit_eos', 'eos');
    await run.registry.registerArtifacts(c2.id, [{ kind: 'scalar', name: 'lattice_constant', value: 4.0401, unit: 'Å' }]);
    await run.registry.endCall(c2.id, { status: 'ok' });

    const nb = await vscode.workspace.openNotebookDocument(canvas);
    await until(
      'both step cells with their cards',
      () =>
        outputIds(cellOf(nb, 'steps/cutoff')).length &&
        outputIds(cellOf(nb, 'steps/eos')).length &&
        cellOf(nb, 'steps/eos')!.document.getText().includes(c2.id),
    );
    await until('the canvas saved', () => !nb.isDirty);
    const cutoff = cellOf(nb, 'steps/cutoff')!;
    const eos = cellOf(nb, 'steps/eos')!;
    const eosOutputs = outputIds(eos);
    const cutoffOutputs = outputIds(cutoff);
    const updates: { id: string; kind: string }[] = [];
    const sub = wb.canvas.onDidUpdate((u) => {
      if (u.notebook === nb) updates.push(...u.updates);
    });
    try {
      // a second call starts in the running step: a line in its text, no new card
      const c3 = await call('fit_eos', 'eos');
      await until('the new call line in the step', () => cellOf(nb, 'steps/eos')?.document.getText().includes(`${c3.id} running`));
      assert.deepEqual(outputIds(cellOf(nb, 'steps/eos')), eosOutputs, "the step's outputs were drawn again for a change of its text");
      assert.equal(cellOf(nb, 'steps/eos'), eos, 'the step cell was replaced instead of edited in place');
      assert.equal(cellOf(nb, 'steps/cutoff'), cutoff, 'a step the event did not touch was replaced');
      assert.deepEqual(outputIds(cutoff), cutoffOutputs);
      assert.ok(
        updates.every((u) => u.kind === 'text'),
        `updates: ${JSON.stringify(updates)}`,
      );

      // its artifact arrives: the step's cards change, so that cell's outputs are drawn again, and no other cell's
      updates.length = 0;
      await run.registry.registerArtifacts(c3.id, [{ kind: 'scalar', name: 'bulk_modulus', value: 79.4, unit: 'GPa' }]);
      await until('the new card in the step', () => cellOf(nb, 'steps/eos')?.document.getText().includes('bulk_modulus'));
      assert.notDeepEqual(outputIds(cellOf(nb, 'steps/eos')), eosOutputs, 'the new card is drawn');
      assert.equal(cellOf(nb, 'steps/cutoff'), cutoff, 'the other step was replaced');
      assert.deepEqual(outputIds(cellOf(nb, 'steps/cutoff')), cutoffOutputs);
      assert.deepEqual(
        updates.filter((u) => u.kind === 'replace').map((u) => u.id),
        ['steps/eos'],
      );
      assert.deepEqual(cellIds(nb), ['objective-1', 'summary', 'steps/cutoff', 'steps/eos']);
    } finally {
      sub.dispose();
      await run.close();
    }
  });

  it('a plan version that reorders the steps moves their cells in the open notebook to the new order, as a reopen shows them', async () => {
    const { run, canvas } = await runWithCanvas('reorder', 'Lattice constant of fcc Al');
    const wb = await workbench();
    const supervisor = { kind: 'agent' as const, id: 'supervisor' };
    const step = (id: string, title: string, status: string) => ({ id, title, worker: 'dft', tool: 'run_scf', status });
    const plan = async (version: number, steps: ReturnType<typeof step>[]) =>
      assert.ok(
        (await run.canvas.write('plan', { objective: 'Lattice constant of fcc Al', version, steps }, 'reorder test', supervisor)).ok,
      );
    await plan(1, [
      step('cutoff', 'Converge the cutoff', 'done'),
      step('kpoints', 'Converge the k-points', 'pending'),
      step('eos', 'Fit the equation of state', 'pending'),
    ]);
    const c1 = await run.registry.recordCall({
      tool: 'run_scf',
      args: {},
      reasons: {},
      context: 'test',
      verdicts: [],
      agent: { role: 'dft' },
      step: 'cutoff',
    });
    await run.registry.registerArtifacts(c1.id, [{ kind: 'scalar', name: 'total_energy', value: -57.1, unit: 'eV' }]);
    await run.registry.endCall(c1.id, { status: 'ok' });
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    await until('the three step cells', () => cellIds(nb).includes('steps/eos') && outputIds(cellOf(nb, 'steps/cutoff')).length > 0);
    assert.deepEqual(cellIds(nb), ['objective-1', 'summary', 'steps/cutoff', 'steps/kpoints', 'steps/eos']);
    const updates: { id: string; kind: string }[] = [];
    const sub = wb.canvas.onDidUpdate((u) => {
      if (u.notebook === nb) updates.push(...u.updates);
    });
    try {
      // the supervisor fits the EOS at the converged cutoff first, then checks the k-points
      await plan(2, [
        step('cutoff', 'Converge the cutoff', 'done'),
        step('eos', 'Fit the equation of state', 'running'),
        step('kpoints', 'Converge the k-points', 'pending'),
      ]);
      await until('the steps in the new order', () => cellIds(nb).join(' ') === 'objective-1 summary steps/cutoff steps/eos steps/kpoints');
      assert.match(cellOf(nb, 'steps/eos')!.document.getText(), /^Step 2 of 3: Fit the equation of state — running/);
      assert.match(cellOf(nb, 'steps/kpoints')!.document.getText(), /^Step 3 of 3: Converge the k-points — pending/);
      assert.ok(outputIds(cellOf(nb, 'steps/cutoff')).length > 0, 'the step that stayed keeps its cards');
      assert.deepEqual(
        updates
          .filter((u) => u.kind === 'move')
          .map((u) => u.id)
          .sort(),
        ['steps/eos', 'steps/kpoints'],
      );
      await until('the canvas saved', () => !nb.isDirty);
      const saved = JSON.parse(fs.readFileSync(canvas.fsPath, 'utf8')) as { cells: { id: string }[] };
      assert.deepEqual(
        saved.cells.map((c) => c.id),
        cellIds(nb),
        'the saved canvas (what a reopen shows) has the same order',
      );
    } finally {
      sub.dispose();
      await run.close();
    }
  });
});
