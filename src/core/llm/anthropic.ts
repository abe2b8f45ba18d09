/**
 * The Anthropic provider: the Messages API through the official SDK, always streamed.
 *
 * One attempt = one streamed request. A message counts only once message_stop has
 * arrived; a stream that is cut or stalls is discarded whole and the identical request
 * is sent again, so a response (and the tool uses in it) reaches the caller at most
 * once. Retries follow retry.ts (the SDK's own retries are off) and are announced as
 * 'retry' stream events; a display should drop the text it showed since the last
 * 'retry' when one arrives.
 *
 * The API key comes from the host (environment for the CLI, SecretStorage in the
 * extension). It is held only by the SDK client in a private field and is removed
 * from every message this provider passes on.
 */
import Anthropic from '@anthropic-ai/sdk';
import { classifyAttemptError, IncompleteStreamError, redact, SET_KEY_HINT, toLlmError, type AttemptFailure } from './errors';
import { silentLogger, type Logger } from '../logger';
import { resolveRetryPolicy, retryDelayMs, sleep, type RetryPolicy } from './retry';
import { MessageAssembler, type AssembledMessage } from './streamAssembler';
import { LlmError, type LlmCallOptions, type LlmProvider, type LlmRequest, type LlmResponse, type LlmStreamEvent } from './types';
import { toWireRequest } from './wire';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  /** The API key, as the host found it; undefined or empty makes every call fail with an 'auth' LlmError. */
  apiKey: string | undefined;
  /** The API endpoint (a proxy, or the fake API in tests). */
  baseURL?: string;
  retry?: Partial<RetryPolicy>;
  /** Time limit for one HTTP attempt until its response headers arrive (SDK timeout). */
  requestTimeoutMs?: number;
  /** SDK warnings (e.g. a deprecated model), with the key removed. */
  onWarning?: (message: string) => void;
  /** Jitter source; tests pin it. */
  random?: () => number;
  /** Requests, retries (with their reasons) and final failures, never the key. */
  logger?: Logger;
}

export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic';
  readonly judges = true;
  readonly baseURL: string;
  readonly retryPolicy: RetryPolicy;
  readonly #client: Anthropic | undefined;
  readonly #apiKey: string | undefined;
  readonly #random: () => number;
  readonly #log: Logger;

  constructor(opts: AnthropicProviderOptions) {
    this.#log = (opts.logger ?? silentLogger).scoped('api');
    this.baseURL = (opts.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.retryPolicy = resolveRetryPolicy(opts.retry);
    this.#random = opts.random ?? Math.random;
    const key = opts.apiKey?.trim();
    this.#apiKey = key || undefined;
    if (!this.#apiKey) return;
    const warn = (...args: unknown[]) => opts.onWarning?.(redact(args.map(String).join(' '), this.#apiKey));
    const quiet = () => {};
    this.#client = new Anthropic({
      apiKey: this.#apiKey,
      baseURL: this.baseURL,
      maxRetries: 0,
      ...(opts.requestTimeoutMs !== undefined ? { timeout: opts.requestTimeoutMs } : {}),
      logger: { error: warn, warn, info: quiet, debug: quiet },
    });
  }

  async complete(req: LlmRequest, opts: LlmCallOptions = {}): Promise<LlmResponse> {
    const client = this.#client;
    if (!client) {
      throw new LlmError(
        'auth',
        `no Anthropic API key for the ${req.role} request: ${SET_KEY_HINT}. Without a key, run the built-in workflows offline.`,
      );
    }
    const { params, adjustments } = toWireRequest(req);
    const policy = this.retryPolicy;
    const ctx = { role: req.role, model: req.model, baseURL: this.baseURL };
    const emit = (e: LlmStreamEvent) => opts.onEvent?.(e);

    for (let attempt = 1; ; attempt++) {
      if (opts.signal?.aborted) throw this.#final({ kind: 'cancelled', retryable: false, detail: 'cancelled' }, ctx, attempt - 1);
      let failure: AttemptFailure;
      try {
        const m = await this.#attempt(client, params, opts.signal, emit);
        this.#log.debug(
          `${req.role} (${req.model}): ${m.stopReason}, ${m.usage.inputTokens} in / ${m.usage.outputTokens} out tokens${attempt > 1 ? `, attempt ${attempt}` : ''}`,
        );
        if (m.droppedBlockTypes.length > 0) {
          adjustments.push(`content blocks of type ${m.droppedBlockTypes.join(', ')} were left out: the contract does not carry them.`);
        }
        return {
          content: m.content,
          stopReason: m.stopReason,
          usage: m.usage,
          model: m.model || req.model,
          attempts: attempt,
          ...(adjustments.length > 0 ? { adjustments } : {}),
        };
      } catch (err) {
        failure = classifyAttemptError(err, opts.signal?.aborted === true);
      }
      if (!failure.retryable || attempt >= policy.maxAttempts) throw this.#final(failure, ctx, attempt);
      if (failure.serverWaitMs !== undefined && failure.serverWaitMs > policy.maxRetryAfterMs) {
        const s = Math.ceil(failure.serverWaitMs / 1000);
        throw this.#final(
          {
            ...failure,
            detail: `${failure.detail}; the API asked to wait ${s} s, longer than the ${Math.round(policy.maxRetryAfterMs / 1000)} s this run waits`,
          },
          ctx,
          attempt,
        );
      }
      const delayMs = retryDelayMs(policy, attempt, failure.serverWaitMs, this.#random);
      const reason = redact(`${failure.kind}: ${failure.detail}`, this.#apiKey);
      this.#log.warn(
        `${req.role} (${req.model}): retry ${attempt + 1} of ${policy.maxAttempts} in ${(delayMs / 1000).toFixed(1)} s${failure.serverWaitMs !== undefined ? ' (the API asked to wait)' : ''}: ${reason}`,
      );
      emit({ type: 'retry', attempt: attempt + 1, delayMs, reason });
      try {
        await sleep(delayMs, opts.signal);
      } catch {
        throw this.#final({ kind: 'cancelled', retryable: false, detail: 'cancelled while waiting to retry' }, ctx, attempt);
      }
    }
  }

  /** One streamed request. Resolves only with a whole message. */
  async #attempt(
    client: Anthropic,
    params: ReturnType<typeof toWireRequest>['params'],
    signal: AbortSignal | undefined,
    emit: (e: LlmStreamEvent) => void,
  ): Promise<AssembledMessage> {
    const attemptCtl = new AbortController();
    const onCallerAbort = () => attemptCtl.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const idleMs = this.retryPolicy.streamIdleTimeoutMs;
    let stalled = false;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => {
        stalled = true;
        attemptCtl.abort();
      }, idleMs);
    };
    const assembler = new MessageAssembler(emit);
    try {
      armIdle();
      const stream = await client.messages.create(params, { signal: attemptCtl.signal, maxRetries: 0 });
      for await (const ev of stream) {
        armIdle();
        assembler.push(ev);
      }
    } catch (err) {
      if (stalled) throw new IncompleteStreamError(`no data from the API for ${idleMs / 1000} s ${assembler.progress}`);
      throw err;
    } finally {
      if (idle) clearTimeout(idle);
      signal?.removeEventListener('abort', onCallerAbort);
    }
    // The SDK ends the iteration quietly when the request is aborted.
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    if (stalled) throw new IncompleteStreamError(`no data from the API for ${idleMs / 1000} s ${assembler.progress}`);
    if (!assembler.complete) throw new IncompleteStreamError(`the response stream ended before message_stop ${assembler.progress}`);
    return assembler.result();
  }

  #final(f: AttemptFailure, ctx: { role: string; model: string; baseURL: string }, attempts: number): LlmError {
    const e = toLlmError(f, { ...ctx, attempts });
    const clean = new LlmError(e.code, redact(e.message, this.#apiKey), e.status);
    if (f.kind !== 'cancelled')
      this.#log.error(`${ctx.role} (${ctx.model}): gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${clean.message}`);
    return clean;
  }
}
