// The `.vscode/mcp.json` entry the README documents, started as VS Code starts it: the JSONC
// block of "Use DREAMS from any agent (MCP)" is parsed, its ${workspaceFolder} and ${input:...}
// variables resolved, and its command, arguments and environment run from the workspace folder
// (cwd) by the MCP SDK's StdioClientTransport, with `dreams` on PATH as an installed CLI puts it
// there. The client lists the tools and reads a finished run in the workspace's runs directory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { RunController } from '../../../src/core/run/controller';
import { emtSearchSettings } from '../core/workflows/support/adsorptionSearch';

const root = path.resolve(__dirname, '../../..');
const text = (r: CallToolResult) => r.content.map((c) => (c as { text?: string }).text ?? '').join('\n');

interface McpJson {
  inputs?: { type: string; id: string; password?: boolean }[];
  servers: Record<string, { type: string; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }>;
}

/** The first ```jsonc block of a README section. */
function readmeBlock(heading: string): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has a section "${heading}"`);
  const end = readme.indexOf('\n## ', start + heading.length + 1);
  const m = /```jsonc\n([\s\S]*?)\n```/.exec(readme.slice(start, end < 0 ? undefined : end));
  assert.ok(m, `a \`\`\`jsonc block in "${heading}"`);
  return m[1]!;
}

/** ${workspaceFolder} and ${input:id} as VS Code resolves them in a workspace's mcp.json. */
function resolveVariables(value: string, workspace: string, inputs: Record<string, string>): string {
  return value.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'workspaceFolder') return workspace;
    if (name.startsWith('input:')) {
      const v = inputs[name.slice('input:'.length)];
      assert.ok(v !== undefined, `\${${name}} names an input the file declares`);
      return v;
    }
    throw new Error(`a variable this test does not resolve: \${${name}}`);
  });
}

describe('the .vscode/mcp.json entry the README documents', function () {
  this.timeout(120_000);
  let workspace: string;
  let bin: string;
  let runId: string;

  before(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-json-'));
    const c = await RunController.start({
      runsDir: path.join(workspace, 'runs'),
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [2, 2], layers: 3 } }, adsorbate: 'O', maxRelaxations: 1 }),
    });
    await c.run();
    runId = c.runId;
    await c.close();
    // `dreams` on PATH, as `npm install -g` of the CLI puts it there (here: the CLI's source through tsx).
    bin = path.join(workspace, '.bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'dreams'),
      `#!/bin/sh\nexec "${process.execPath}" --import "${path.join(root, 'node_modules/tsx/dist/loader.mjs')}" "${path.join(root, 'src/cli/main.ts')}" "$@"\n`,
      { mode: 0o755 },
    );
  });
  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it('is valid JSONC whose server, started as VS Code starts it, lists the DREAMS tools and reads a run of the workspace', async () => {
    const errors: ParseError[] = [];
    const doc = parseJsonc(readmeBlock('## Use DREAMS from any agent (MCP)'), errors, { allowTrailingComma: true }) as McpJson;
    assert.deepEqual(
      errors.map((e) => printParseErrorCode(e.error)),
      [],
      'the snippet parses as VS Code reads mcp.json',
    );
    const entry = doc.servers.dreams;
    assert.ok(entry, 'a "dreams" server');
    assert.equal(entry.type, 'stdio');
    const inputs = Object.fromEntries((doc.inputs ?? []).map((i) => [i.id, 'sk-ant-test-mcp-json-0000']));
    const resolve = (v: string) => resolveVariables(v, workspace, inputs);
    const transport = new StdioClientTransport({
      command: resolve(entry.command),
      args: (entry.args ?? []).map(resolve),
      cwd: entry.cwd ? resolve(entry.cwd) : workspace,
      env: {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        ...Object.fromEntries(Object.entries(entry.env ?? {}).map(([k, v]) => [k, resolve(v)])),
      } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'vscode-mcp-json', version: '1.100.3' });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'dreams');
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const t of [
        'dreams_workflows',
        'dreams_start_run',
        'dreams_status',
        'dreams_canvas_read',
        'dreams_answer_approval',
        'dreams_report',
      ])
        assert.ok(names.includes(t), `${t} offered (${names.join(', ')})`);
      const runs = (await client.callTool({ name: 'dreams_runs', arguments: {} })) as CallToolResult;
      assert.match(text(runs), new RegExp(`${runId}\\s+completed`), `the server is bound to \${workspaceFolder}/runs\n${stderr}`);
      const report = (await client.callTool({ name: 'dreams_report', arguments: { run: runId } })) as CallToolResult;
      assert.ok(!report.isError, text(report));
      assert.match(text(report), /Report judge: accepted/);
      const { resources } = await client.listResources();
      assert.ok(resources.some((r) => r.uri === `dreams://runs/${runId}/provenance.json`));
    } finally {
      await client.close();
    }
    assert.match(stderr, new RegExp(`serving ${path.join(workspace, 'runs').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on stdio`));
  });
});
