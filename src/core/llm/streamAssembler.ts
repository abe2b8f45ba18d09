/**
 * Builds one complete message from the Messages API's stream events and turns them
 * into the contract's types on the way: live LlmStreamEvents for display, and, only
 * once message_stop has arrived, the ContentBlocks the caller acts on.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, LlmStreamEvent, Usage } from './types';

type Slot =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; startInput: unknown; json: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'other'; blockType: string };

export interface AssembledMessage {
  content: ContentBlock[];
  stopReason: string;
  usage: Usage;
  model: string;
  /** Block types the contract does not carry (server tools), dropped from `content`. */
  droppedBlockTypes: string[];
}

export class MessageAssembler {
  readonly #onEvent?: (e: LlmStreamEvent) => void;
  readonly #slots: Slot[] = [];
  #model = '';
  #stopReason = '';
  #usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  #started = false;
  #stopped = false;
  #events = 0;

  constructor(onEvent?: (e: LlmStreamEvent) => void) {
    this.#onEvent = onEvent;
  }

  /** message_stop has arrived: the message is whole. */
  get complete(): boolean {
    return this.#stopped;
  }

  /** For messages about a cut stream: how far it got. */
  get progress(): string {
    const blocks = this.#slots.length;
    return this.#started
      ? `after ${this.#events} events (${blocks} content block${blocks === 1 ? '' : 's'} begun)`
      : 'before the message started';
  }

  push(ev: RawMessageStreamEvent): void {
    this.#events += 1;
    switch (ev.type) {
      case 'message_start': {
        this.#started = true;
        this.#model = ev.message.model;
        this.#overlayUsage(ev.message.usage);
        break;
      }
      case 'content_block_start': {
        const cb = ev.content_block;
        let slot: Slot;
        if (cb.type === 'text') slot = { type: 'text', text: cb.text };
        else if (cb.type === 'tool_use') slot = { type: 'tool_use', id: cb.id, name: cb.name, startInput: cb.input, json: '' };
        else if (cb.type === 'thinking') slot = { type: 'thinking', thinking: cb.thinking, signature: cb.signature };
        else if (cb.type === 'redacted_thinking') slot = { type: 'redacted_thinking', data: cb.data };
        else slot = { type: 'other', blockType: cb.type };
        this.#slots[ev.index] = slot;
        if (slot.type === 'text' && slot.text) this.#onEvent?.({ type: 'text', text: slot.text });
        if (slot.type === 'tool_use') this.#onEvent?.({ type: 'tool_use_start', name: slot.name, id: slot.id });
        break;
      }
      case 'content_block_delta': {
        const slot = this.#slots[ev.index];
        const d = ev.delta;
        if (!slot) break;
        if (d.type === 'text_delta' && slot.type === 'text') {
          slot.text += d.text;
          this.#onEvent?.({ type: 'text', text: d.text });
        } else if (d.type === 'input_json_delta' && slot.type === 'tool_use') {
          slot.json += d.partial_json;
        } else if (d.type === 'thinking_delta' && slot.type === 'thinking') {
          slot.thinking += d.thinking;
        } else if (d.type === 'signature_delta' && slot.type === 'thinking') {
          slot.signature += d.signature;
        }
        break;
      }
      case 'content_block_stop':
        break;
      case 'message_delta': {
        if (ev.delta.stop_reason) this.#stopReason = ev.delta.stop_reason;
        this.#overlayUsage(ev.usage);
        break;
      }
      case 'message_stop':
        this.#stopped = true;
        break;
    }
  }

  result(): AssembledMessage {
    const content: ContentBlock[] = [];
    const dropped: string[] = [];
    for (const slot of this.#slots) {
      if (!slot) continue;
      switch (slot.type) {
        case 'text':
          content.push({ type: 'text', text: slot.text });
          break;
        case 'thinking':
          content.push({ type: 'thinking', thinking: slot.thinking, signature: slot.signature });
          break;
        case 'redacted_thinking':
          content.push({ type: 'redacted_thinking', data: slot.data });
          break;
        case 'tool_use':
          content.push(this.#toolUse(slot));
          break;
        case 'other':
          dropped.push(slot.blockType);
          break;
      }
    }
    return { content, stopReason: this.#stopReason, usage: { ...this.#usage }, model: this.#model, droppedBlockTypes: dropped };
  }

  #toolUse(slot: Extract<Slot, { type: 'tool_use' }>): ContentBlock {
    const base = { type: 'tool_use' as const, id: slot.id, name: slot.name };
    if (slot.json.trim() === '') return { ...base, input: slot.startInput ?? {} };
    const cutOff = this.#stopReason === 'max_tokens' ? ' The response hit its max_tokens limit inside this input; raise maxTokens.' : '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(slot.json);
    } catch (e) {
      return { ...base, input: slot.json, inputError: `the tool input is not valid JSON (${(e as Error).message}).${cutOff}` };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      const what = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`;
      return { ...base, input: slot.json, inputError: `the tool input must be a JSON object, got ${what}.` };
    }
    return { ...base, input: parsed };
  }

  /** The API's usage fields are cumulative; a later event's non-null value replaces the earlier one. */
  #overlayUsage(
    u:
      | {
          input_tokens?: number | null;
          output_tokens?: number | null;
          cache_read_input_tokens?: number | null;
          cache_creation_input_tokens?: number | null;
        }
      | null
      | undefined,
  ): void {
    if (!u) return;
    if (typeof u.input_tokens === 'number') this.#usage.inputTokens = u.input_tokens;
    if (typeof u.output_tokens === 'number') this.#usage.outputTokens = u.output_tokens;
    if (typeof u.cache_read_input_tokens === 'number') this.#usage.cacheReadTokens = u.cache_read_input_tokens;
    if (typeof u.cache_creation_input_tokens === 'number') this.#usage.cacheWriteTokens = u.cache_creation_input_tokens;
  }
}
