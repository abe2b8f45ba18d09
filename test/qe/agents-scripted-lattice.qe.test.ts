// The lattice-constant run end to end with a model (real Anthropic SDK, scripted fake
// Messages API on loopback) and real pw.x: plan → tools → report, the supervisor replanning
// after a pw.x job is killed, malformed tool uses answered with errors the model corrects,
// a 529 retried, and a stream cut mid-message retried without running a tool twice.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { RunResult } from '../../src/core/run/controller';
import { attemptsOf, STEP_START_EVENT } from '../../src/core/plan/stepRecords';
import type { AdviceValue } from '../../src/core/agents/advisor';
import type { Plan } from '../../src/core/plan/types';
import type { CanvasEvent } from '../../src/core/canvas/types';
import type { ToolCallRecord } from '../../src/core/provenance/types';
import type { UsageRecord } from '../../src/core/llm/types';
import type { ScriptStep } from '../fixtures/fake-anthropic/script';
import {
  freshDir,
  recordOfflineRun,
  ROLE_MARKER,
  scriptFromRecording,
  startModelRun,
  type ModelRun,
  type Recording,
} from '../fixtures/agents/scriptedLattice';

/** Tool calls as recorded, with the status their provenance.call.end gave them. */
const callsOf = (events: readonly CanvasEvent[]): ToolCallRecord[] => {
  const ends = new Map(
    events
      .filter((e) => e.kind === 'provenance.call.end')
      .map((e) => [(e.payload as { id: string }).id, (e.payload as { status: ToolCallRecord['status'] }).status] as const),
  );
  return events
    .filter((e) => e.kind === 'provenance.call')
    .map((e) => e.payload as ToolCallRecord)
    .map((c) => ({ ...c, status: ends.get(c.id) ?? c.status }));
};
const latticeOf = (events: readonly CanvasEvent[]) =>
  events
    .filter((e) => e.kind === 'provenance.artifact' && (e.payload as { name: string }).name === 'lattice_constant')
    .map((e) => (e.payload as { value: number }).value)
    .at(-1);

/** Messages of the last user turn of a recorded request, as the API saw them. */
function lastUserToolResults(body: Record<string, unknown> | undefined): { content: unknown; is_error?: boolean }[] {
  const messages = (body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.at(-1);
  return Array.isArray(last?.content)
    ? (last!.content as { type: string; content: unknown; is_error?: boolean }[]).filter((b) => b.type === 'tool_result')
    : [];
}

describe('scripted lattice-constant run through the Anthropic SDK (fake API) and real pw.x', function () {
  this.timeout(600_000);
  let rec: Recording;
  let run: ModelRun;
  let result: RunResult;
  let events: readonly CanvasEvent[];

  before(async () => {
    const root = freshDir('dreams-agents-scripted-');
    rec = await recordOfflineRun(`${root}/offline`);
    assert.equal(rec.result.state, 'completed', `the recorded offline run should complete: ${rec.result.reason}`);
    assert.ok(rec.killedJob, 'the recording killed an EOS job');

    const script = scriptFromRecording(rec, { judges: true });
    const agentSteps = script.steps.filter((s) => s.name?.startsWith('turn '));
    const dft = ROLE_MARKER.dft!;
    const firstDft = script.steps.findIndex((s) => s.match?.system === dft);
    const malformed: ScriptStep[] = [
      {
        name: 'bad json',
        match: { system: dft },
        reply: { content: [{ type: 'tool_use', name: 'build_bulk', rawInput: '{"arguments": {"elements": ["Al"], "bravais": ' }] },
      },
      {
        name: 'unknown tool',
        match: { system: dft },
        reply: {
          content: [
            { type: 'tool_use', name: 'build_crystal', input: { arguments: { element: 'Al' }, reasons: {}, context: 'step structure' } },
          ],
        },
      },
      {
        name: 'schema violation',
        match: { system: dft },
        reply: {
          content: [
            {
              type: 'tool_use',
              name: 'build_bulk',
              input: {
                arguments: { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: -4.05 },
                reasons: { latticeConstantAngstrom: 'starting value' },
                context: 'step structure',
              },
            },
          ],
        },
      },
    ];
    script.steps.splice(firstDft, 0, ...malformed);
    const firstHpc = script.steps.findIndex((s) => s.match?.system === ROLE_MARKER.hpc);
    script.steps.splice(firstHpc, 0, { name: 'overloaded once', match: { system: ROLE_MARKER.hpc! }, fault: { type: 'overloaded' } });
    const makeInput = script.steps.findIndex((s) => s.reply?.content.some((b) => b.type === 'tool_use' && b.name === 'make_pw_input'));
    script.steps.splice(makeInput, 0, {
      name: 'stream cut',
      match: { system: dft },
      reply: script.steps[makeInput]!.reply!,
      fault: { type: 'stream_cut', afterDeltas: 3 },
    });
    // Current models think before they answer; the thinking must go back unchanged with the tool result.
    const replan = script.steps.find((s) =>
      s.reply?.content.some((b) => b.type === 'tool_use' && b.name === 'consult_convergence_advisor'),
    )!;
    replan.reply!.content.unshift({
      type: 'thinking',
      thinking: 'The EOS job was killed; the advisor should say whether the input is at fault.',
    });
    assert.ok(agentSteps.length > 20, 'the recording has the agent turns of a whole run');

    run = await startModelRun(`${root}/model`, script, { judges: true });
    try {
      result = await run.controller.run();
      events = [...run.controller.session.run.log.events()];
    } finally {
      await run.controller.close();
      await run.api.stop();
    }
  });

  it('runs the plan to a report the report judge accepts', () => {
    assert.equal(result.state, 'completed', result.reason);
    run.api.assertScriptDone();
    const judged = events.filter((e) => e.kind === 'report.judged').at(-1)!.payload as {
      accepted: boolean;
      modelJudged: boolean;
      summary: string;
    };
    assert.equal(judged.accepted, true, judged.summary);
    assert.equal(judged.modelJudged, true);
    const plan = events
      .filter((e) => e.kind === 'key.write' && e.key === 'plan')
      .map((e) => (e.payload as { value: Plan }).value)
      .at(-1)!;
    assert.ok(
      plan.steps.every((s) => s.status === 'done'),
      plan.steps.map((s) => `${s.id}:${s.status}`).join(' '),
    );
    assert.match(result.response ?? '', /a = \d\.\d{2,4} Å/);
  });

  it('gets the same lattice constant as the offline run (same pw.x numbers, same provenance)', () => {
    const a = latticeOf(events);
    assert.ok(a !== undefined && a > 3.8 && a < 4.1, `lattice constant ${a}`);
    assert.equal(a, latticeOf(rec.events));
  });

  it('replans after the failed job: advisor, then a plan edit that reruns only the killed point', () => {
    assert.ok(run.killed(), 'an EOS job was killed');
    const replan = events.find((e) => e.kind === 'supervisor.replan')!.payload as { step: string; call: string };
    assert.equal(replan.step, 'eos-runs');
    const calls = callsOf(events);
    const consult = calls.find((c) => c.tool === 'consult_convergence_advisor')!;
    assert.equal(consult.args.call?.value, replan.call);
    const advice = events.find((e) => e.kind === 'provenance.artifact' && (e.payload as { name: string }).name === 'convergence_advice')!
      .payload as { value: AdviceValue };
    assert.equal(advice.value.diagnosis.kind, 'killed');
    assert.equal(advice.value.rerun, true);
    const planWrites = events.filter((e) => e.kind === 'key.write' && e.key === 'plan').map((e) => e.payload as { reason: string });
    assert.ok(
      planWrites.some((w) => /modified step eos-runs/.test(w.reason)),
      'the supervisor modified the failed step',
    );
    assert.equal(attemptsOf(events, 'eos-runs'), 2);
    const secondStart = events.filter((e) => e.kind === STEP_START_EVENT && (e.payload as { id: string }).id === 'eos-runs').at(-1)!.seq;
    const rerun = events.filter(
      (e) => e.seq > secondStart && e.kind === 'provenance.call' && (e.payload as ToolCallRecord).step === 'eos-runs',
    );
    assert.equal(rerun.length, 1, 'only the killed EOS point runs again');
    const fit = events.filter((e) => e.kind === 'provenance.artifact' && (e.payload as { name: string }).name === 'eos_fit').at(-1)!
      .payload as { value: { points: unknown[] } };
    assert.equal(fit.value.points.length, 5);
  });

  it('answers malformed tool uses with errors the model corrects, and the run goes on', () => {
    const results = run.api.requests.flatMap((r) => lastUserToolResults(r.body));
    const errors = results
      .filter((r) => r.is_error)
      .map((r) => String(typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));
    assert.ok(
      errors.some((m) => /not valid JSON/.test(m)),
      'bad JSON',
    );
    assert.ok(
      errors.some((m) => /unknown tool "build_crystal"/.test(m)),
      'unknown tool',
    );
    assert.ok(
      errors.some((m) => /build_bulk: invalid arguments/.test(m) && /latticeConstantAngstrom/.test(m)),
      'schema violation',
    );
    const bulkCalls = callsOf(events).filter((c) => c.tool === 'build_bulk');
    assert.equal(bulkCalls.length, 1, 'no malformed call was recorded or run');
    assert.equal(bulkCalls[0]!.status, 'ok');
  });

  it('retries a 529 and a stream cut mid-message, and runs the tool once', () => {
    const overloaded = run.api.requests.findIndex((r) => r.outcome === 'fault:overloaded');
    assert.ok(overloaded >= 0);
    assert.ok(
      run.api.requests.slice(overloaded + 1).some((r) => r.rawBody === run.api.requests[overloaded]!.rawBody && r.outcome === 'reply'),
    );
    const cut = run.api.requests.findIndex((r) => r.outcome === 'fault:stream_cut');
    assert.ok(cut >= 0);
    assert.ok(run.api.requests.slice(cut + 1).some((r) => r.rawBody === run.api.requests[cut]!.rawBody && r.outcome === 'reply'));
    const inputs = callsOf(events).filter((c) => c.tool === 'make_pw_input' && c.step === 'cutoff-input');
    assert.equal(inputs.length, 1, 'the cut message was not acted on');
  });

  it('judges with the model where the offline run recorded "not judged", and accounts tokens per role', () => {
    const verdicts = events
      .filter((e) => e.kind === 'guard.verdict')
      .flatMap((e) => (e.payload as { verdicts: { tier: string; judged: boolean }[] }).verdicts);
    // every tier-2 verdict was judged by the model, or says why the judge was not asked (judge economy)
    const tier2 = events
      .filter((e) => e.kind === 'guard.verdict')
      .flatMap((e) => (e.payload as { verdicts: { tier: string; judged: boolean; rule: string; reasons: string[] }[] }).verdicts)
      .filter((v) => v.tier === 'tier2');
    assert.ok(
      tier2.every((v) => v.judged || (v.rule === 'judge-economy' && /^not asked: /.test(v.reasons[0]!))),
      JSON.stringify(tier2.filter((v) => !v.judged).slice(0, 2)),
    );
    assert.ok(tier2.some((v) => v.judged) && tier2.some((v) => !v.judged), 'some judged, some spared');
    assert.ok(verdicts.length > 0);
    const offline = rec.events
      .filter((e) => e.kind === 'guard.verdict')
      .flatMap((e) => (e.payload as { verdicts: { tier: string; judged: boolean }[] }).verdicts);
    assert.ok(offline.filter((v) => v.tier === 'tier2').length > 0 && offline.filter((v) => v.tier === 'tier2').every((v) => !v.judged));
    const roles = new Set(events.filter((e) => e.kind === 'llm.usage').map((e) => (e.payload as UsageRecord).role));
    for (const r of ['supervisor', 'dft', 'hpc', 'advisor', 'param-judge', 'cross-judge', 'report-judge'])
      assert.ok(roles.has(r as UsageRecord['role']), `usage for ${r}`);
    assert.ok(fs.existsSync(rec.runDir));
  });
});
