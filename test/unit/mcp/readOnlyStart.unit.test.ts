// `dreams mcp` at start: a server with the acting tools asks the local pw.x its version (to record
// it with the runs it starts); a read-only server starts no run, so it does not run pw.x at all
// (that probe may take up to 20 s). The pw.x here is a script that notes each time it is run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(__dirname, '../../..');

describe('dreams mcp at start', function () {
  this.timeout(120_000);
  let dir: string;
  let pw: string;
  let calls: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-start-'));
    calls = path.join(dir, 'pw-calls');
    pw = path.join(dir, 'pw.x');
    fs.writeFileSync(pw, `#!/bin/sh\necho run >> "${calls}"\necho "     Program PWSCF v.6.7MaX starts on  5Dec2026 at  0: 0: 0"\n`, {
      mode: 0o755,
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Starts the CLI's source as VS Code starts the server, lists its tools, closes it; the tool names. */
  async function startAndList(extra: string[]): Promise<string[]> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        path.join(root, 'node_modules/tsx/dist/loader.mjs'),
        path.join(root, 'src/cli/main.ts'),
        'mcp',
        '--runs-dir',
        path.join(dir, 'runs'),
        '--workspace',
        dir,
        '--pw-command',
        pw,
        ...extra,
      ],
      cwd: dir,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'start-test', version: '1' });
    try {
      await client.connect(transport);
      return (await client.listTools()).tools.map((t) => t.name);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${stderr}`);
    } finally {
      await client.close();
    }
  }

  it('with the acting tools, runs the configured pw.x once to learn its version', async () => {
    fs.rmSync(calls, { force: true });
    const names = await startAndList([]);
    assert.ok(names.includes('dreams_start_run'));
    assert.equal(fs.readFileSync(calls, 'utf8'), 'run\n');
  });

  it('takes --local-jobs auto, as dreams run does', async () => {
    const names = await startAndList(['--local-jobs', 'auto']);
    assert.ok(names.includes('dreams_start_run'), names.join(', '));
  });

  it('read-only, does not run pw.x', async () => {
    fs.rmSync(calls, { force: true });
    const names = await startAndList(['--read-only']);
    assert.ok(names.includes('dreams_runs') && !names.includes('dreams_start_run'), names.join(', '));
    assert.equal(fs.existsSync(calls), false, 'pw.x was run by a read-only server');
  });
});
