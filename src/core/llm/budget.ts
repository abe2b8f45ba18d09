/**
 * Run budgets. A budget is a set of meters, each with a limit and a way to read what
 * has been spent; the agent loop checks it before and after each model call and stops
 * the run cleanly when a meter reaches its limit. The LLM layer supplies the token and
 * cost meters (from the usage ledger); the agent loop adds its own (jobs submitted,
 * wall time) with `budget.add(meter)`.
 */
import { LlmError, type LlmRequest, type LlmResponse } from './types';
import { totalTokens, type UsageLedger } from './usage';

export interface BudgetMeter {
  /** Stable id: 'tokens', 'costUsd', 'jobs', 'wallTimeS'. */
  id: string;
  /** What is counted, for messages: "model tokens". */
  label: string;
  limit: number;
  spent(): number;
  /** A value in the meter's unit, for messages: "12,345 tokens", "$1.23". */
  format(n: number): string;
  /**
   * Before a call: a reason this meter cannot allow it even under the limit
   * (e.g. the call's cost could not be measured).
   */
  refuse?(req: LlmRequest): string | undefined;
}

export interface BudgetStatus {
  id: string;
  label: string;
  spent: number;
  limit: number;
  /** spent / limit */
  fraction: number;
}

export type BudgetPhase = 'before-call' | 'after-call';

export class BudgetExceededError extends LlmError {
  constructor(
    readonly meter: string,
    readonly spent: number,
    readonly limit: number,
    message: string,
    /** The response that crossed the limit (after-call): paid for, but not acted on. */
    readonly response?: LlmResponse,
  ) {
    super('budget', message);
    this.name = 'BudgetExceededError';
  }
}

export class RunBudget {
  readonly #meters: BudgetMeter[] = [];

  constructor(meters: BudgetMeter[] = []) {
    for (const m of meters) this.add(m);
  }

  add(meter: BudgetMeter): this {
    if (!(Number.isFinite(meter.limit) && meter.limit > 0)) {
      throw new Error(
        `budget limit for ${meter.label} must be a positive number, got ${String(meter.limit)}. Set a positive limit or leave it unset for no limit.`,
      );
    }
    if (this.#meters.some((m) => m.id === meter.id)) {
      throw new Error(`the budget already has a '${meter.id}' meter; set each limit once.`);
    }
    this.#meters.push(meter);
    return this;
  }

  status(): BudgetStatus[] {
    return this.#meters.map((m) => {
      const spent = m.spent();
      return { id: m.id, label: m.label, spent, limit: m.limit, fraction: spent / m.limit };
    });
  }

  /**
   * Throws BudgetExceededError for the first meter at or over its limit. Before a call
   * (pass the request) a meter may also refuse a call it could not account for.
   */
  check(phase: BudgetPhase, req?: LlmRequest, response?: LlmResponse): void {
    for (const m of this.#meters) {
      const spent = m.spent();
      if (spent >= m.limit) {
        const when =
          phase === 'before-call' ? 'No further model call is made' : 'The response that crossed it is recorded but not acted on';
        throw new BudgetExceededError(
          m.id,
          spent,
          m.limit,
          `budget reached: ${m.label} spent ${m.format(spent)} of the ${m.format(m.limit)} limit. ${when}; the run stops with its state saved. Raise the limit to resume.`,
          response,
        );
      }
      const refusal = phase === 'before-call' && req ? m.refuse?.(req) : undefined;
      if (refusal) throw new BudgetExceededError(m.id, spent, m.limit, refusal);
    }
  }
}

export interface LlmLimits {
  /** All tokens the API processed: input, output, cache read and cache write. */
  maxTokens?: number;
  maxCostUsd?: number;
}

/** Token and cost meters over a usage ledger, for the limits that are set. */
export function llmBudgetMeters(ledger: UsageLedger, limits: LlmLimits): BudgetMeter[] {
  const meters: BudgetMeter[] = [];
  if (limits.maxTokens !== undefined) {
    meters.push({
      id: 'tokens',
      label: 'model tokens',
      limit: limits.maxTokens,
      spent: () => totalTokens(ledger.totals().usage),
      format: (n) => `${Math.round(n).toLocaleString('en-US')} tokens`,
    });
  }
  if (limits.maxCostUsd !== undefined) {
    const limit = limits.maxCostUsd;
    meters.push({
      id: 'costUsd',
      label: 'model cost',
      limit,
      spent: () => ledger.totals().costUsd,
      format: (n) => `$${n.toFixed(4)}`,
      refuse: (req) => {
        const model = ledger.isPriced(req.model) ? ledger.totals().unpricedModels[0] : req.model;
        if (!model) return undefined;
        return (
          `the cost limit of $${limit} cannot be enforced: model '${model}' has no price on file, so its cost is unknown. ` +
          `Choose a priced model for role '${req.role}', add a price for '${model}', or remove the cost limit.`
        );
      },
    });
  }
  return meters;
}
