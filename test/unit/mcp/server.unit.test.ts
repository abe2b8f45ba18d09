// The MCP server in process (the SDK's client over its in-memory transport), on a finished
// offline run copied into a runs directory: a read-only server offers only the reading
// tools and refuses the acting ones with why; a run is named by id, never by a path; an
// objective file outside the workspace and an i-PI command the user's calculators file does
// not list are refused before anything starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { allowedCalculatorCommands } from '../../../src/core/calculators/ipi/allowedCommands';
import { DreamsMcpServer } from '../../../src/mcp/server';
import { RunController } from '../../../src/core/run/controller';
import type { SessionEnvironment } from '../../../src/core/run/session';
import { emtSearchSettings } from '../core/workflows/support/adsorptionSearch';

const text = (r: CallToolResult) => r.content.map((c) => (c as { text?: string }).text ?? '').join('\n');

async function connect(
  runsDir: string,
  readOnly: boolean,
  session: SessionEnvironment = {},
): Promise<{ client: Client; server: DreamsMcpServer }> {
  const server = new DreamsMcpServer({
    runsDir,
    workspace: path.dirname(runsDir),
    readOnly,
    version: 'test',
    session,
    defaults: { pseudoDir: '/usr/share/espresso/pseudo', pwCommand: 'pw.x', localConcurrency: 1 },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit-agent', version: '0.1' });
  await client.connect(b);
  return { client, server };
}

/** A server and a client connected to it for `fn`, both closed after it, whatever it throws. */
async function withServer<T>(
  opts: { runsDir: string; readOnly: boolean; session?: SessionEnvironment },
  fn: (client: Client, server: DreamsMcpServer) => Promise<T>,
): Promise<T> {
  const { client, server } = await connect(opts.runsDir, opts.readOnly, opts.session);
  try {
    return await fn(client, server);
  } finally {
    await client.close();
    await server.close();
  }
}

describe('dreams mcp server (in process)', function () {
  this.timeout(120_000);
  let dir: string;
  let runsDir: string;
  let runId: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-unit-'));
    runsDir = path.join(dir, 'runs');
    const c = await RunController.start({
      runsDir,
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [2, 2], layers: 3 } }, adsorbate: 'O', maxRelaxations: 1 }),
    });
    await c.run();
    runId = c.runId;
    await c.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** dreams_start_run with `args`, which must be refused before a run directory is made: the refusal. */
  async function refusedStart(client: Client, args: Record<string, unknown>): Promise<string> {
    const before = fs.readdirSync(runsDir).length;
    const r = (await client.callTool({ name: 'dreams_start_run', arguments: args })) as CallToolResult;
    assert.ok(r.isError, text(r));
    assert.equal(fs.readdirSync(runsDir).length, before, 'no run directory was made');
    return text(r);
  }

  it('read-only: offers only the reading tools, reads the run, and refuses to start one, saying why', async () => {
    await withServer({ runsDir, readOnly: true }, async (client) => {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      assert.deepEqual(names, [
        'dreams_approvals',
        'dreams_canvas_inspect',
        'dreams_canvas_read',
        'dreams_jobs',
        'dreams_report',
        'dreams_runs',
        'dreams_status',
        'dreams_workflows',
      ]);
      const runs = (await client.callTool({ name: 'dreams_runs', arguments: {} })) as CallToolResult;
      assert.match(text(runs), new RegExp(`${runId}\\s+completed`));
      const report = (await client.callTool({ name: 'dreams_report', arguments: { run: runId } })) as CallToolResult;
      assert.match(text(report), /Report judge: accepted/);
      const start = (await client.callTool({
        name: 'dreams_start_run',
        arguments: { objective: { workflow: 'lattice-constant', inputs: {} } },
      })) as CallToolResult;
      assert.ok(start.isError);
      assert.match(text(start), /not offered: this server is read-only \(an untrusted workspace\)/);
    });
  });

  it('names runs by id only: a path is refused, and so is an objective file outside the workspace', async () => {
    await withServer({ runsDir, readOnly: false }, async (client) => {
      const byPath = (await client.callTool({
        name: 'dreams_canvas_read',
        arguments: { run: `../runs/${runId}`, key: 'plan' },
      })) as CallToolResult;
      assert.ok(byPath.isError);
      assert.match(text(byPath), /is a path; name a run by its id/);
      assert.match(await refusedStart(client, { objectiveFile: '../../elsewhere/objective.yaml' }), /outside the workspace/);
    });
  });

  it('refuses an objective file reached through a symbolic link in the workspace that leads outside it', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-elsewhere-'));
    fs.writeFileSync(
      path.join(elsewhere, 'objective.yaml'),
      'workflow: adsorption-search\ninputs:\n  slab: { generate: { metal: Pt } }\n  adsorbate: O\n  calculator: { kind: emt }\n',
    );
    fs.symlinkSync(elsewhere, path.join(dir, 'shared'));
    try {
      await withServer({ runsDir, readOnly: false }, async (client) => {
        assert.match(
          await refusedStart(client, { objectiveFile: 'shared/objective.yaml' }),
          /shared\/objective\.yaml is outside the workspace .*: a symbolic link on its way leads to /,
        );
      });
    } finally {
      fs.rmSync(path.join(dir, 'shared'));
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("reads the objective's run.pseudoDir and run.reuseFrom as dreams run does, inside the workspace only", async () => {
    fs.mkdirSync(path.join(dir, 'project-pseudo'), { recursive: true });
    const search = {
      workflow: 'adsorption-search',
      inputs: { slab: { generate: { metal: 'Pt', size: [2, 2], layers: 3 } }, adsorbate: 'O', calculator: { kind: 'emt' } },
    };
    await withServer({ runsDir, readOnly: false }, async (client) => {
      assert.match(
        await refusedStart(client, { objective: { ...search, run: { pseudoDir: '/usr/share/espresso/pseudo' } } }),
        /outside the workspace/,
      );
      assert.match(
        await refusedStart(client, { objective: search, cluster: 'bigiron' }),
        /no cluster profile named "bigiron" among the user's \(none configured\): give cluster as one of them/,
      );
      assert.match(
        await refusedStart(client, { objective: { ...search, run: { reuseFrom: ['project-pseudo'] } } }),
        /run\.reuseFrom: .*project-pseudo is not a DREAMS run/,
      );

      const r = (await client.callTool({
        name: 'dreams_start_run',
        arguments: { objective: { ...search, run: { pseudoDir: 'project-pseudo', reuseFrom: [`runs/${runId}`] } } },
      })) as CallToolResult;
      assert.ok(!r.isError, text(r));
      const id = (r.structuredContent as { run: string }).run;
      const first = JSON.parse(fs.readFileSync(path.join(runsDir, id, 'events.jsonl'), 'utf8').split('\n')[0]!) as {
        kind: string;
        payload: { settings: { pseudoDir: string; reuseFrom?: string[] } };
      };
      assert.equal(first.kind, 'run.start');
      assert.equal(first.payload.settings.pseudoDir, path.join(dir, 'project-pseudo'));
      assert.deepEqual(first.payload.settings.reuseFrom, [path.join(runsDir, runId)]);
      await client.callTool({ name: 'dreams_stop_run', arguments: {} });
    });
  });

  it('refuses an i-PI command the calculators file does not list, before any run starts (the check every route makes)', async () => {
    const saved = process.env.DREAMS_CALCULATORS;
    const calculators = path.join(dir, 'allowed-calculators.json');
    process.env.DREAMS_CALCULATORS = calculators;
    fs.writeFileSync(calculators, JSON.stringify({ ipi: [{ command: ['python3', 'allowed.py', 'ase.calculators.emt:EMT'] }] }));
    try {
      await withServer({ runsDir, readOnly: false }, async (client) => {
        const said = await refusedStart(client, {
          objective: {
            workflow: 'adsorption-search',
            inputs: {
              slab: { generate: { metal: 'Pt', latticeConstantAngstrom: 3.92 } },
              adsorbate: 'O',
              calculator: { kind: 'ipi', command: ['sh', '-c', 'anything'] },
            },
          },
        });
        assert.match(said, /i-PI client command \["sh","-c","anything"\], which is not in your calculators file/);
        assert.ok(said.includes(calculators), 'the message names the file');
      });
    } finally {
      if (saved === undefined) delete process.env.DREAMS_CALCULATORS;
      else process.env.DREAMS_CALCULATORS = saved;
    }
  });

  it("refuses an agent's judges: false: with a model key its calls are judged, as a worker's are", async () => {
    // a key and an address nothing answers: the run must be refused before any judge is asked
    await withServer({ runsDir, readOnly: false, session: { apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9' } }, async (client) => {
      const said = await refusedStart(client, {
        objective: {
          workflow: 'adsorption-search',
          inputs: { slab: { generate: { metal: 'Pt' } }, adsorbate: 'O', calculator: { kind: 'emt' } },
        },
        judges: false,
      });
      assert.match(said, /judges: false is refused/);
      const start = (await client.listTools()).tools.find((t) => t.name === 'dreams_start_run')!;
      assert.ok(!('judges' in (start.inputSchema.properties ?? {})), 'the start tool offers no judges switch');
    });
  });

  it("refuses an agent's auto-approve, as an argument or in its objective: it answers its own warnings, by name", async () => {
    await withServer({ runsDir, readOnly: false }, async (client) => {
      const objective = {
        workflow: 'adsorption-search',
        inputs: { slab: { generate: { metal: 'Pt' } }, adsorbate: 'O', calculator: { kind: 'emt' } },
      };
      for (const args of [{ objective, approval: 'auto-approve' }, { objective: { ...objective, run: { approval: 'auto-approve' } } }]) {
        assert.match(
          await refusedStart(client, args),
          /approval auto-approve is refused: .* Answer each with dreams_answer_approval \(recorded with your name and version/,
        );
      }
      const resumed = (await client.callTool({
        name: 'dreams_resume_run',
        arguments: { run: runId, approval: 'auto-approve' },
      })) as CallToolResult;
      assert.ok(resumed.isError, text(resumed));
    });
  });

  it("answers a resource that is not there with the protocol's not-found error, and a missing canvas key with its closest keys once", async () => {
    await withServer({ runsDir, readOnly: true }, async (client) => {
      for (const [uri, said] of [
        ['file:///etc/passwd', /no resource file:\/\/\/etc\/passwd/],
        ['dreams://runs/no-such-run/report.md', /no run "no-such-run" under /],
      ] as const) {
        await assert.rejects(client.readResource({ uri }), (e: Error & { code?: number }) => {
          assert.equal(e.code, -32002, e.message);
          assert.match(e.message, said);
          return true;
        });
      }
      const report = await client.readResource({ uri: `dreams://runs/${runId}/report.md` });
      assert.match((report.contents[0] as { text: string }).text, /^# /);
      const r = (await client.callTool({
        name: 'dreams_canvas_read',
        arguments: { run: runId, key: 'artifacts/a-999' },
      })) as CallToolResult;
      assert.ok(r.isError);
      assert.equal(text(r).match(/artifacts\/a-1\b/g)?.length, 1, text(r));
    });
  });

  it('reads the calculators file: the listed commands, or a clear error for a malformed one', () => {
    const file = path.join(dir, 'calculators.json');
    fs.writeFileSync(file, JSON.stringify({ ipi: [{ command: ['python3', 'c.py', 'ase.calculators.emt:EMT'] }] }));
    assert.deepEqual(allowedCalculatorCommands(file), [['python3', 'c.py', 'ase.calculators.emt:EMT']]);
    fs.writeFileSync(file, JSON.stringify({ ipi: [{ command: 'python3 c.py' }] }));
    assert.throws(() => allowedCalculatorCommands(file), /"ipi" must be a list of \{"command": \[program, arguments\.\.\.\]\}/);
    assert.deepEqual(allowedCalculatorCommands(path.join(dir, 'none.json')), []);
  });
});
