/** The provider and the fake API wired together on loopback, for the LLM tests. */
import { AnthropicProvider, type AnthropicProviderOptions } from '../../../../src/core/llm/anthropic';
import type { LlmRequest, LlmStreamEvent } from '../../../../src/core/llm/types';
import { FakeAnthropicApi, type FakeAnthropicOptions } from '../../../fixtures/fake-anthropic/server';

export const TEST_KEY = 'sk-ant-test-0123456789abcdef';

export interface Rig {
  api: FakeAnthropicApi;
  provider: AnthropicProvider;
  events: LlmStreamEvent[];
}

/** Start the fake with `script`, and a provider pointed at it with quick retries. */
export async function startRig(fake: FakeAnthropicOptions, provider: Partial<AnthropicProviderOptions> = {}): Promise<Rig> {
  const api = await FakeAnthropicApi.start({ apiKey: TEST_KEY, ...fake });
  const p = new AnthropicProvider({
    apiKey: TEST_KEY,
    baseURL: api.baseURL,
    ...provider,
    retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200, streamIdleTimeoutMs: 5_000, ...provider.retry },
  });
  return { api, provider: p, events: [] };
}

export function request(over: Partial<LlmRequest> = {}): LlmRequest {
  return {
    role: 'dft',
    category: 'act',
    model: 'claude-sonnet-5-5',
    system: [{ text: 'You run Quantum ESPRESSO calculations through tools.' }],
    messages: [{ role: 'user', content: 'Converge the plane-wave cutoff for fcc Al.' }],
    maxTokens: 1024,
    ...over,
  };
}
