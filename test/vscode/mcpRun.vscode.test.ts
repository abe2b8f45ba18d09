// A run an outside agent drove through `dreams mcp` opens in real VS Code like any other run:
// the shipped CLI (dist/cli.js) is started as the MCP server, the MCP SDK's client works the
// fcc Al lattice-constant study at toy settings (real pw.x, 11 SCFs at 24-32 Ry) with the
// judges of the scripted fake API on loopback, one of which warns on the EOS fit's form and
// is answered by the client; then the run's own canvas.dreams is opened as a notebook and
// shows the lab-notebook layout (summary, one cell per plan step, the report in full), with
// the client's name and version as the answering party of the approval in the step of its call.
// About 40 s of pw.x and judging on an idle 2-core machine.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { passingJudges } from '../fixtures/agents/passingJudges';
import { FakeAnthropicApi } from '../fixtures/fake-anthropic/server';
import { cellIds, EXTENSION_ID, until, workbench, workspaceDir } from './support/runs';

const CLIENT = { name: 'notebook-proof-agent', version: '0.9.1' };
const KEY = 'sk-ant-test-mcp-notebook-000000';
const WARNING = {
  step: 'eos-fit',
  tool: 'fit_eos',
  parameter: 'form',
  reasons: ['Five points over ±5 % decide little between forms: check that a Vinet fit gives the same V0.'],
};
const STEPS = [
  'structure',
  'pseudopotentials',
  'cutoff-input',
  'cutoff-series',
  'cutoff-runs',
  'cutoff-choice',
  'k-input',
  'k-series',
  'k-runs',
  'k-choice',
  'eos-input',
  'eos-series',
  'eos-runs',
  'eos-fit',
  'lattice',
  'report',
];

const text = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
const outputsOf = (cell: vscode.NotebookCell | undefined, mime: string) =>
  (cell?.outputs ?? [])
    .flatMap((o) => o.items)
    .filter((i) => i.mime === mime)
    .map((i) => JSON.parse(new TextDecoder().decode(i.data)));

interface StepView {
  id: string;
  tool: string;
  waiting: boolean;
  plannedCalls: Record<string, unknown>[];
  problem?: string;
}

describe('a run driven through dreams mcp, opened in real VS Code', () => {
  it('opens as a lab notebook: the summary, a cell per plan step, the report in full, and the approval answered by the MCP client in its step', async function () {
    this.timeout(600_000);
    await workbench();
    const ws = workspaceDir();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const cli = path.join(ext.extensionPath, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), `the shipped CLI at ${cli}`);
    const runsDir = path.join(ws, 'mcp-runs');
    const api = await FakeAnthropicApi.start({ apiKey: KEY, answer: passingJudges([WARNING]) });
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        cli,
        'mcp',
        '--runs-dir',
        runsDir,
        '--workspace',
        ws,
        '--pseudo-dir',
        process.env.DREAMS_PSEUDO_DIR ?? '/usr/share/espresso/pseudo',
      ],
      cwd: ws,
      env: { ...process.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.baseURL } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client(CLIENT);
    let runId = '';
    let approvalId = '';
    try {
      await client.connect(transport);
      const call = async (name: string, args: Record<string, unknown> = {}) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      const started = await call('dreams_start_run', {
        objective: {
          workflow: 'lattice-constant',
          objective: 'Lattice constant of fcc Al with LDA (toy settings, driven over MCP)',
          inputs: {
            element: 'Al',
            structure: 'fcc',
            latticeConstantAngstrom: 4.05,
            functional: 'PZ',
            pseudopotential: 'Al.pz-vbc.UPF',
            cutoffsRy: [24, 28, 32],
            kSpacingsPerAngstrom: [0.3, 0.2, 0.15],
            toleranceMevPerAtom: 5,
            smearing: { kind: 'mv', degaussRy: 0.05 },
            eos: { points: 5, rangePercent: 5 },
          },
        },
        parallelJobs: 1,
      });
      assert.ok(!started.isError, text(started) + stderr);
      runId = (started.structuredContent as { run: string }).run;
      // The agent: read the running steps, make the first waiting step's planned call, answer a warning.
      for (let turn = 0; turn < 200; turn++) {
        const status = await call('dreams_status');
        const { state, steps } = status.structuredContent as { state: string; steps: StepView[] };
        const step = steps.find((s) => s.waiting);
        if (!step) {
          if (['completed', 'failed', 'stopped', 'cancelled'].includes(state)) break;
          await new Promise((r) => setTimeout(r, 300));
          continue;
        }
        assert.ok(step.plannedCalls[0], `step ${step.id} waits with no planned call: ${step.problem}`);
        const r = await call(step.tool, { ...step.plannedCalls[0], step: step.id });
        assert.ok(!r.isError, `${step.id} ${step.tool}: ${text(r)}\n${stderr.slice(-2000)}`);
        const approval = (r.structuredContent as { approval?: { id: string } } | undefined)?.approval;
        if (approval) {
          approvalId = approval.id;
          const a = await call('dreams_answer_approval', {
            id: approval.id,
            decision: 'approve',
            comment: 'a Vinet fit of the same energies gives the same V0',
          });
          assert.ok(!a.isError, text(a));
        }
      }
    } finally {
      await client.close().catch(() => undefined);
      await api.stop();
    }
    assert.ok(
      runId && approvalId,
      `the run started and the judge's warning was raised (run ${runId}, approval ${approvalId || 'none'})\n${stderr.slice(-2000)}`,
    );

    // The run's own notebook, opened as a user opens it from the Explorer.
    const canvas = vscode.Uri.file(path.join(runsDir, runId, 'canvas.dreams'));
    assert.ok(fs.existsSync(canvas.fsPath), 'the run wrote its canvas.dreams');
    const nb = await vscode.workspace.openNotebookDocument(canvas);
    await vscode.window.showNotebookDocument(nb);
    const cell = (id: string) => nb.getCells().find((c) => (c.metadata?.dreams as { id?: string } | undefined)?.id === id);
    const report = await until(
      'the report in full',
      () =>
        outputsOf(cell('report'), 'application/vnd.dreams.report+json')[0] as
          | { markdown: string; verdict?: { level: string }; claims: { quantity: string; value: number }[] }
          | undefined,
      30_000,
    );
    const ids = cellIds(nb);
    assert.deepEqual(
      ids.filter((id) => id === 'summary' || id?.startsWith('steps/') || id === 'report'),
      ['summary', ...STEPS.map((s) => `steps/${s}`), 'report'],
      "the summary first, one cell per plan step in the plan's order, the report last",
    );
    assert.equal(ids.at(-1), 'report');
    assert.equal(report.verdict?.level, 'pass', 'the report judge accepted the report');
    assert.match(report.markdown, /^# /);
    const a = report.claims.find((c) => c.quantity === 'lattice_constant');
    assert.ok(a && a.value > 3.9 && a.value < 4.1, `the lattice constant claimed in the report: ${JSON.stringify(report.claims)}`);
    assert.equal(cell('summary')!.kind, vscode.NotebookCellKind.Markup, 'the summary is rendered Markdown');
    assert.match(cell('summary')!.document.getText(), /### Run /);
    assert.match(cell('steps/eos-fit')!.document.getText(), /^Step 14 of 16: .* — done\nworker dft · tool fit_eos · id eos-fit/);
    // The approval the judge's warning raised sits in the step of its call, answered by the outside agent.
    const cards = outputsOf(cell('steps/eos-fit'), 'application/vnd.dreams.approval+json') as {
      request: { id: string; parameter?: string };
      answer?: { decision: string; by: string };
    }[];
    assert.deepEqual(
      cards.map((c) => [c.request.id, c.request.parameter, c.answer?.decision, c.answer?.by]),
      [[approvalId, 'form', 'approve', `mcp:${CLIENT.name}@${CLIENT.version}`]],
    );
    assert.ok(!ids.includes(`approvals/${approvalId}`), 'no approval cell of its own');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
