/**
 * LlmRequest → Messages API parameters. Prompt-cache breakpoints go on the stable
 * prefixes, in the API's prefix order tools → system → messages: the last tool (when
 * `cacheTools`), the last system part marked `cache`, and the last block of the
 * conversation (when `cacheHistory`): three of the four breakpoints the API allows.
 */
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import { requestRulesFor } from './models';
import type { ContentBlock, LlmMessage, LlmRequest } from './types';

const EPHEMERAL = { type: 'ephemeral' } as const;

export interface WireRequest {
  params: MessageCreateParamsStreaming;
  /** What was changed for the model's request rules, one sentence each. */
  adjustments: string[];
}

export function toWireRequest(req: LlmRequest): WireRequest {
  const adjustments: string[] = [];
  const rules = requestRulesFor(req.model);
  const params: MessageCreateParamsStreaming = {
    model: req.model,
    max_tokens: req.maxTokens,
    messages: toWireMessages(req.messages, req.cacheHistory === true),
    stream: true,
  };

  const system = toWireSystem(req);
  if (system.length > 0) params.system = system;

  if (req.tools && req.tools.length > 0) {
    const tools: Tool[] = req.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Tool['input_schema'],
    }));
    if (req.cacheTools) tools[tools.length - 1] = { ...tools[tools.length - 1]!, cache_control: EPHEMERAL };
    params.tools = tools;
  }

  if (req.toolChoice) {
    const forced = req.toolChoice.type === 'any' || req.toolChoice.type === 'tool';
    if (forced && !rules.forcedToolChoice) {
      params.tool_choice = { type: 'auto' };
      const what = req.toolChoice.type === 'tool' ? `tool '${req.toolChoice.name}'` : 'a tool';
      adjustments.push(
        `tool choice sent as 'auto': ${req.model} refuses a forced tool choice, so the model was asked, not forced, to answer with ${what}.`,
      );
    } else {
      params.tool_choice = req.toolChoice as ToolChoice;
    }
  }

  if (req.temperature !== undefined) {
    if (rules.samplingParams) {
      // The SDK's request type no longer lists temperature; the models that take it still do.
      (params as unknown as Record<string, unknown>).temperature = req.temperature;
    } else {
      adjustments.push(`temperature ${req.temperature} not sent: ${req.model} accepts only its default sampling.`);
    }
  }

  if (req.effort) params.output_config = { effort: req.effort };
  return { params, adjustments };
}

function toWireSystem(req: LlmRequest): TextBlockParam[] {
  const parts: TextBlockParam[] = req.system.map((p) => ({ type: 'text', text: p.text }));
  let lastCached = -1;
  req.system.forEach((p, i) => {
    if (p.cache) lastCached = i;
  });
  if (lastCached >= 0) parts[lastCached] = { ...parts[lastCached]!, cache_control: EPHEMERAL };
  return parts;
}

function toWireMessages(messages: LlmMessage[], cacheHistory: boolean): MessageParam[] {
  const wire: (MessageParam & { role: 'user' | 'assistant' })[] = messages.map((m) => ({
    role: m.role,
    content: typeof m.content === 'string' ? m.content : m.content.map(toWireBlock),
  }));
  if (cacheHistory && wire.length > 0) {
    const last = wire[wire.length - 1]!;
    const blocks: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    // Thinking blocks cannot carry cache_control; the breakpoint goes on the last block that can.
    for (let i = blocks.length - 1; i >= 0; i--) {
      const b = blocks[i]!;
      if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
      blocks[i] = { ...b, cache_control: EPHEMERAL } as ContentBlockParam;
      break;
    }
    wire[wire.length - 1] = { ...last, content: blocks };
  }
  return wire;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toWireBlock(b: ContentBlock): ContentBlockParam {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'tool_use':
      // A malformed input (kept as raw text for the error tool_result) goes back as {}:
      // the API only takes an object here, and the tool never ran with it.
      return { type: 'tool_use', id: b.id, name: b.name, input: isPlainObject(b.input) ? b.input : {} };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: b.toolUseId, content: b.content, ...(b.isError ? { is_error: true } : {}) };
    case 'thinking':
      return { type: 'thinking', thinking: b.thinking, signature: b.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: b.data };
  }
}
