// An outside agent stops the run it drives while a step waits for its call, and resumes it
// (the SDK's client over the in-memory transport, an offline EMT adsorption search): the
// step that waited is not failed by the stop, the resumed run offers it again and completes
// once the agent makes the remaining calls, as a stopped `dreams run` resumes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StepView } from '../../../src/mcp/drivenRun';
import { DreamsMcpServer } from '../../../src/mcp/server';

/** One O relaxation on a small generated Pt(111) with EMT: a run that stops and resumes in a second. */
const SEARCH = {
  workflow: 'adsorption-search',
  inputs: {
    slab: { generate: { metal: 'Pt', facet: 'fcc111', size: [2, 2], layers: 3 } },
    adsorbate: 'O',
    calculator: { kind: 'emt' },
    maxRelaxations: 1,
  },
};

const text = (r: CallToolResult) => r.content.map((c) => (c as { text?: string }).text ?? '').join('\n');

describe('dreams mcp: a run stopped while a step waits for the agent', function () {
  this.timeout(120_000);
  let dir: string;
  let server: DreamsMcpServer;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-stop-'));
    server = new DreamsMcpServer({
      runsDir: path.join(dir, 'runs'),
      workspace: dir,
      readOnly: false,
      version: 'test',
      session: {},
      defaults: { pseudoDir: '/usr/share/espresso/pseudo', pwCommand: 'pw.x', localConcurrency: 1 },
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'stopping-agent', version: '0.2' });
    await client.connect(b);
  });
  after(async () => {
    await client?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the waiting step to do, and the resumed run offers it again and completes', async () => {
    const started = await call('dreams_start_run', { objective: SEARCH });
    assert.ok(!started.isError, text(started));
    const first = (started.structuredContent as { steps: StepView[] }).steps.find((s) => s.waiting);
    assert.ok(first, text(started));

    const stopped = await call('dreams_stop_run', { reason: 'a break' });
    assert.match(text(stopped), /stopped: a break; dreams_resume_run continues it/);
    const plan = (await call('dreams_canvas_read', { key: 'plan' })).structuredContent as {
      value: { steps: { id: string; status: string }[] };
    };
    const status = plan.value.steps.find((s) => s.id === first.id)?.status;
    assert.notEqual(status, 'failed', `step ${first.id} was failed by the stop`);

    const resumed = await call('dreams_resume_run', { run: 'latest' });
    assert.ok(!resumed.isError, text(resumed));
    const made: string[] = [];
    let state = '';
    for (let turn = 0; turn < 100; turn++) {
      const s = (await call('dreams_status')).structuredContent as { state: string; steps: StepView[] };
      state = s.state;
      if (['completed', 'failed', 'stopped', 'cancelled'].includes(state)) break;
      const step = s.steps.find((x) => x.waiting);
      if (!step) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const r = await call(step.tool, { ...step.plannedCalls[0], step: step.id });
      assert.ok(!r.isError, `${step.id} ${step.tool}: ${text(r)}`);
      made.push(step.id);
    }
    assert.equal(made[0], first.id, `the resumed run offers step ${first.id} first (made: ${made.join(', ')})`);
    // the resume's settings change (the client as the run's workers) is the client's, not the user's
    const runId = (started.structuredContent as { run: string }).run;
    const change = fs
      .readFileSync(path.join(dir, 'runs', runId, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; actor: { kind: string; model?: string } })
      .find((e) => e.kind === 'run.settings');
    assert.deepEqual([change?.actor.kind, change?.actor.model], ['agent', 'mcp:stopping-agent@0.2']);
    assert.equal(state, 'completed', `made: ${made.join(', ')}\n${text(await call('dreams_status'))}`);
  });

  it('stopped without a reason, says who stopped it: the client by name and version', async () => {
    const started = await call('dreams_start_run', { objective: SEARCH });
    assert.ok(!started.isError, text(started));
    const stopped = await call('dreams_stop_run', {});
    assert.match(text(stopped), /stopped: stopped by mcp:stopping-agent@0\.2; dreams_resume_run continues it/);
  });
});
