import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createRun } from '../../src/core/run/directory';
import { until, workbench, workspaceDir } from './support/runs';
import { leanAlObjective } from '../fixtures/agents/scriptedLattice';

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
    const real = wb.controller.starter;
    let nb: vscode.NotebookDocument | undefined;
    let whileRunning = '';
    wb.controller.starter = {
      async start(req) {
        seen.push(req.objective);
        const run = await createRun(path.join(ws, 'scripted.run'), { objective: req.objective, slug: 'scripted' });
        await req.linked({ runLog: path.join(run.dir, 'events.jsonl'), runId: run.runId });
        req.progress('step 1/2: build_bulk');
        req.progress('step 2/2: run_eos');
        // while the run goes on, the cell shows the latest progress line only (each replaces the last)
        whileRunning = await until(
          'the progress line in the cell',
          () => {
            const shown = text([...nb!.cellAt(0).outputs]);
            return /step 2\/2: run_eos/.test(shown) ? shown : undefined;
          },
          10_000,
        );
        await run.log.append({
          kind: 'run.state',
          key: 'run/state',
          actor: { kind: 'framework', id: 'run' },
          payload: { state: 'completed' },
        });
        await run.close();
        return { runLog: path.join(run.dir, 'events.jsonl'), runId: run.runId, state: 'completed', summary: 'one step done' };
      },
    };
    try {
      nb = await canvasWith('scripted', 'Lattice constant of fcc Al');
      const outs = await execute(nb);
      assert.deepEqual(seen, ['Lattice constant of fcc Al']);
      assert.equal(nb.cellAt(0).executionSummary?.success, true);
      assert.equal(whileRunning.trim(), 'step 2/2: run_eos', 'one progress line, the latest');
      // at the end the outcome replaces the progress line: the summary and step cells hold the record
      assert.match(text(outs).trim(), /^Run \S+-scripted: completed\. one step done$/);
      const run = nb.metadata.run as { id: string; log: string };
      assert.match(run.id, /-scripted$/);
      assert.ok(fs.existsSync(path.resolve(ws, run.log)), `the linked log ${run.log} exists`);
    } finally {
      wb.controller.starter = real;
    }
  });

  it('tells the user outside the cell when a run fails or cannot start, and when one completes', async () => {
    const wb = await workbench();
    const ws = workspaceDir();
    const real = wb.controller.starter;
    const notices: { level: string; message: string }[] = [];
    const off = wb.controller.onDidNotify((n) => notices.push(n));
    let ending: 'failed' | 'completed' | 'throws' = 'failed';
    wb.controller.starter = {
      async start(req) {
        if (ending === 'throws') throw new Error('No Anthropic API key: run "DREAMS: Set API Key"');
        const run = await createRun(path.join(ws, `notice-${ending}.run`), { objective: req.objective, slug: ending });
        await req.linked({ runLog: path.join(run.dir, 'events.jsonl'), runId: run.runId });
        await run.log.append({ kind: 'run.state', key: 'run/state', actor: { kind: 'framework', id: 'run' }, payload: { state: ending } });
        await run.close();
        const summary = ending === 'failed' ? 'step run-eos failed: job dreams-1 failed: No space left on device' : 'a = 4.04 Å';
        return { runLog: path.join(run.dir, 'events.jsonl'), runId: run.runId, state: ending, summary };
      },
    };
    try {
      const failed = await canvasWith('notice-failed', 'Lattice constant of fcc Al');
      await execute(failed);
      assert.equal(failed.cellAt(0).executionSummary?.success, false);
      await until('the failure notice', () => notices.length === 1, 10_000);
      assert.equal(notices[0]!.level, 'error');
      assert.match(
        notices[0]!.message,
        /^DREAMS run \S+-failed \(notice-failed\.dreams\) failed: step run-eos failed: job dreams-1 failed: No space left on device\./,
      );

      ending = 'throws';
      await execute(await canvasWith('notice-throws', 'Lattice constant of fcc Al'));
      await until('the error notice', () => notices.length === 2, 10_000);
      assert.deepEqual(notices[1], {
        level: 'error',
        message: 'DREAMS (notice-throws.dreams): No Anthropic API key: run "DREAMS: Set API Key"',
      });

      ending = 'completed';
      const done = await canvasWith('notice-completed', 'Lattice constant of fcc Al');
      await execute(done);
      assert.equal(done.cellAt(0).executionSummary?.success, true);
      await until('the completion notice', () => notices.length === 3, 10_000);
      assert.equal(notices[2]!.level, 'info');
      assert.match(notices[2]!.message, /completed: a = 4\.04 Å\.$/);
    } finally {
      off.dispose();
      wb.controller.starter = real;
    }
  });

  it('runs an objective with the offline provider on real pw.x: the run is linked, and its results appear as cells', async function () {
    this.timeout(600_000);
    await workbench();
    const c = vscode.workspace.getConfiguration('dreams');
    await c.update('provider', 'offline', vscode.ConfigurationTarget.Global);
    await c.update('approvalPolicy', 'continue', vscode.ConfigurationTarget.Global);
    try {
      const o = leanAlObjective();
      const yaml = [
        'workflow: lattice-constant',
        `objective: ${o.text}`,
        'inputs:',
        ...Object.entries(o.inputs!).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`),
      ].join('\n');
      const nb = await canvasWith('offline-al', yaml);
      await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: nb.uri });
      await until('the run to finish', () => nb.cellAt(0).executionSummary?.success !== undefined, 590_000);
      const out = text([...nb.cellAt(0).outputs]);
      assert.equal(nb.cellAt(0).executionSummary?.success, true, out);
      assert.match(out, /completed/);
      const run = nb.metadata.run as { id: string; log: string };
      assert.ok(run?.log, 'the canvas is linked to its run');
      await until(
        'the lattice constant cell',
        () => nb.getCells().some((cell) => /lattice_constant = \d\.\d+ Å/.test(cell.document.getText())),
        30_000,
      );
      const events = fs
        .readFileSync(path.resolve(workspaceDir(), run.log), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const a0 = events.find((e) => e.kind === 'provenance.artifact' && e.payload.name === 'lattice_constant').payload;
      // shown in the cell of the call that made it (with its other artifacts), as a card of the cell's first output
      const cardsOf = (x: vscode.NotebookCell) =>
        x.outputs[0]?.items[0]?.mime === 'application/vnd.dreams.artifacts+json'
          ? (JSON.parse(new TextDecoder().decode(x.outputs[0].items[0].data)).cards as { id: string; value: number }[])
          : [];
      const cell = nb.getCells().find((x) => cardsOf(x).some((d) => d.id === a0.id))!;
      // the call that made it served a plan step: the artifact is in that step's cell
      const made = events.find((e) => e.kind === 'provenance.call' && e.payload.id === a0.creator)?.payload as
        | { step?: string }
        | undefined;
      assert.ok(made?.step, `the call ${a0.creator} that made ${a0.id} serves a plan step`);
      assert.equal(cell.metadata.dreams?.id, `steps/${made.step}`);
      assert.equal(cell.metadata.dreams?.kind, 'step');
      const shown = cardsOf(cell).find((d) => d.id === a0.id)!;
      assert.equal(shown.value, a0.value, 'the cell shows the recorded value');
      assert.ok(a0.value > 3.85 && a0.value < 4.1, `a0 = ${a0.value} Å for LDA Al`);

      // A canvas in another folder names that run in its run block, relative to itself: every pw.x
      // input is identical, so no job starts and the lattice constant is the same.
      const firstRun = path.dirname(path.resolve(workspaceDir(), run.log));
      const againDir = path.join(workspaceDir(), 'again');
      fs.mkdirSync(againDir, { recursive: true });
      const reuse = (dir: string) => `${yaml}\nrun: { reuseFrom: [${JSON.stringify(path.relative(againDir, dir))}] }`;
      const refused = await execute(await canvasWith('again/mistyped', reuse(`${firstRun}-typo`)));
      assert.match(text(refused), /run\.reuseFrom: \S+-typo is not a DREAMS run \(it has no events\.jsonl\)/);
      assert.equal(fs.existsSync(path.join(againDir, 'mistyped.run')), false, 'refused before a run directory was made');
      const again = await canvasWith('again/offline-al', reuse(firstRun));
      await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: again.uri });
      await until('the second run to finish', () => again.cellAt(0).executionSummary?.success !== undefined, 120_000);
      assert.equal(again.cellAt(0).executionSummary?.success, true, text([...again.cellAt(0).outputs]));
      const log2 = path.resolve(againDir, (again.metadata.run as { log: string }).log);
      const events2 = fs
        .readFileSync(log2, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(events2.filter((e) => e.kind === 'job.transition').length, 0, 'no pw.x job');
      const energies = events2.filter((e) => e.kind === 'provenance.artifact' && e.payload.name === 'total_energy').map((e) => e.payload);
      assert.ok(energies.length > 5, `${energies.length} energies`);
      for (const e of energies) {
        const from = e.meta?.reusedFrom as { run?: string } | undefined;
        assert.ok(from, `${e.id} was computed, not reused`);
        // from the first run, or (a point two sweeps share) from this run's own earlier reuse of it
        if (from.run) assert.equal(from.run, path.basename(firstRun));
      }
      const a1 = events2.filter((e) => e.kind === 'provenance.artifact' && e.payload.name === 'lattice_constant').at(-1).payload;
      assert.equal(a1.value, a0.value);
    } finally {
      await c.update('provider', undefined, vscode.ConfigurationTarget.Global);
      await c.update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("an objective cell's run block may tighten the approval policy, and an unknown cluster is refused with the profiles there are", async function () {
    this.timeout(120_000);
    await workbench();
    const c = vscode.workspace.getConfiguration('dreams');
    await c.update('provider', 'offline', vscode.ConfigurationTarget.Global);
    await c.update('approvalPolicy', 'auto-approve', vscode.ConfigurationTarget.Global);
    try {
      // an EMT search with relaxations looser than the search's standard: the guard warns on each
      const search = (run: string) =>
        [
          'workflow: adsorption-search',
          'inputs:',
          '  slab: { generate: { metal: Pt, facet: fcc111, size: [3, 3], layers: 4 } }',
          '  adsorbate: CO',
          '  calculator: { kind: emt }',
          '  planner: offline',
          '  maxRelaxations: 2',
          '  relaxation: { fmaxEvPerAngstrom: 0.2, maxSteps: 200 }',
          run,
        ].join('\n');
      // the user approves by policy; the canvas asks that results count only once a person approves them
      const nb = await canvasWith('cell-run-block', search('run: { approval: continue }'));
      await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: nb.uri });
      await until('the run to finish', () => nb.cellAt(0).executionSummary?.success !== undefined, 110_000);
      assert.equal(nb.cellAt(0).executionSummary?.success, true, text([...nb.cellAt(0).outputs]));
      const run = nb.metadata.run as { log: string };
      const events = fs
        .readFileSync(path.resolve(workspaceDir(), run.log), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; payload: { by?: string } });
      assert.ok(
        events.some((e) => e.kind === 'approval.request'),
        'the loose search raised no warnings',
      );
      assert.equal(
        events.filter((e) => e.kind === 'approval.answer' && e.payload.by === 'policy').length,
        0,
        'the cell asked for continue: nothing may be approved by policy',
      );
      assert.doesNotMatch(text([...nb.cellAt(0).outputs]), /was ignored/);

      await c.update('backend', 'hpc9', vscode.ConfigurationTarget.Global);
      const refused = await execute(await canvasWith('unknown-cluster', search('')));
      // (the error output is JSON: its quotes come escaped)
      assert.match(text(refused), /No cluster profile named \W+hpc9\W+ \W+dreams\.clusters\W+ is empty/);
    } finally {
      for (const k of ['provider', 'approvalPolicy', 'backend']) await c.update(k, undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
