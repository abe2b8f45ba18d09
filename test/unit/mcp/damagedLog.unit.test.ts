// The MCP server on a run whose log is damaged before its last line (one changed byte): every
// reading tool says what was damaged and where, as the CLI's commands do, and reads on from the
// events before it; report.md as a resource carries the notice, provenance.json is refused
// rather than given partial; resuming the run is refused; the log is left byte for byte.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DreamsMcpServer } from '../../../src/mcp/server';
import { RunController } from '../../../src/core/run/controller';
import { emtSearchSettings } from '../core/workflows/support/adsorptionSearch';

const text = (r: CallToolResult) => r.content.map((c) => (c as { text?: string }).text ?? '').join('\n');

async function connect(runsDir: string, readOnly: boolean): Promise<Client> {
  const server = new DreamsMcpServer({
    runsDir,
    workspace: path.dirname(runsDir),
    readOnly,
    version: 'test',
    session: {},
    defaults: { pseudoDir: '/usr/share/espresso/pseudo', pwCommand: 'pw.x', localConcurrency: 1 },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit-agent', version: '0.1' });
  await client.connect(b);
  return client;
}

describe('dreams mcp on a damaged run log', function () {
  this.timeout(120_000);
  let dir: string;
  let runsDir: string;
  let runId: string;
  let log: string;
  let damaged: Buffer;
  let line: number;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-damaged-'));
    runsDir = path.join(dir, 'runs');
    const c = await RunController.start({
      runsDir,
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [2, 2], layers: 3 } }, adsorbate: 'O', maxRelaxations: 1 }),
    });
    const result = await c.run();
    assert.equal(result.state, 'completed', result.reason);
    runId = c.runId;
    await c.close();
    log = path.join(runsDir, runId, 'events.jsonl');
    const lines = fs.readFileSync(log, 'utf8').split(/(?<=\n)/);
    line = Math.floor(lines.length / 2);
    lines[line - 1] = lines[line - 1]!.replace('"kind":"', '"kind":"x');
    fs.writeFileSync(log, lines.join(''));
    damaged = fs.readFileSync(log);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every reading tool names the damaged line and reads on from the events before it; nothing is changed', async () => {
    const client = await connect(runsDir, true);
    try {
      const names = new RegExp(`events\\.jsonl is damaged at line ${line} \\(byte \\d+`);
      for (const [name, args] of [
        ['dreams_runs', {}],
        ['dreams_status', { run: runId }],
        ['dreams_report', { run: runId }],
        ['dreams_jobs', { run: runId }],
        ['dreams_approvals', { run: runId }],
        ['dreams_canvas_inspect', { run: runId }],
      ] as const) {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        assert.match(text(r), names, `${name} did not name the damage:\n${text(r)}`);
        assert.match(text(r), /not read/, `${name}: ${text(r)}`);
      }
      const report = await client.readResource({ uri: `dreams://runs/${runId}/report.md` });
      assert.match((report.contents[0] as { text: string }).text, new RegExp(`^> \\*\\*.*damaged at line ${line} `));
      await assert.rejects(client.readResource({ uri: `dreams://runs/${runId}/provenance.json` }), (e: Error) => {
        assert.match(e.message, names);
        assert.match(e.message, /provenance/);
        return true;
      });
      assert.deepEqual(fs.readFileSync(log), damaged, 'the log is byte for byte as it was');
    } finally {
      await client.close();
    }
  });

  it('resuming the run is refused with the damage named, and the log is not cut', async () => {
    const client = await connect(runsDir, false);
    try {
      const r = (await client.callTool({ name: 'dreams_resume_run', arguments: { run: runId } })) as CallToolResult;
      assert.ok(r.isError, text(r));
      assert.match(text(r), new RegExp(`damaged at line ${line}\\b.*Nothing was changed.*--cut-damaged`, 's'), text(r));
      assert.deepEqual(fs.readFileSync(log), damaged, 'the log is byte for byte as it was');
      assert.deepEqual(
        fs.readdirSync(path.join(runsDir, runId)).filter((f) => f.startsWith('events.damaged-')),
        [],
        'no copy made, nothing cut',
      );
    } finally {
      await client.close();
    }
  });
});
