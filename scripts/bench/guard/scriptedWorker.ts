/**
 * The scripted runs played through the agents' own worker loop (agents/worker.ts
 * runWorker): one worker conversation per plan step, as a run has it, against the fake
 * Messages API through the real SDK. The fake answers the worker's first turn with the
 * step's scripted tool uses (all of a series in one turn), the judges with a pass per
 * parameter, and the worker's last turn with a summary. The supervisor's planning turns
 * are left out of both sides of the comparison.
 */
import type { FakeAnthropicApi } from '../../../test/fixtures/fake-anthropic/server';
import type { ScriptStep } from '../../../test/fixtures/fake-anthropic/script';
import type { ToolRegistry } from '../../../src/core/agents/toolRegistry';
import { runWorker } from '../../../src/core/agents/worker';
import type { AgentRuntime } from '../../../src/core/agents/runtime';
import type { PlanStep } from '../../../src/core/plan/types';
import { parseRef, resolveRef } from '../../../src/core/provenance/view';
import { contributingCalls } from '../../../src/core/provenance/upstream';
import type { ReportClaim } from '../../../src/core/guard/claimChecks';
import type { Outputs, ScriptedRun, ScriptedStep, StepCall } from './workflows';

const WORKER_MARK = { dft: 'You are the DFT worker', hpc: 'You are the HPC worker' } as const;

const reasonFor = (tool: string, p: string, step: string) =>
  `${p} for ${tool} in step ${step}: the value the plan and the earlier results call for`;
const pass = (reasons: string) => ({ level: 'pass', reasons: [reasons] });

function wrapped(call: StepCall, step: string) {
  const params = Object.keys({ ...call.arguments, ...(call.references ?? {}) });
  return {
    arguments: call.arguments,
    references: call.references ?? {},
    reasons: Object.fromEntries(params.map((p) => [p, reasonFor(call.tool, p, step)])),
    context: `step ${step}: ${call.tool} towards the objective`,
  };
}

/** Judge answers for one call: a pass per parameter, across parameters where declared, and for a report every contributing call. */
function judgeReplies(call: StepCall, registry: ToolRegistry, rt: AgentRuntime): ScriptStep[] {
  const spec = registry.get(call.tool)!;
  const steps: ScriptStep[] = [];
  const params = Object.keys({ ...call.arguments, ...(call.references ?? {}) });
  if (spec.parameterJudge !== false) {
    steps.push({
      name: `param judge ${call.tool}`,
      match: { toolChoice: 'record_parameter_verdicts' },
      reply: {
        content: [
          {
            type: 'tool_use',
            name: 'record_parameter_verdicts',
            input: { verdicts: params.map((parameter) => ({ parameter, ...pass('consistent with its reason and context') })) },
          },
        ],
      },
    });
  }
  if (spec.crossParameterJudge) {
    steps.push({
      name: `cross judge ${call.tool}`,
      match: { system: 'Cross-parameter judge', lastUser: 'fit together' },
      reply: { content: [{ type: 'tool_use', name: 'record_cross_verdict', input: pass('the parameters fit together') }] },
    });
  }
  if (call.tool === 'write_report') {
    const cited = (call.arguments.claims as ReportClaim[]).map((c) => parseRef(c.cites)!.artifactId);
    const verdicts = contributingCalls(rt.provenance, cited).flatMap((c) =>
      Object.keys(c.args).map((parameter) => ({ call: c.id, parameter, ...pass('acceptable for the claims') })),
    );
    steps.push({
      name: 'report judge',
      match: { lastUser: 'Contributing calls' },
      reply: { content: [{ type: 'tool_use', name: 'record_report_verdicts', input: { verdicts } }] },
    });
  }
  return steps;
}

/** Consecutive scripted calls of one plan step. */
function planSteps(run: ScriptedRun): { id: string; worker: 'dft' | 'hpc'; calls: ScriptedStep[] }[] {
  const out: { id: string; worker: 'dft' | 'hpc'; calls: ScriptedStep[] }[] = [];
  for (const s of run.steps) {
    const last = out[out.length - 1];
    if (last && last.id === s.plan) last.calls.push(s);
    else out.push({ id: s.plan, worker: s.worker ?? 'dft', calls: [s] });
  }
  return out;
}

function brief(objective: string, step: PlanStep, index: number, total: number, past: string[]): string {
  return [
    `Objective: ${objective}`,
    '',
    `Step ${step.id} (${index} of ${total}): ${step.title}`,
    `The tool call that must succeed: ${step.tool}`,
    ...(past.length ? ['', 'Earlier steps:', ...past] : []),
  ].join('\n');
}

const sameArguments = (recorded: Record<string, { value: unknown }>, scripted: Record<string, unknown>) =>
  Object.entries(scripted).every(([k, v]) => JSON.stringify(recorded[k]?.value) === JSON.stringify(v));

export interface RunResult {
  /** Worker model turns. */
  turns: number;
  outputs: Outputs;
}

export async function runScripted(run: ScriptedRun, api: FakeAnthropicApi, rt: AgentRuntime, guarded: boolean): Promise<RunResult> {
  const outputs: Outputs = {};
  const resolve = (ref: string) => {
    const r = resolveRef(rt.provenance, ref);
    if (!r.ok) throw new Error(`scripted run ${run.name}: ${r.problem}`);
    return r.value;
  };
  const steps = planSteps(run);
  const past: string[] = [];
  let turns = 0;
  for (const [i, ps] of steps.entries()) {
    const calls = ps.calls.map((s) => ({ label: s.label, call: s.call(outputs, resolve) }));
    const step: PlanStep = {
      id: ps.id,
      title: `${calls[0]!.call.tool} (${calls.length} call${calls.length > 1 ? 's' : ''})`,
      worker: ps.worker,
      tool: calls[0]!.call.tool,
      status: 'running',
    };
    const summary = `Step ${ps.id} done: ${calls.length} ${calls[0]!.call.tool} call(s) succeeded; their artifacts are recorded.`;
    api.load({
      steps: [
        {
          name: `worker ${ps.id}`,
          match: { system: WORKER_MARK[ps.worker] },
          reply: { content: calls.map((c) => ({ type: 'tool_use' as const, name: c.call.tool, input: wrapped(c.call, ps.id) })) },
        },
        ...(guarded ? calls.flatMap((c) => judgeReplies(c.call, rt.registry, rt)) : []),
        {
          name: `worker ${ps.id} summary`,
          match: { system: WORKER_MARK[ps.worker] },
          reply: { content: [{ type: 'text', text: summary }] },
        },
      ],
    });
    const before = rt.provenance.calls().length;
    const result = await runWorker(rt, step, brief(run.objective, step, i + 1, steps.length, past));
    turns += result.turns;
    api.assertScriptDone();
    const made = rt.provenance.calls().slice(before);
    for (const c of calls) {
      const rec = made.find((m) => m.tool === c.call.tool && m.step === ps.id && sameArguments(m.args, c.call.arguments));
      if (!rec || rec.status !== 'ok') {
        throw new Error(
          `scripted run ${run.name}: ${c.label} (${c.call.tool}) was not carried out${rec ? `: ${rec.status} ${rec.error ?? ''} ${JSON.stringify(rec.verdicts.filter((v) => v.level === 'fail').map((v) => v.reasons))}` : ''}`,
        );
      }
      outputs[c.label] = rec.outputs;
    }
    past.push(`- ${ps.id}: ${result.summary}`);
  }
  return { turns, outputs };
}
