/**
 * What went wrong with one attempt, in terms a caller can act on: the LlmError kind,
 * whether another attempt may succeed, and how long the server asked us to wait.
 */
import { DreamsError } from '../errors';
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { serverWaitMs } from './retry';
import { LlmError } from './types';

export type ErrorKind = LlmError['code'];

export const SET_KEY_HINT = "set ANTHROPIC_API_KEY or store the key with the 'DREAMS: Set API Key' command";

/** The stream ended or stalled before message_stop: the partial message is discarded. */
export class IncompleteStreamError extends DreamsError<'incomplete-stream'> {
  constructor(readonly detail: string) {
    super('incomplete-stream', detail);
    this.name = 'IncompleteStreamError';
  }
}

export interface AttemptFailure {
  kind: ErrorKind;
  retryable: boolean;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The server's requested wait before retrying. */
  serverWaitMs?: number;
  /** One line for the retry event and the final message: "429 rate_limit_error: ...". */
  detail: string;
  requestId?: string;
}

const KIND_BY_ERROR_TYPE: Record<string, ErrorKind> = {
  rate_limit_error: 'rate-limit',
  overloaded_error: 'overloaded',
  api_error: 'server',
  timeout_error: 'server',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'auth',
  invalid_request_error: 'bad-request',
  not_found_error: 'bad-request',
  request_too_large: 'bad-request',
};

function kindOfStatus(status: number): ErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 529) return 'overloaded';
  if (status === 408) return 'network';
  if (status === 409 || status >= 500) return 'server';
  if (status === 401 || status === 402 || status === 403) return 'auth';
  return 'bad-request';
}

const RETRYABLE: ReadonlySet<ErrorKind> = new Set(['rate-limit', 'overloaded', 'server', 'network']);

/** Classify an error thrown by one attempt. `aborted` is the caller's signal state. */
export function classifyAttemptError(err: unknown, aborted: boolean): AttemptFailure {
  if (aborted || err instanceof APIUserAbortError) {
    return { kind: 'cancelled', retryable: false, detail: 'cancelled by the caller' };
  }
  if (err instanceof IncompleteStreamError) {
    return { kind: 'network', retryable: true, detail: err.detail };
  }
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const why = cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
    return { kind: 'network', retryable: true, detail: why };
  }
  if (err instanceof APIError) {
    const status = err.status;
    const type = err.type ?? undefined;
    const kind = type && KIND_BY_ERROR_TYPE[type] ? KIND_BY_ERROR_TYPE[type] : status ? kindOfStatus(status) : 'server';
    const hint = err.headers?.get('x-should-retry');
    const retryable = hint === 'true' ? true : hint === 'false' ? false : RETRYABLE.has(kind);
    const apiMessage = err.apiMessage ?? err.message;
    const detail = [status, type].filter((x) => x !== undefined && x !== null).join(' ') + `: ${apiMessage}`;
    return {
      kind,
      retryable,
      status,
      serverWaitMs: serverWaitMs(err.headers),
      detail: detail.startsWith(':') ? apiMessage : detail,
      requestId: err.requestID ?? undefined,
    };
  }
  // Undici reports a connection dropped mid-body as a TypeError ("terminated").
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return { kind: 'network', retryable: true, detail: `${message}${cause}` };
}

export interface FailureContext {
  role: string;
  model: string;
  baseURL: string;
  attempts: number;
}

/** The final LlmError: what went wrong, for which call, and what to do. */
export function toLlmError(f: AttemptFailure, ctx: FailureContext): LlmError {
  const call = `the ${ctx.role} request to ${ctx.model}`;
  const tries = ctx.attempts === 1 ? '' : ` (${ctx.attempts} attempts)`;
  const req = f.requestId ? ` [request id ${f.requestId}]` : '';
  let message: string;
  switch (f.kind) {
    case 'auth':
      message =
        f.status === 403
          ? `the Anthropic API refused ${call}: ${f.detail}${req}. The key is valid but not allowed this; choose another model for role '${ctx.role}' or check the key's workspace and permissions.`
          : f.status === 402
            ? `the Anthropic API refused ${call} for billing: ${f.detail}${req}. Add credit to the account in the Anthropic Console, then retry.`
            : `the Anthropic API rejected the API key for ${call}: ${f.detail}${req}. Check the key: ${SET_KEY_HINT}.`;
      break;
    case 'bad-request':
      message =
        f.status === 404
          ? `the Anthropic API does not know ${call}: ${f.detail}${req}. Set a model id the API offers for role '${ctx.role}'.`
          : `the Anthropic API refused ${call}: ${f.detail}${req}. Retrying the same request will not help; the request has to change.`;
      break;
    case 'rate-limit':
      message = `${call} was rate-limited${tries}: ${f.detail}${req}. Wait a minute and resume, or run fewer agents at once.`;
      break;
    case 'overloaded':
      message = `the Anthropic API was overloaded for ${call}${tries}: ${f.detail}${req}. Resume later, or choose another model for role '${ctx.role}'.`;
      break;
    case 'server':
      message = `the Anthropic API failed on ${call}${tries}: ${f.detail}${req}. This is on the API's side; resume later.`;
      break;
    case 'network':
      message = `${call} at ${ctx.baseURL} did not complete${tries}: ${f.detail}. Check the network connection and any proxy, then resume.`;
      break;
    case 'cancelled':
      message = `${call} was cancelled.`;
      break;
    default:
      message = `${call} failed: ${f.detail}${req}.`;
  }
  return new LlmError(f.kind, message, f.status);
}

/** Remove every occurrence of the secret from a text before it leaves the provider. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 8) return text;
  return text.split(secret).join('[redacted]');
}
