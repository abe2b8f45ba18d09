import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { recordScalar, runWithCanvas, until, workbench } from './support/runs';

describe('provenance graph panel (real VS Code)', () => {
  it("renders the run's calls and artifacts in a webview with a strict, nonce-based CSP and narrow resource roots", async () => {
    const { run, logPath } = await runWithCanvas('graph', 'EOS of Al');
    const wb = await workbench();
    const a1 = await recordScalar(run, 'run_pw', 'total_energy', -57.1, 'eV');
    const call = await run.registry.recordCall({
      tool: 'fit_eos',
      args: { energies: { value: -57.1, ref: a1 } },
      reasons: {},
      context: 't',
      verdicts: [],
      agent: { role: 'dft' },
    });
    await run.registry.registerArtifacts(call.id, [{ kind: 'scalar', name: 'v0', value: 16.5, unit: 'Å^3' }]);
    await run.registry.endCall(call.id, { status: 'ok' });
    const panel = await wb.provenance.show(logPath);
    const rendered =
      panel.lastRendered ?? (await new Promise<{ nodes: number; edges: number; layout: string }>((r) => panel.renderedEmitter.event(r)));
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

  it('restores a panel from the state its page saved (the path VS Code takes after a restart)', async () => {
    const { run, logPath } = await runWithCanvas('restore', 'EOS of Cu');
    const wb = await workbench();
    await recordScalar(run, 'run_pw', 'total_energy', -101.2, 'eV');
    const state = {
      log: vscode.Uri.file(logPath).toString(),
      scope: { kind: 'upstream' as const, of: 'a-1' },
      filters: { stale: true, warned: false, failed: false },
    };
    const bare = vscode.window.createWebviewPanel('dreams.provenance', 'Provenance', vscode.ViewColumn.Beside, { enableScripts: true });
    await wb.provenance.deserializeWebviewPanel(bare, state);
    const panel = wb.provenance.panelOf(logPath)!;
    assert.ok(panel, 'the restored panel is not registered for its run');
    const rendered = panel.lastRendered ?? (await new Promise<{ nodes: number }>((r) => panel.renderedEmitter.event(r)));
    assert.equal(rendered.nodes, 2, 'the upstream scope of a-1: its creator and itself');
    assert.equal(bare.title, 'Provenance: upstream of a-1');
    bare.dispose();
    // a state pointing at a run that is gone says so instead of failing silently
    const gone = vscode.window.createWebviewPanel('dreams.provenance', 'Provenance', vscode.ViewColumn.Beside, { enableScripts: true });
    await wb.provenance.deserializeWebviewPanel(gone, {
      ...state,
      log: vscode.Uri.file(path.join(path.dirname(logPath), 'missing.jsonl')).toString(),
    });
    assert.match(gone.webview.html, /is no longer there/);
    gone.dispose();
    await run.close();
  });
});
