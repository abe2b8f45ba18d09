/**
 * A provider that accounts for every response and keeps the run inside its budget:
 * the budget is checked before each call (no request is sent once a limit is reached)
 * and after it (the response that crossed a limit is recorded, then refused).
 */
import type { RunBudget } from './budget';
import type { LlmCallOptions, LlmProvider, LlmRequest, LlmResponse } from './types';
import type { UsageLedger } from './usage';

export interface MeteringOptions {
  ledger: UsageLedger;
  budget?: RunBudget;
}

export function meteredProvider(inner: LlmProvider, { ledger, budget }: MeteringOptions): LlmProvider {
  return {
    name: inner.name,
    judges: inner.judges,
    async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
      budget?.check('before-call', req);
      const res = await inner.complete(req, opts);
      ledger.record(req.role, req.category, res.model, res.usage);
      budget?.check('after-call', req, res);
      return res;
    },
  };
}
