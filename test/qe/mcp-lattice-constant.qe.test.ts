// `dreams mcp` driven by the MCP SDK's own client over stdio, as an outside agent would: it
// starts the lattice-constant study of fcc Al (lean settings, real pw.x), reads each running
// step's planned call from dreams_status and makes it through the step's guarded tool. One
// call is deliberately wrong (an ecutwfc that is not the value its reference holds) and is
// refused with the guard's reason; the judges (the real Anthropic SDK against the scripted
// fake API on loopback) warn on the EOS fit's form, and that call's approval is answered through
// dreams_answer_approval, recorded with the client's name. The report judge accepts the
// report, and the run's notebook is written like any other run's. 23 pw.x SCFs at
// 24-36 Ry: about 1 min here (2 min on a loaded machine).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseCanvasFile } from '../../src/core/canvas/canvasFile';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ArtifactRecord, ToolCallRecord } from '../../src/core/provenance/types';
import type { StepView } from '../../src/mcp/drivenRun';
import { FakeAnthropicApi } from '../fixtures/fake-anthropic/server';
import { passingJudges } from '../fixtures/agents/passingJudges';
import { freshDir, leanAlObjective, PSEUDO_DIR, TEST_KEY } from '../fixtures/agents/scriptedLattice';

const root = path.resolve(__dirname, '../..');
const CLIENT = { name: 'mcp-proof-agent', version: '1.2.3' };
// The fit's form is asked of the judge once (an earlier call's passed verdict is not reused for it).
const WARNING = {
  step: 'eos-fit',
  tool: 'fit_eos',
  parameter: 'form',
  reasons: ['Five points over ±5 % decide little between forms: check that a Vinet fit gives the same V0.'],
};

const text = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

describe('dreams mcp: an outside agent works the fcc Al lattice-constant study through the SDK client over stdio', function () {
  this.timeout(600_000);
  let dir: string;
  let api: FakeAnthropicApi;
  let client: Client;
  let stderr = '';
  let runId: string;
  let refused: CallToolResult | undefined;
  let warned: CallToolResult | undefined;
  let answered: CallToolResult | undefined;
  const made: string[] = [];
  let report: CallToolResult;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const runDir = () => path.join(dir, 'runs', runId);
  const events = () =>
    fs
      .readFileSync(path.join(runDir(), 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CanvasEvent);

  before(async () => {
    dir = freshDir('dreams-mcp-');
    api = await FakeAnthropicApi.start({ apiKey: TEST_KEY, answer: passingJudges([WARNING]) });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        path.join(root, 'src/cli/main.ts'),
        'mcp',
        '--runs-dir',
        path.join(dir, 'runs'),
        '--workspace',
        dir,
        '--pseudo-dir',
        PSEUDO_DIR,
      ],
      cwd: root,
      env: { ...process.env, ANTHROPIC_API_KEY: TEST_KEY, ANTHROPIC_BASE_URL: api.baseURL } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += d));
    client = new Client(CLIENT);
    await client.connect(transport);

    const o = leanAlObjective();
    const started = await call('dreams_start_run', {
      objective: { workflow: o.workflow, objective: o.text, inputs: o.inputs },
      parallelJobs: 1,
    });
    assert.ok(!started.isError, text(started) + stderr);
    runId = (started.structuredContent as { run: string }).run;

    // The agent's loop: read the running steps, make the first waiting step's next planned call.
    for (let turn = 0; turn < 200; turn++) {
      const status = await call('dreams_status');
      const { state, steps } = status.structuredContent as { state: string; steps: StepView[] };
      if (!steps.some((s) => s.waiting)) {
        if (['completed', 'failed', 'stopped', 'cancelled'].includes(state)) break;
        await new Promise((r) => setTimeout(r, 300));
        continue;
      }
      const step = steps.find((s) => s.waiting)!;
      const planned = step.plannedCalls[0];
      assert.ok(planned, `step ${step.id} waits but has no planned call: ${step.problem}\n${text(status)}`);
      if (step.id === 'eos-input' && !refused) {
        // the wrong call: an ecutwfc below every tested cutoff, with the reference to the chosen one kept
        assert.match(String(planned.references.ecutwfcRy ?? planned.arguments.ecutwfcRy), /^a-\d+\.chosen\.ecutwfcRy$/);
        const wrong = {
          ...planned,
          arguments: { ...planned.arguments, ecutwfcRy: 20 },
          references: { ...planned.references, ecutwfcRy: String(planned.references.ecutwfcRy ?? planned.arguments.ecutwfcRy) },
        };
        refused = await call(step.tool, { ...wrong, step: step.id });
        continue;
      }
      const r = await call(step.tool, { ...planned, step: step.id });
      assert.ok(!r.isError, `${step.id} ${step.tool}: ${text(r)}`);
      made.push(`${step.id}:${step.tool}`);
      const approval = (r.structuredContent as { approval?: { id: string } } | undefined)?.approval;
      if (approval) {
        assert.equal(step.id, 'eos-fit', `only the judge's warning on the fit: ${text(r)}`);
        warned = r;
        answered = await call('dreams_answer_approval', {
          id: approval.id,
          decision: 'approve',
          comment: 'checked: a Vinet fit of the same five energies gives the same V0 to 0.01 Å³',
        });
      }
    }
    report = await call('dreams_report');
  });

  after(async () => {
    await client?.close();
    await api?.stop();
  });

  it('offers the reading and acting tools, and the workflows with their input schemas', async () => {
    const { tools } = await client.listTools();
    for (const t of [
      'dreams_workflows',
      'dreams_start_run',
      'dreams_status',
      'dreams_canvas_read',
      'dreams_approvals',
      'dreams_answer_approval',
      'dreams_jobs',
      'dreams_report',
    ]) {
      assert.ok(
        tools.some((x) => x.name === t),
        `${t} offered`,
      );
    }
    const wf = (await call('dreams_workflows')).structuredContent as {
      workflows: { id: string; inputSchema: { properties?: Record<string, unknown> } }[];
    };
    const lattice = wf.workflows.find((w) => w.id === 'lattice-constant');
    assert.ok(lattice?.inputSchema.properties?.element, 'the lattice-constant workflow with its input schema');
  });

  it("makes every step's call through its guarded tool, in the template's order, and the run completes", () => {
    const steps = made.filter((m, i) => m !== made[i - 1]);
    assert.deepEqual(steps, [
      'structure:build_bulk',
      'pseudopotentials:select_pseudopotentials',
      'cutoff-input:make_pw_input',
      'cutoff-series:generate_series',
      'cutoff-runs:run_pw',
      'cutoff-choice:select_converged_settings',
      'k-input:make_pw_input',
      'k-series:generate_series',
      'k-runs:run_pw',
      'k-choice:select_converged_settings',
      'eos-input:make_pw_input',
      'eos-series:generate_series',
      'eos-runs:run_pw',
      'eos-fit:fit_eos',
      'lattice:lattice_constant_from_volume',
      'report:write_report',
    ]);
    const last = [...events()].reverse().find((e) => e.kind === 'run.state')!.payload as { state: string };
    assert.equal(last.state, 'completed', stderr);
  });

  it("returns the guard's reason for the wrong call as a tool error, and records the refusal", () => {
    assert.ok(refused?.isError, 'the wrong call is a tool error');
    assert.match(text(refused!), /refused by the guard/);
    assert.match(text(refused!), /ecutwfcRy/);
    assert.match(
      text(refused!),
      /\[reference-values-match · ecutwfcRy\] ecutwfcRy = 20 but its reference a-\d+\.chosen\.ecutwfcRy records \d+/,
    );
    const ends = events()
      .filter((e) => e.kind === 'provenance.call.end')
      .map((e) => e.payload as { id: string; status: string });
    const refusedIds = ends.filter((e) => e.status === 'refused').map((e) => e.id);
    assert.equal(refusedIds.length, 1);
    const call = events().find((e) => e.kind === 'provenance.call' && e.key === `calls/${refusedIds[0]}`)!.payload as ToolCallRecord;
    assert.deepEqual([call.step, call.args.ecutwfcRy?.value], ['eos-input', 20]);
  });

  it("returns the warned call's result with the judge's concern, and records the client's approval as its answer", () => {
    assert.ok(warned, 'a call was warned');
    assert.match(text(warned!), /The guard warned \(approval ap-\d+/);
    assert.match(text(warned!), /\[param-judge@\d+ · form\] Five points over ±5 % decide little between forms/);
    assert.equal(
      (warned!.structuredContent as { call: string }).call,
      events()
        .filter((e) => e.kind === 'provenance.call')
        .find((e) => (e.payload as ToolCallRecord).tool === 'fit_eos')!
        .key!.slice('calls/'.length),
    );
    assert.match(text(answered!), /approved by mcp:mcp-proof-agent@1\.2\.3/);
    const answer = events().find((e) => e.kind === 'approval.answer')!.payload as { decision: string; by: string };
    assert.deepEqual([answer.decision, answer.by], ['approve', 'mcp:mcp-proof-agent@1.2.3']);
  });

  it('records every call of the outside agent with its name and version', () => {
    const calls = events()
      .filter((e) => e.kind === 'provenance.call')
      .map((e) => e.payload as ToolCallRecord);
    const agents = calls.filter((c) => c.agent.role === 'dft' || c.agent.role === 'hpc');
    assert.ok(agents.length >= 15, `${agents.length} calls of the workers`);
    for (const c of agents) assert.equal(c.agent.model, 'mcp:mcp-proof-agent@1.2.3', `${c.id} ${c.tool}`);
    const actors = events().filter((e) => e.kind === 'provenance.call' && e.actor.kind === 'agent');
    assert.ok(actors.every((e) => e.actor.model === 'mcp:mcp-proof-agent@1.2.3'));
  });

  it('ends with the report the report judge accepted, read through dreams_report', () => {
    assert.ok(!report.isError, text(report));
    const verdict = (report.structuredContent as { verdict?: { accepted: boolean } }).verdict;
    assert.equal(verdict?.accepted, true, text(report).slice(0, 2000));
    const a = events()
      .filter((e) => e.kind === 'provenance.artifact')
      .map((e) => e.payload as ArtifactRecord)
      .filter((x) => x.name === 'lattice_constant')
      .at(-1)!;
    assert.ok((a.value as number) > 3.9 && (a.value as number) < 4.1, `a = ${a.value} Å`);
    assert.match(text(report), new RegExp(`${a.id}`));
  });

  it("writes the run's notebook, which opens like any other run's", () => {
    const file = parseCanvasFile(fs.readFileSync(path.join(runDir(), 'canvas.dreams'), 'utf8'));
    assert.equal(file.run?.id, runId);
    assert.ok(fs.existsSync(path.join(runDir(), file.run!.log)), "the notebook names the run's event log");
    assert.ok(fs.existsSync(path.join(runDir(), 'report.md')) && fs.existsSync(path.join(runDir(), 'bundle')));
  });

  it('reads the canvas, approvals and jobs of the run, and offers its report and PROV-JSON as resources', async () => {
    const plan = await call('dreams_canvas_read', { key: 'plan' });
    assert.ok(!plan.isError && /eos-fit/.test(text(plan)));
    const approvals = (await call('dreams_approvals')).structuredContent as { approvals: { state: string; by?: string }[] };
    assert.deepEqual(
      approvals.approvals.map((a) => [a.state, a.by]),
      [['approve', 'mcp:mcp-proof-agent@1.2.3']],
    );
    const jobs = (await call('dreams_jobs')).structuredContent as { jobs: { state: string }[] };
    assert.ok(jobs.jobs.length >= 10 && jobs.jobs.every((j) => j.state === 'completed'));
    const { resources } = await client.listResources();
    const prov = resources.find((r) => r.uri === `dreams://runs/${runId}/provenance.json`);
    assert.ok(prov);
    const doc = JSON.parse(((await client.readResource({ uri: prov.uri })).contents[0] as { text: string }).text) as {
      entity?: Record<string, unknown>;
    };
    assert.ok(Object.keys(doc.entity ?? {}).length > 10);
  });

  it('acts only inside its runs directory: a path for a run, or an objective file outside the workspace, is refused', async () => {
    const r1 = await call('dreams_canvas_read', { run: '../../etc', key: 'plan' });
    assert.ok(r1.isError);
    assert.match(text(r1), /is a path; name a run by its id/);
    const r2 = await call('dreams_start_run', { objectiveFile: '/etc/passwd.yaml' });
    assert.ok(r2.isError);
    assert.match(text(r2), /outside the workspace/);
  });
});
