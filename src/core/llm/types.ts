/**
 * The LLM contract. Every agent, judge and planner talks to a model through an
 * LlmProvider; SDK stream chunks are normalised into these types before anything
 * else sees them. Implementations: anthropic.ts (the official SDK), offline.ts.
 */
import { DreamsError } from '../errors';
import type { LlmRole } from '../canvas/types';

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  /**
   * Set when the model's tool input was not a JSON object (bad JSON in the stream, or a
   * non-object value); `input` then holds the raw text. The agent loop answers with an
   * error tool_result the model can correct; the tool never runs.
   */
  inputError?: string;
}

export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  content: string;
  isError?: boolean;
}

/**
 * Model reasoning. Opaque to callers: keep it in the assistant turn it came in, unchanged
 * and in place, when the conversation continues (the API refuses a tool result whose
 * turn lost or altered its thinking). Never shown as the model's answer.
 */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | RedactedThinkingBlock;

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** A tool as the model sees it. */
export interface LlmToolDef {
  name: string;
  description: string;
  inputSchema: object;
}

/** System prompt parts; `cache: true` marks the end of a stable, cacheable prefix. */
export interface SystemPart {
  text: string;
  cache?: boolean;
}

/** What the spend is for, for accounting by category. */
export type UsageCategory = 'plan' | 'act' | 'judge-param' | 'judge-cross' | 'judge-report' | 'advise' | 'summarise';

export interface LlmRequest {
  role: LlmRole;
  category: UsageCategory;
  model: string;
  system: SystemPart[];
  messages: LlmMessage[];
  tools?: LlmToolDef[];
  /** Cache the tool definitions as part of the stable prefix. */
  cacheTools?: boolean;
  maxTokens: number;
  temperature?: number;
  /** Force a particular tool (judges answer through a verdict tool). */
  toolChoice?: { type: 'auto' } | { type: 'any' } | { type: 'tool'; name: string };
  /** How much the model thinks before answering (models with adaptive thinking). */
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  /** Also cache the conversation so far (multi-turn agent loops re-send it every turn). */
  cacheHistory?: boolean;
  /** The plan step a worker's request is for (not sent to a model: the brief names the step). */
  step?: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface LlmResponse {
  content: ContentBlock[];
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | (string & {});
  usage: Usage;
  model: string;
  /** Attempts it took (1 = no retry). */
  attempts: number;
  /**
   * What the provider changed in the request for this model, one sentence each
   * (e.g. a forced tool choice sent as 'auto' to a model that refuses forcing).
   */
  adjustments?: string[];
}

/** Normalised streaming events for live display. */
export type LlmStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_use_start'; name: string; id: string }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };

export interface LlmCallOptions {
  signal?: AbortSignal;
  onEvent?: (e: LlmStreamEvent) => void;
}

export interface LlmProvider {
  readonly name: string;
  /** False for the offline provider: judges then record "not judged". */
  readonly judges: boolean;
  complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse>;
}

export interface UsageRecord {
  role: LlmRole;
  category: UsageCategory;
  model: string;
  usage: Usage;
  /** null when the model has no price on file: the cost is unknown, not zero. */
  costUsd: number | null;
  at: string;
}

/** A provider error a caller can act on. */
export class LlmError extends DreamsError<
  'auth' | 'rate-limit' | 'overloaded' | 'server' | 'network' | 'bad-request' | 'cancelled' | 'budget'
> {
  constructor(
    code: LlmError['code'],
    message: string,
    readonly status?: number,
  ) {
    super(code, message);
    this.name = 'LlmError';
  }
}
