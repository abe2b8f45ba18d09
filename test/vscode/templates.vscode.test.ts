import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createRun } from '../../src/core/run/directory';
import { until, workbench, workspaceDir } from './support/runs';

describe('pw.x templates (real VS Code)', () => {
  it("opens a run's template with live validation; saving records a new version and marks what came from the old one stale", async () => {
    await workbench();
    const root = vscode.extensions.getExtension('dreams-dft.dreams-vscode')!.extensionPath;
    const INPUT = fs.readFileSync(path.join(root, 'test/fixtures/qe/al-fcc-scf.in'), 'utf8');
    const run = await createRun(path.join(workspaceDir(), 'template.run'), { objective: 'template editing', slug: 'template' });
    const make = await run.registry.recordCall({
      tool: 'make_pw_input',
      args: {},
      reasons: {},
      context: 't',
      verdicts: [],
      agent: { role: 'dft' },
    });
    const [tmpl] = await run.registry.registerArtifacts(make.id, [
      { kind: 'qe-input', name: 'pw_input', value: { text: INPUT, calculation: 'scf' }, file: { name: 'pw.in', bytes: INPUT } },
    ]);
    await run.registry.endCall(make.id, { status: 'ok' });
    const pw = await run.registry.recordCall({
      tool: 'run_pw',
      args: { input: { value: tmpl!.location!, ref: tmpl!.id } },
      reasons: {},
      context: 't',
      verdicts: [],
      agent: { role: 'dft' },
    });
    const [energy] = await run.registry.registerArtifacts(pw.id, [{ kind: 'scalar', name: 'total_energy', value: -57.1, unit: 'eV' }]);
    await run.registry.endCall(pw.id, { status: 'ok' });
    const runDir = run.dir;
    await run.close();

    await vscode.commands.executeCommand('dreams.editTemplate', runDir, tmpl!.id);
    const editor = await until(
      'the template editor',
      () => vscode.window.activeTextEditor?.document.uri.fsPath.endsWith(`${tmpl!.id}.pwi`) && vscode.window.activeTextEditor,
    );
    const doc = editor.document;
    assert.equal(doc.languageId, 'qe-input');
    assert.equal(doc.getText(), INPUT);
    // live validation on the working copy
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('ecutwfc'));
    await editor.edit((e) => e.replace(doc.lineAt(line).range, '  ecutwfc = 20.0\n  ecutwfk = 1'));
    await until('the unknown-variable diagnostic', () =>
      vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'unknown-variable'),
    );
    await editor.edit((e) => e.delete(doc.lineAt(line + 1).rangeIncludingLineBreak));
    await until('the diagnostic to clear', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'unknown-variable'));
    assert.ok(await doc.save());

    const log = path.join(runDir, 'events.jsonl');
    const events = await until('the new template version in the log', () => {
      const ev = fs
        .readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      return ev.some((e) => e.kind === 'provenance.status') ? ev : undefined;
    });
    const edit = events.find((e) => e.kind === 'provenance.call' && e.payload.tool === 'edit_template').payload;
    assert.deepEqual(edit.agent, { role: 'user' });
    assert.equal(edit.args.template.ref, tmpl!.id);
    const created = events.find((e) => e.kind === 'provenance.artifact' && e.payload.creator === edit.id).payload;
    assert.match(created.value.text, /ecutwfc = 20\.0/);
    assert.equal(created.meta.supersedes, tmpl!.id);
    const stale = events.find((e) => e.kind === 'provenance.status').payload;
    assert.deepEqual(stale.ids, [energy!.id]);
    assert.equal(stale.status, 'stale');
    // the stored original is untouched
    assert.equal(fs.readFileSync(path.join(runDir, tmpl!.location!), 'utf8'), INPUT);
  });
});
