// `dreams mcp` offered to VS Code's own MCP support by the extension. On VS Code 1.101+ (run the
// tier on code-server 4.103.2: scripts/vscode-host/mcp-provider-proof.sh) VS Code starts the
// server the extension defines for the workspace folder (the shipped CLI, bound to <folder>/runs),
// lists its guarded tools among the language-model tools, and a tool invoked through VS Code reads
// the folder's runs. On the ordinary tier's VS Code 1.100.3, which has the API under an earlier
// contribution name and does not start the server from a test, the extension registers and
// activates (an earlier registration threw there and failed activation).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, until, workbench, workspaceDir } from './support/runs';

const hasApi = () =>
  typeof (vscode.lm as { registerMcpServerDefinitionProvider?: unknown }).registerMcpServerDefinitionProvider === 'function';
const textOf = (r: vscode.LanguageModelToolResult) =>
  r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');

describe("dreams mcp registered with VS Code's MCP support (real VS Code)", () => {
  it("registers without failing activation; on VS Code 1.101+ VS Code starts the folder's DREAMS server, lists its tools, and a tool invoked through VS Code reads the folder's runs", async function () {
    this.timeout(180_000);
    await workbench();
    const ws = workspaceDir();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.ok(ext.isActive);
    assert.ok(hasApi(), `VS Code ${vscode.version} has vscode.lm.registerMcpServerDefinitionProvider`);
    const contributes = ext.packageJSON.contributes as Record<string, unknown>;
    assert.deepEqual(
      [contributes.mcpServerDefinitionProviders, contributes.modelContextServerCollections],
      [[{ id: 'dreams.mcpServers', label: 'DREAMS' }], [{ id: 'dreams.mcpServers', label: 'DREAMS' }]],
    );
    const [major, minor] = vscode.version.split('.').map(Number) as [number, number];
    if (major === 1 && minor < 101) return; // 1.100: registered and active (checked above); starting it is checked on 1.101+
    assert.ok(vscode.workspace.isTrusted, 'the tier opens a trusted workspace');
    const folder = vscode.workspace.workspaceFolders![0]!;
    const id = `${EXTENSION_ID.toLowerCase()}/DREAMS (${folder.name})`;
    const runs = path.join(ws, 'runs');
    // VS Code asks the provider for its servers shortly after activation: start ours once it knows it.
    const dreamsTools = () => vscode.lm.tools.filter((x) => /^mcp_.*_dreams_[a-z_]+$/.test(x.name));
    await until(
      `VS Code to start the DREAMS server ${id}`,
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', id);
        return dreamsTools().length > 0;
      },
      60_000,
    );
    // VS Code launched `node dist/cli.js mcp --runs-dir <folder>/runs ...` (trusted: acting tools too), which makes its runs directory.
    const tools = await until(
      "all the server's tools among VS Code's language-model tools",
      () => (dreamsTools().length >= 13 ? dreamsTools() : undefined),
      30_000,
    );
    const names = tools.map((t) => t.name.replace(/^.*_(dreams_[a-z_]+)$/, '$1')).sort();
    assert.deepEqual(names, [
      'dreams_answer_approval',
      'dreams_approvals',
      'dreams_canvas_inspect',
      'dreams_canvas_read',
      'dreams_end_step',
      'dreams_jobs',
      'dreams_report',
      'dreams_resume_run',
      'dreams_runs',
      'dreams_start_run',
      'dreams_status',
      'dreams_stop_run',
      'dreams_workflows',
    ]);
    assert.ok(fs.existsSync(runs), `the server made the runs directory it is bound to, ${runs}`);
    // A tool invoked through VS Code reaches the server: dreams_runs reads the runs directory of this workspace folder.
    const runsTool = tools.find((t) => t.name.endsWith('_dreams_runs'))!;
    const result = await vscode.lm.invokeTool(runsTool.name, { input: {}, toolInvocationToken: undefined });
    // (VS Code 1.103 hands the model the tool's structured content when there is one, else its text)
    const answer = textOf(result);
    if (answer.startsWith('{')) assert.deepEqual(JSON.parse(answer), { runs: [] }, answer);
    else assert.equal(answer, `no runs under ${runs}`);
    await vscode.commands.executeCommand('workbench.mcp.stopServer', id);
  });
});
