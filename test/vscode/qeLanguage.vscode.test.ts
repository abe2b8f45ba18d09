import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { until, workbench, workspaceDir } from './support/runs';

async function openWrongInput(): Promise<vscode.TextDocument> {
  await workbench();
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceDir(), 'al-wrong.pwi')));
  await vscode.window.showTextDocument(doc);
  assert.equal(doc.languageId, 'qe-input');
  return doc;
}

describe('QE input language features (real VS Code)', () => {
  before(async () => {
    await vscode.workspace.getConfiguration('dreams').update('qeVersion', '6.7', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('dreams').update('qeVersion', undefined, vscode.ConfigurationTarget.Global);
  });

  it("shows the validator's diagnostic on a wrong value, at its line and column", async () => {
    const doc = await openWrongInput();
    const diags = await until('diagnostics on al-wrong.pwi', () => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      return d.length ? d : undefined;
    });
    const bad = diags.find((d) => d.code === 'value-not-allowed');
    assert.ok(bad, `no value-not-allowed diagnostic in ${JSON.stringify(diags.map((d) => d.code))}`);
    assert.equal(bad.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(bad.range.start.line, 12);
    assert.equal(doc.getText(bad.range), "'mvv'");
    assert.match(bad.message, /smearing = 'mvv' is not a value pw\.x 6\.7 accepts/);
    assert.equal(bad.source, 'pw.x 6.7');
  });

  it("offers the validator's quick fix, and applying it clears the diagnostic", async () => {
    const doc = await openWrongInput();
    const bad = await until('the diagnostic', () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.code === 'value-not-allowed'));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      bad.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.title === "Change to 'm-v'");
    assert.ok(fix?.edit, `no quick fix in ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.lineAt(12).text, /smearing = 'm-v'/);
    await until('the diagnostic to clear', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'value-not-allowed'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('completes variables of the namelist at the cursor and allowed values after "="', async () => {
    const doc = await openWrongInput();
    const inSystem = new vscode.Position(14, 0); // the line after degauss, inside &SYSTEM
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, inSystem, '  ecutr\n');
    await vscode.workspace.applyEdit(edit);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(14, 7),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('ecutrho'), `ecutrho not offered: ${labels.slice(0, 20).join(', ')}`);
    assert.ok(!labels.includes('calculation'), '&CONTROL variables offered inside &SYSTEM');
    const values = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(11, 17),
    );
    const vlabels = values.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label)).join(' ');
    assert.match(vlabels, /smearing/, `occupations values: ${vlabels}`);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it("hovers a variable with its type, namelist and description from QE's own definitions", async () => {
    const doc = await openWrongInput();
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(9, 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    assert.match(text, /\*\*ntyp\*\*/);
    assert.match(text, /INTEGER/);
    assert.match(text, /number of types of atoms/);
  });
});
