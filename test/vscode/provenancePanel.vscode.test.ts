import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { recordScalar, runWithCanvas, until, workbench } from './support/runs';

describe('provenance graph panel (real VS Code)', () => {
  it('renders the run\'s calls and artifacts in a webview with a strict, nonce-based CSP and narrow resource roots', async () => {
    const { run, logPath } = await runWithCanvas('graph', 'EOS of Al');
    const wb = await workbench();
    const a1 = await recordScalar(run, 'run_pw', 'total_energy', -57.1, 'eV');
    const call = await run.registry.recordCall({ tool: 'fit_eos', args: { energies: { value: -57.1, ref: a1 } }, reasons: {}, context: 't', verdicts: [], agent: { role: 'dft' } });
    await run.registry.registerArtifacts(call.id, [{ kind: 'scalar', name: 'v0', value: 16.5, unit: 'Å^3' }]);
    await run.registry.endCall(call.id, { status: 'ok' });
    const panel = await wb.provenance.show(logPath);
    const rendered = panel.lastRendered ?? await new Promise<{ nodes: number; edges: number; layout: string }>((r) => panel.renderedEmitter.event(r));
    assert.equal(rendered.nodes, 4, 'two calls and two artifacts');
    assert.equal(rendered.edges, 3, 'create, input, create');
    const html = panel.panel.webview.html;
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]{16,}'/);
    assert.doesNotMatch(csp, /unsafe-(inline|eval)/);
    const nonce = /nonce-([^']+)'/.exec(csp)![1];
    assert.ok(html.includes(`<script nonce="${nonce}"`), 'the script carries the nonce');
    const roots = panel.panel.webview.options.localResourceRoots!.map((u) => u.fsPath);
    const ext = vscode.extensions.getExtension('dreams-dft.dreams-vscode')!.extensionUri.fsPath;
    assert.deepEqual(roots.sort(), [path.join(ext, 'dist', 'webview'), path.join(ext, 'media')].sort());
    // live: a new artifact re-renders the graph
    await recordScalar(run, 'run_pw', 'total_energy', -57.2, 'eV');
    await until('the re-render with 6 nodes', async () => panel.lastRendered?.nodes === 6, 20_000);
    panel.panel.dispose();
    await run.close();
  });
});
