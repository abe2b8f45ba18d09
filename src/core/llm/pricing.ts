/**
 * What a response cost, from its usage and the model's list price.
 *
 * Prices are USD per million tokens, Claude API standard tier, as listed on
 * platform.claude.com (model overview pages and the pricing page) in November 2026;
 * Fable 5.2 at its release price of 2026-11-09. Cache writes use the 5-minute rate,
 * the only cache lifetime the provider asks for. A model missing here has an unknown
 * cost (null), never zero: callers can supply prices for it (`extraPrices`).
 */
import type { Usage } from './types';

export interface TokenRates {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
}

export interface ModelPrice extends TokenRates {
  /** Rates for a request whose prompt (input + cache read + cache write) exceeds the threshold. */
  longPrompt?: TokenRates & { thresholdTokens: number };
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

const rates = (input: number, output: number, cacheWrite: number, cacheRead: number): TokenRates => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWritePerMTok: cacheWrite,
  cacheReadPerMTok: cacheRead,
});

const OPUS_5 = rates(5, 25, 6.25, 0.5);
const SONNET_4 = rates(3, 15, 3.75, 0.3);
const HAIKU_4_5 = rates(1, 5, 1.25, 0.1);
const FABLE_5_1 = rates(10, 50, 12.5, 0.25);
const FABLE_5 = rates(10, 50, 12.5, 1);

export const LIST_PRICES: PriceTable = Object.freeze({
  'claude-fable-5-2': rates(8, 40, 10, 0.2),
  'claude-fable-5-1': FABLE_5_1,
  'claude-mythos-5-1': FABLE_5_1,
  'claude-fable-5': FABLE_5,
  'claude-mythos-5': FABLE_5,
  'claude-opus-5-5': rates(4, 20, 5, 0.2),
  'claude-opus-5': OPUS_5,
  'claude-opus-4-8': OPUS_5,
  'claude-opus-4-7': OPUS_5,
  'claude-opus-4-6': OPUS_5,
  'claude-opus-4-5': OPUS_5,
  'claude-opus-4-5-20251101': OPUS_5,
  // Sonnet 5.5 cache reads went from 0.20 to 0.10 on 2026-10-07.
  'claude-sonnet-5-5': rates(2, 10, 2.5, 0.1),
  'claude-sonnet-5': rates(2, 10, 2.5, 0.2),
  'claude-sonnet-4-6': SONNET_4,
  'claude-sonnet-4-5': SONNET_4,
  'claude-sonnet-4-5-20250929': SONNET_4,
  'claude-haiku-5-5': {
    ...rates(0.1, 0.5, 0.125, 0.01),
    longPrompt: { ...rates(0.5, 2.5, 0.625, 0.05), thresholdTokens: 100_000 },
  },
  'claude-haiku-4-5': HAIKU_4_5,
  'claude-haiku-4-5-20251001': HAIKU_4_5,
});

/** Cost in USD of one response, or null when the model has no price on file. */
export function responseCostUsd(model: string, usage: Usage, extraPrices: PriceTable = {}): number | null {
  const price = extraPrices[model] ?? LIST_PRICES[model];
  if (!price) return null;
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const r: TokenRates = price.longPrompt && prompt > price.longPrompt.thresholdTokens ? price.longPrompt : price;
  return (
    (usage.inputTokens * r.inputPerMTok +
      usage.outputTokens * r.outputPerMTok +
      usage.cacheWriteTokens * r.cacheWritePerMTok +
      usage.cacheReadTokens * r.cacheReadPerMTok) /
    1e6
  );
}
