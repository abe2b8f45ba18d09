/** The LLM layer's public surface: the contract, the Anthropic provider, models, accounting and budgets. */
export * from './types';
export { AnthropicProvider, DEFAULT_BASE_URL, type AnthropicProviderOptions } from './anthropic';
export { DEFAULT_ROLE_MODELS, LLM_ROLES, requestRulesFor, resolveRoleModels, type RoleModels } from './models';
export { LIST_PRICES, responseCostUsd, type ModelPrice, type PriceTable } from './pricing';
export { UsageLedger, totalTokens, zeroUsage, type UsageSnapshot, type UsageTotals } from './usage';
export { BudgetExceededError, llmBudgetMeters, RunBudget, type BudgetMeter, type BudgetStatus, type LlmLimits } from './budget';
export { meteredProvider, type MeteringOptions } from './metered';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
