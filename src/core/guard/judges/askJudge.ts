/**
 * One judge request and its forced verdict-tool answer. A judge that cannot answer
 * (provider error, no tool use, malformed input) is an infrastructure failure: the
 * caller records it apart from scientific verdicts and the call proceeds (fail open).
 */
import type { LlmProvider, LlmRequest, UsageCategory } from '../../llm/types';
import type { JudgeRole } from '../../canvas/types';
import { checkArguments } from '../schemaCheck';
import { judgeSystem, VERDICT_TOOLS, type JudgeToolInfo } from './judgePrompt';
import type { JudgeMemo } from './judgeEconomy';

export interface JudgeConfig {
  provider: LlmProvider;
  /** The model each judge role uses (llm/models.ts resolveRoleModels gives the defaults). */
  models: Record<JudgeRole, string>;
  /** The catalogue the judges see in their shared system prefix. */
  catalogue: JudgeToolInfo[];
  /** Output budget per judge request (thinking counts against it on current models); default 4096. */
  maxTokens?: number;
  signal?: AbortSignal;
  /** The run's memory of judged call shapes (judgeEconomy.ts): a series is judged once per step. */
  memo?: JudgeMemo;
}

const DEFAULT_MAX_TOKENS = 4096;

export type JudgeAnswer<T> = { ok: true; input: T; model: string } | { ok: false; error: string; model?: string };

export async function askJudge<T>(
  config: JudgeConfig,
  role: JudgeRole,
  category: UsageCategory,
  tool: string,
  userText: string,
  opts: { maxTokens?: number; tools?: readonly string[]; parameters?: readonly string[] } = {},
): Promise<JudgeAnswer<T>> {
  const req: LlmRequest = {
    role,
    category,
    model: config.models[role],
    // only this judge's rules and the documentation of the tools it judges
    system: judgeSystem(role, config.catalogue, opts.tools, opts.parameters),
    messages: [{ role: 'user', content: userText }],
    tools: VERDICT_TOOLS.filter((t) => t.name === tool),
    cacheTools: true,
    maxTokens: Math.max(opts.maxTokens ?? 0, config.maxTokens ?? DEFAULT_MAX_TOKENS),
    // Judging a stated value against its reason needs little deliberation; the verdict tool's schema carries the rest.
    effort: 'low',
    toolChoice: { type: 'tool', name: tool },
  };
  let res;
  try {
    res = await config.provider.complete(req, config.signal ? { signal: config.signal } : {});
  } catch (e) {
    return { ok: false, error: `${role} request failed: ${(e as Error).message}` };
  }
  const use = res.content.find((b) => b.type === 'tool_use' && b.name === tool);
  if (!use || use.type !== 'tool_use') {
    const hint = res.stopReason === 'max_tokens' ? `; the answer hit max_tokens (${req.maxTokens}): raise the judges' maxTokens` : '';
    return { ok: false, error: `${role} answered without calling ${tool} (stop reason ${res.stopReason})${hint}`, model: res.model };
  }
  if (use.inputError) return { ok: false, error: `${role} sent unreadable input to ${tool}: ${use.inputError}`, model: res.model };
  const schema = VERDICT_TOOLS.find((t) => t.name === tool)!.inputSchema;
  const check = checkArguments(schema, tool, use.input);
  if (!check.ok) return { ok: false, error: `${role} answered ${tool} malformed: ${check.problems.join('; ')}`, model: res.model };
  return { ok: true, input: use.input as T, model: res.model };
}
