/**
 * A scripted DFT worker for the token benchmark: one conversation through the real
 * Anthropic provider (real SDK) against the fake Messages API, which answers each turn
 * with the next scripted tool use. Tool uses go through the tool registry and the guarded
 * call exactly as a model's would; with the guard on, the judges' requests go to the same
 * fake API, answered with a pass for every parameter.
 *
 * This stands in for the agent loop until src/core/agents has its worker: the benchmark
 * should then drive that worker (same fake API, same scripted tool uses) instead.
 */
import type { FakeAnthropicApi } from '../../../test/fixtures/fake-anthropic/server';
import type { ScriptStep } from '../../../test/fixtures/fake-anthropic/script';
import type { RegistryContext, ToolRegistry } from '../../../src/core/agents/toolRegistry';
import { parseRef, resolveRef } from '../../../src/core/guard/ports';
import { contributingCalls } from '../../../src/core/guard/upstream';
import type { ReportClaim } from '../../../src/core/guard/claimChecks';
import type { LlmMessage, LlmProvider, ToolUseBlock } from '../../../src/core/llm/types';
import type { Outputs, ScriptedRun, StepCall } from './workflows';

export const WORKER_SYSTEM = [
  'You are the DFT worker of DREAMS: you carry out the steps the supervisor plans, with Quantum ESPRESSO (pw.x),',
  'using only the tools offered. Every argument taken from an earlier result is given as a reference to its artifact',
  '("a-12" or "a-12.chosen.ecutwfcRy") in "references"; every argument gets a one-line reason in "reasons"; "context"',
  'names the plan step and its goal. Report numbers only by citing the artifacts that hold them.',
].join(' ');

export interface RunOptions {
  api: FakeAnthropicApi;
  provider: LlmProvider;
  registry: ToolRegistry;
  ctx: RegistryContext;
  model: string;
  guarded: boolean;
}

const reasonFor = (tool: string, p: string, step: string) => `${p} for ${tool} in step ${step}: the value the plan and the earlier results call for`;

function agentReply(call: StepCall, step: string): ScriptStep {
  const params = Object.keys({ ...call.arguments, ...(call.references ?? {}) });
  return {
    name: `agent ${step}`,
    match: { system: 'You are the DFT worker' },
    reply: { content: [{ type: 'tool_use', name: call.tool, input: {
      arguments: call.arguments, references: call.references ?? {},
      reasons: Object.fromEntries(params.map((p) => [p, reasonFor(call.tool, p, step)])),
      context: `step ${step}: ${call.tool} towards the objective`,
    } }] },
  };
}

const pass = (reasons: string) => ({ level: 'pass', reasons: [reasons] });

/** Judge answers for this call: a pass per parameter, and across parameters when the tool has the cross judge. */
function judgeReplies(call: StepCall, registry: ToolRegistry, ctx: RegistryContext): ScriptStep[] {
  const spec = registry.get(call.tool)!;
  const steps: ScriptStep[] = [];
  const params = Object.keys({ ...call.arguments, ...(call.references ?? {}) });
  if (spec.parameterJudge !== false) {
    steps.push({ name: 'param judge', match: { toolChoice: 'record_parameter_verdicts' },
      reply: { content: [{ type: 'tool_use', name: 'record_parameter_verdicts', input: { verdicts: params.map((parameter) => ({ parameter, ...pass('consistent with its reason and context') })) } }] } });
  }
  if (spec.crossParameterJudge) {
    steps.push({ name: 'cross judge', match: { system: 'Cross-parameter judge', lastUser: 'fit together' },
      reply: { content: [{ type: 'tool_use', name: 'record_cross_verdict', input: pass('the parameters fit together') }] } });
  }
  if (call.tool === 'write_report') {
    const cited = (call.arguments.claims as ReportClaim[]).map((c) => parseRef(c.cites)!.artifactId);
    const verdicts = contributingCalls(ctx.provenance, cited).flatMap((c) => Object.keys(c.args).map((parameter) => ({ call: c.id, parameter, ...pass('acceptable for the claims') })));
    steps.push({ name: 'report judge', match: { lastUser: 'Contributing calls' },
      reply: { content: [{ type: 'tool_use', name: 'record_report_verdicts', input: { verdicts } }] } });
  }
  return steps;
}

export interface RunResult {
  turns: number;
  outputs: Outputs;
}

export async function runScripted(run: ScriptedRun, o: RunOptions): Promise<RunResult> {
  const messages: LlmMessage[] = [{ role: 'user', content: `Objective: ${run.objective}\nCarry out the plan step by step with the tools.` }];
  const tools = o.registry.definitionsFor('dft');
  const outputs: Outputs = {};
  const resolve = (ref: string) => {
    const r = resolveRef(o.ctx.provenance, ref);
    if (!r.ok) throw new Error(`scripted run ${run.name}: ${r.problem}`);
    return r.value;
  };
  let turns = 0;
  const ask = async () => {
    turns++;
    return o.provider.complete({
      role: 'dft', category: 'act', model: o.model, system: [{ text: WORKER_SYSTEM, cache: true }], messages, tools,
      cacheTools: true, cacheHistory: true, maxTokens: 2048,
    });
  };
  for (const step of run.steps) {
    const call = step.call(outputs, resolve);
    o.api.load({ steps: [agentReply(call, step.label), ...(o.guarded ? judgeReplies(call, o.registry, o.ctx) : [])] });
    const res = await ask();
    const use = res.content.find((b): b is ToolUseBlock => b.type === 'tool_use');
    if (!use) throw new Error(`scripted run ${run.name}: step ${step.label} got no tool use`);
    messages.push({ role: 'assistant', content: res.content });
    const r = await o.registry.call(use, 'dft', o.ctx, { model: o.model, step: step.label });
    if (r.outcome.status === 'ok') outputs[step.label] = r.outcome.outputs;
    else throw new Error(`scripted run ${run.name}: step ${step.label} was not carried out: ${r.toolResult.content}`);
    o.api.assertScriptDone();
    messages.push({ role: 'user', content: [r.toolResult] });
  }
  o.api.load({ steps: [{ name: 'agent done', match: { system: 'You are the DFT worker' }, reply: { content: [{ type: 'text', text: `${run.name}: all steps done; the report is written and judged.` }] } }] });
  await ask();
  o.api.assertScriptDone();
  return { turns, outputs };
}
