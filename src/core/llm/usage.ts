/**
 * The run's token and cost account. Every model response is recorded once, as a
 * UsageRecord handed to the sink (the run persists it as an 'llm.usage' event), and
 * folded into live totals by role, category and model. A ledger rebuilt from the
 * persisted records gives the same totals, so a resumed run keeps its spend.
 */
import type { LlmRole } from '../canvas/types';
import { responseCostUsd, type PriceTable } from './pricing';
import type { Usage, UsageCategory, UsageRecord } from './types';

export interface UsageTotals {
  responses: number;
  usage: Usage;
  /** Sum over priced responses only; see `unpricedResponses`. */
  costUsd: number;
  /** Responses from models with no price on file: their cost is not in `costUsd`. */
  unpricedResponses: number;
  unpricedModels: string[];
  /** cache-read tokens / all input tokens (uncached + cache read + cache write); null before any input. */
  cacheHitShare: number | null;
}

export interface UsageSnapshot {
  total: UsageTotals;
  byRole: Partial<Record<LlmRole, UsageTotals>>;
  byCategory: Partial<Record<UsageCategory, UsageTotals>>;
  byModel: Record<string, UsageTotals>;
}

export interface UsageLedgerOptions {
  /** Receives each record as it is made (the run appends it to its event log). */
  sink?: (record: UsageRecord) => void;
  /** Prices for models missing from the list prices (custom or proxied ids). */
  extraPrices?: PriceTable;
  now?: () => Date;
}

export const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

/** All tokens the API processed for a response, cached or not. */
export const totalTokens = (u: Usage): number => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;

class Accumulator {
  responses = 0;
  usage = zeroUsage();
  costUsd = 0;
  unpricedResponses = 0;
  unpricedModels = new Set<string>();

  add(r: UsageRecord): void {
    this.responses += 1;
    this.usage.inputTokens += r.usage.inputTokens;
    this.usage.outputTokens += r.usage.outputTokens;
    this.usage.cacheReadTokens += r.usage.cacheReadTokens;
    this.usage.cacheWriteTokens += r.usage.cacheWriteTokens;
    if (r.costUsd === null) {
      this.unpricedResponses += 1;
      this.unpricedModels.add(r.model);
    } else {
      this.costUsd += r.costUsd;
    }
  }

  totals(): UsageTotals {
    const u = this.usage;
    const input = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
    return {
      responses: this.responses,
      usage: { ...u },
      costUsd: this.costUsd,
      unpricedResponses: this.unpricedResponses,
      unpricedModels: [...this.unpricedModels].sort(),
      cacheHitShare: input > 0 ? u.cacheReadTokens / input : null,
    };
  }
}

export class UsageLedger {
  readonly #sink?: (record: UsageRecord) => void;
  readonly #extraPrices: PriceTable;
  readonly #now: () => Date;
  readonly #total = new Accumulator();
  readonly #byRole = new Map<LlmRole, Accumulator>();
  readonly #byCategory = new Map<UsageCategory, Accumulator>();
  readonly #byModel = new Map<string, Accumulator>();
  readonly #listeners = new Set<(snapshot: UsageSnapshot) => void>();

  constructor(opts: UsageLedgerOptions = {}) {
    this.#sink = opts.sink;
    this.#extraPrices = opts.extraPrices ?? {};
    this.#now = opts.now ?? (() => new Date());
  }

  /** Rebuild the account of a resumed run from its persisted records (no sink calls). */
  static fromRecords(records: Iterable<UsageRecord>, opts: UsageLedgerOptions = {}): UsageLedger {
    const ledger = new UsageLedger(opts);
    for (const r of records) ledger.#fold(r);
    return ledger;
  }

  /** Price one response, fold it into the totals, hand the record to the sink. */
  record(role: LlmRole, category: UsageCategory, model: string, usage: Usage): UsageRecord {
    const record: UsageRecord = {
      role,
      category,
      model,
      usage: { ...usage },
      costUsd: responseCostUsd(model, usage, this.#extraPrices),
      at: this.#now().toISOString(),
    };
    this.#fold(record);
    this.#sink?.(record);
    if (this.#listeners.size > 0) {
      const snap = this.snapshot();
      for (const l of this.#listeners) l(snap);
    }
    return record;
  }

  /** Whether responses from this model can be priced (list prices or the ledger's extra prices). */
  isPriced(model: string): boolean {
    return responseCostUsd(model, zeroUsage(), this.#extraPrices) !== null;
  }

  /** Live totals: called after every record. Returns the unsubscribe function. */
  onChange(listener: (snapshot: UsageSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  totals(): UsageTotals {
    return this.#total.totals();
  }

  snapshot(): UsageSnapshot {
    const fold = <K extends string>(m: Map<K, Accumulator>) =>
      Object.fromEntries([...m].map(([k, a]) => [k, a.totals()])) as Record<K, UsageTotals>;
    return {
      total: this.#total.totals(),
      byRole: fold(this.#byRole),
      byCategory: fold(this.#byCategory),
      byModel: fold(this.#byModel),
    };
  }

  #fold(r: UsageRecord): void {
    const into = <K>(m: Map<K, Accumulator>, k: K) => {
      let a = m.get(k);
      if (!a) m.set(k, (a = new Accumulator()));
      a.add(r);
    };
    this.#total.add(r);
    into(this.#byRole, r.role);
    into(this.#byCategory, r.category);
    into(this.#byModel, r.model);
  }
}
