/**
 * A worker (DFT or HPC) as a tool-using loop on one plan step: the model sees the tools
 * its role is allowed, every tool use goes through the registry and the guard, and a
 * malformed tool use (bad JSON, unknown tool, schema violation) comes back as an error
 * the model can correct. The loop ends when the provenance shows the step done (the tools'
 * own summaries are the step's), or when the model answers without a tool call; the
 * supervisor then checks the step against the provenance, not against the model's word.
 * The model is offered only its step's tool (and the canvas read).
 */
import { canvasReadOn } from '../tools/canvasTools';
import type { AgentRole } from '../canvas/types';
import type { ContentBlock, LlmMessage, ToolResultBlock, ToolUseBlock } from '../llm/types';
import type { RegistryContext } from './toolRegistry';
import { workerSystemPrompt } from './prompts/worker';
import type { AgentRuntime } from './runtime';
import type { PlanStep } from '../plan/types';

export interface WorkerResult {
  summary: string;
  turns: number;
  toolCalls: number;
  /** The worker ran out of turns or stopped for max_tokens. */
  incomplete?: string;
}

export const textOf = (content: ContentBlock[]): string =>
  content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();

export function registryContext(rt: AgentRuntime): RegistryContext {
  return {
    provenance: rt.provenance,
    approvals: rt.approvals,
    policy: rt.policy,
    ...(rt.judge ? { judge: { ...rt.judge, signal: rt.control.signal } } : {}),
    events: rt.log,
    run: {
      runId: rt.runId,
      runDir: rt.runDir,
      signal: rt.control.signal,
      progress: (m: string) => rt.onToolProgress?.(m),
      services: rt.services,
    },
  };
}

/**
 * A long result is cut, with where to read the rest: a canvas_read result on from the offset where it
 * was cut (the same key and version); any other call's record (which holds the whole summary) from its start.
 */
export function clipResult(block: ToolResultBlock, max: number, callId?: string, use?: ToolUseBlock): ToolResultBlock {
  if (block.content.length <= max) return block;
  const where =
    use?.name === 'canvas_read'
      ? canvasReadOn(block.content, max, use.input as Record<string, unknown>)
      : callId
        ? ` Read calls/${callId} (its whole summary; canvas_read takes an offset to read on where a result is cut) or its artifacts with canvas_read for the rest.`
        : '';
  return { ...block, content: `${block.content.slice(0, max)}\n… (${block.content.length - max} more characters cut.${where})` };
}

/**
 * Run one turn's tool uses in order; consecutive run_pw calls run side by side, up to
 * maxParallelJobs at a time, the next one started as soon as any ends (see runJobs), so a
 * series is queued at once on a cluster and no slot idles behind a long run. A pause waits
 * before each call is started; calls in flight go on to their end.
 */
export async function runToolUses(
  rt: AgentRuntime,
  uses: ToolUseBlock[],
  role: AgentRole,
  model: string,
  step?: string,
): Promise<ToolResultBlock[]> {
  const ctx = registryContext(rt);
  const results = new Map<string, ToolResultBlock>();
  const runOne = async (use: ToolUseBlock) => {
    const r = await rt.registry.call(use, role, ctx, { model, ...(step ? { step } : {}) });
    const callId = 'call' in r.outcome ? r.outcome.call : undefined;
    results.set(use.id, clipResult(r.toolResult, rt.limits.maxToolResultChars, callId || undefined, use));
  };
  for (let i = 0; i < uses.length; ) {
    await rt.control.checkpoint();
    if (uses[i]!.name === 'run_pw') {
      const jobs: ToolUseBlock[] = [];
      while (i < uses.length && uses[i]!.name === 'run_pw') jobs.push(uses[i++]!);
      await runJobs(rt, jobs, runOne);
    } else {
      await runOne(uses[i++]!);
    }
  }
  return uses.map((u) => results.get(u.id)!);
}

/**
 * A turn's consecutive run_pw calls as a pool: up to maxParallelJobs in flight, the next
 * started when any one ends. (Started in fixed batches, a 66³ run of a k sweep would wait for
 * the slowest run of the batch before it, with a core or a cluster slot idle all along.) Each
 * start passes a checkpoint, so a pause or a stop holds back the calls not yet started while
 * those in flight finish, and a stop or a cancel rejects only once they have. Never more jobs
 * are started than the budget had left when nothing was in flight; after that the next
 * checkpoint, with the submitted jobs counted, stops the run at the limit.
 */
async function runJobs(rt: AgentRuntime, jobs: ToolUseBlock[], runOne: (use: ToolUseBlock) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let quota = 0;
  const settle = async () => {
    await Promise.allSettled(inFlight);
  };
  let next = 0;
  while (!failure && (next < jobs.length || inFlight.size > 0)) {
    const canStart = next < jobs.length && inFlight.size < Math.max(1, rt.limits.maxParallelJobs) && (quota > 0 || inFlight.size === 0);
    if (!canStart) {
      await Promise.race(inFlight);
      continue;
    }
    try {
      await rt.control.checkpoint();
    } catch (e) {
      await settle();
      throw e;
    }
    if (inFlight.size === 0 && quota <= 0) quota = Math.max(1, rt.jobAllowance?.() ?? Infinity);
    quota -= 1;
    const p: Promise<void> = runOne(jobs[next++]!).then(
      () => void inFlight.delete(p),
      (error: unknown) => {
        inFlight.delete(p);
        failure ??= { error };
      },
    );
    inFlight.add(p);
  }
  if (failure) {
    await settle();
    throw failure.error;
  }
}

export async function runWorker(
  rt: AgentRuntime,
  step: PlanStep,
  brief: string,
  opts: { done?: () => boolean } = {},
): Promise<WorkerResult> {
  const role = step.worker as Exclude<AgentRole, 'supervisor'>;
  const model = rt.models[role];
  // the step's one tool (and the canvas read): the rest of the catalogue is not this step's business
  const tools = rt.registry.definitionsFor(role, { step });
  const system = [{ text: workerSystemPrompt(role), cache: true }];
  const messages: LlmMessage[] = [{ role: 'user', content: brief }];
  let toolCalls = 0;
  for (let turn = 1; turn <= rt.limits.maxWorkerTurns; turn++) {
    await rt.control.checkpoint();
    const res = await rt.provider.complete(
      {
        role,
        category: 'act',
        model,
        system,
        messages,
        tools,
        cacheTools: true,
        cacheHistory: true,
        maxTokens: rt.limits.maxTokensPerTurn,
        step: step.id,
      },
      { signal: rt.control.signal, ...(rt.onModelEvent ? { onEvent: (e) => rt.onModelEvent!(role, e) } : {}) },
    );
    // The assistant turn goes back unchanged: the API refuses a tool result whose turn lost its thinking.
    messages.push({ role: 'assistant', content: res.content });
    const uses = res.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0) {
      const text = textOf(res.content);
      if (res.stopReason === 'max_tokens') {
        return {
          summary: text || 'the answer was cut',
          turns: turn,
          toolCalls,
          incomplete: `the ${role} worker's answer hit max_tokens (${rt.limits.maxTokensPerTurn}); raise the limit`,
        };
      }
      return { summary: text || `the ${role} worker ended the step without a summary`, turns: turn, toolCalls };
    }
    toolCalls += uses.length;
    const results = await runToolUses(rt, uses, role, model, step.id);
    messages.push({ role: 'user', content: results });
    if (opts.done?.()) {
      const said = results
        .filter((r) => !r.isError)
        .map((r) => r.content)
        .join(' ');
      return { summary: said || `step ${step.id} done`, turns: turn, toolCalls };
    }
  }
  return {
    summary: `the ${role} worker used its ${rt.limits.maxWorkerTurns} turns without finishing step ${step.id}`,
    turns: rt.limits.maxWorkerTurns,
    toolCalls,
    incomplete: 'out of turns',
  };
}
