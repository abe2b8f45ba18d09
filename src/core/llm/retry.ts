/**
 * The one retry policy of the LLM layer (the SDK's own retries are off). Exponential
 * backoff with jitter; a server-requested wait (retry-after-ms / retry-after) is
 * honoured as a lower bound.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff before the first retry; doubles each retry. */
  baseDelayMs: number;
  /** Cap on the computed backoff. */
  maxDelayMs: number;
  /** The longest server-requested wait honoured; a longer one fails at once, saying when to retry. */
  maxRetryAfterMs: number;
  /** An attempt whose stream goes this long without an event is abandoned and retried. */
  streamIdleTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 300_000,
  streamIdleTimeoutMs: 120_000,
});

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY, ...overrides };
  for (const [k, v] of Object.entries(p)) {
    if (!(typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
      throw new Error(`retry policy '${k}' must be a non-negative number, got ${String(v)}.`);
    }
  }
  if (p.maxAttempts < 1 || !Number.isInteger(p.maxAttempts)) {
    throw new Error(`retry policy 'maxAttempts' must be a whole number of at least 1, got ${p.maxAttempts}.`);
  }
  return p;
}

/**
 * Delay before retry number `retry` (1 = the first retry). Without a server hint:
 * half the exponential step fixed, half random, so concurrent clients spread out.
 * With one: the server's wait plus up to 10% (at most 1 s) of jitter.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  serverWaitMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (serverWaitMs !== undefined) return serverWaitMs + random() * Math.min(1_000, serverWaitMs * 0.1);
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return step / 2 + (random() * step) / 2;
}

/** The server's requested wait, from retry-after-ms (milliseconds) or retry-after (seconds or an HTTP date). */
export function serverWaitMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const v = Number(ms);
    if (Number.isFinite(v) && v >= 0) return v;
  }
  const ra = headers.get('retry-after');
  if (ra !== null && ra.trim() !== '') {
    const s = Number(ra);
    if (Number.isFinite(s) && s >= 0) return s * 1000;
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
