/**
 * The model layer's event: one usage record per response (tokens, and the cost, or null when
 * the model has no price on file). Declared into the event catalogue (canvas/types.ts
 * EventCatalogue), with what it must hold when read from disk.
 */
import Type from 'typebox';
import type { UsageRecord } from './types';

declare module '../canvas/types' {
  interface EventCatalogue {
    'llm.usage': UsageRecord;
  }
}

export const LLM_EVENTS = {
  'llm.usage': Type.Object({
    role: Type.String(),
    category: Type.String(),
    model: Type.String(),
    usage: Type.Object({
      inputTokens: Type.Number(),
      outputTokens: Type.Number(),
      cacheReadTokens: Type.Number(),
      cacheWriteTokens: Type.Number(),
    }),
    costUsd: Type.Union([Type.Number(), Type.Null()]),
    at: Type.String(),
  }),
};
