// A judge's warning on the way to a result: under the 'continue' policy the run goes on,
// the report judge holds the report back for review (the warned input is upstream of every
// claim), the run completes saying so; the user approves, the report is judged again and
// accepted. Real pw.x, the real SDK against the fake Messages API.
import assert from 'node:assert/strict';
import { approveCommand } from '../../src/cli/commands/approve';
import { reportCommand } from '../../src/cli/commands/report';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ToolCallRecord } from '../../src/core/provenance/types';
import { FakeAnthropicApi } from '../fixtures/fake-anthropic/server';
import { freshDir, recordOfflineRun, scriptFromRecording, startModelRun, TEST_KEY } from '../fixtures/agents/scriptedLattice';
import { passingJudges } from '../fixtures/agents/passingJudges';
import { captureConsole as quietly } from '../fixtures/captureConsole';

const judgements = (events: readonly CanvasEvent[]) =>
  events
    .filter((e) => e.kind === 'report.judged')
    .map((e) => e.payload as { accepted: boolean; level: string; summary: string; upstream: { rule: string; level: string }[] });

describe('a report held back for review, approved and judged again (real pw.x, fake API)', function () {
  this.timeout(600_000);

  it('completes with the report held back, and accepts it once the warning is approved', async () => {
    const root = freshDir('dreams-agents-review-');
    const rec = await recordOfflineRun(`${root}/offline`);
    assert.equal(rec.result.state, 'completed', rec.result.reason);
    const eosFit = rec.events.map((e) => e.payload as ToolCallRecord).find((c) => c.step === 'eos-fit' && c.tool === 'fit_eos')!;
    const script = scriptFromRecording(rec, { judges: true });
    // the per-parameter judge warns on the EOS fit's form (asked once per run: a literal an earlier
    // call of the same tool passed with the same reason keeps its verdict); every other verdict passes
    const warnings = [
      {
        step: 'eos-fit',
        tool: 'fit_eos',
        parameter: 'form',
        reasons: ['Five points over ±5 % decide little between forms: check that a Vinet fit gives the same V0'],
      },
    ];

    const run = await startModelRun(`${root}/model`, script, { judges: true, warnings });
    let events: CanvasEvent[];
    try {
      const result = await run.controller.run();
      assert.equal(result.state, 'completed', result.reason);
      events = [...run.controller.session.run.log.events()];
      run.api.assertScriptDone();
    } finally {
      await run.controller.close();
      await run.api.stop();
    }
    const request = events.find((e) => e.kind === 'approval.request')!.payload as { id: string; call: string; parameter: string };
    assert.deepEqual([request.id, request.call, request.parameter], ['ap-1', eosFit.id, 'form']);
    const first = judgements(events).at(-1)!;
    assert.equal(first.accepted, false);
    assert.equal(first.level, 'warn');
    assert.ok(first.upstream.some((v) => v.rule === 'upstream-approved' && v.level === 'warn'));
    const plan = events.filter((e) => e.key === 'plan').at(-1)!.payload as { value: { steps: { status: string }[] } };
    assert.ok(
      plan.value.steps.every((s) => s.status === 'done'),
      'the report step is done: a person decides the rest',
    );

    const approved = await quietly(() =>
      approveCommand([run.controller.runDir, 'ap-1', '--comment', 'checked: a Vinet fit gives the same V0 to 0.01 %']),
    );
    assert.equal(approved.code, 0, approved.out);

    const judgeApi = await FakeAnthropicApi.start({ apiKey: TEST_KEY, answer: passingJudges() });
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
    process.env.ANTHROPIC_API_KEY = TEST_KEY;
    process.env.ANTHROPIC_BASE_URL = judgeApi.baseURL;
    try {
      const again = await quietly(() => reportCommand([run.controller.runDir, '--rejudge', '--no-bundle']));
      assert.equal(again.code, 0, again.out);
      assert.match(again.out, /report a-\d+: accepted by the report judge/);
      assert.ok(
        judgeApi.requests.length >= 1 && judgeApi.requests.every((r) => r.outcome === 'reply'),
        'the report judge audited the report again',
      );
    } finally {
      for (const [name, value] of [
        ['ANTHROPIC_API_KEY', saved.key],
        ['ANTHROPIC_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await judgeApi.stop();
    }
  });
});
