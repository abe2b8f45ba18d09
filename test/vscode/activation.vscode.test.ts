import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'dreams-dft.dreams-vscode';
const workspace = () => vscode.workspace.workspaceFolders![0]!.uri;

describe('extension in real VS Code', () => {
  it('runs in a real VS Code (1.100.3 under code-server), not a stub', () => {
    const expected = process.env.DREAMS_EXPECT_VSCODE_VERSION;
    if (expected) assert.equal(vscode.version, expected);
    const [major, minor] = vscode.version.split('.').map(Number);
    assert.ok(major === 1 && minor! >= 100, `VS Code ${vscode.version} is older than the engine's 1.100`);
    assert.equal(typeof vscode.env.sessionId, 'string');
    assert.ok(vscode.env.sessionId.length > 8, 'a stub has no session id');
  });

  it('activates and reports its activation time', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
    const api = (await ext.activate()) as { activationMs: number };
    assert.ok(ext.isActive);
    assert.equal(typeof api.activationMs, 'number');
  });

  it('opens a .dreams file as a dreams-canvas notebook through its serializer', async () => {
    const uri = vscode.Uri.joinPath(workspace(), 'al-lattice.dreams');
    const nb = await vscode.workspace.openNotebookDocument(uri);
    assert.equal(nb.notebookType, 'dreams-canvas');
    assert.equal(nb.cellCount, 2);
    const [objective, artifact] = [nb.cellAt(0), nb.cellAt(1)];
    assert.equal(objective.document.getText(), 'Compute the lattice constant of fcc Al with PBE.');
    assert.equal(objective.metadata.dreams.kind, 'objective');
    assert.equal(artifact.metadata.dreams.id, 'artifacts/a-1');
    const item = artifact.outputs[0]!.items[0]!;
    assert.equal(item.mime, 'application/vnd.dreams.artifact+json');
    const value = JSON.parse(new TextDecoder().decode(item.data));
    assert.equal(value.value, 4.04);
    assert.equal(value.unit, 'Å', 'non-ASCII units survive deserialization');
  });

  it('refuses to open a broken .dreams file, saying where it is broken, and leaves it untouched', async () => {
    const uri = vscode.Uri.joinPath(workspace(), 'broken.dreams');
    const before = await vscode.workspace.fs.readFile(uri);
    await assert.rejects(Promise.resolve(vscode.workspace.openNotebookDocument(uri)), /not valid JSON \(line 1/);
    const after = await vscode.workspace.fs.readFile(uri);
    assert.deepEqual(after, before);
    assert.equal(path.basename(uri.path), 'broken.dreams');
  });
});
