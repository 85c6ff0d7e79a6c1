import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import { backoffDelay } from './backoff-delay.ts';
import { chatCompletionsUrl, type EndpointConfig } from './endpoint.ts';
import { excerpt, maskKey, ModelEndpointError, ModelRequestCancelled } from './endpoint-error.ts';
import { parseChatResponse } from './parse-chat-response.ts';
import { retryAfterMs } from './retry-after.ts';
import { abortableSleep, type Sleep } from './sleep.ts';
import { raceAbort } from './race-abort.ts';

export interface SendOptions {
  /** The HTTP client (default: the global fetch). */
  fetch?: typeof fetch;
  /** The caller's cancel: aborts the attempt in flight and any backoff wait at once. */
  signal?: AbortSignal;
  /** Waits between attempts (default: a timer); tests inject one to check the waits. */
  sleep?: Sleep;
  /** Uniform in [0, 1), for the backoff's jitter (default Math.random: jitter needs no reproducibility). */
  random?: () => number;
  /** The clock, for Retry-After dates (default Date.now). */
  now?: () => number;
  /** Told before each retry's wait. */
  onRetry?(retry: { attempt: number; delayMs: number; reason: string }): void;
}

/** Statuses worth trying again: timeout, conflict, rate limit, and every server error. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Send one chat request to an OpenAI-compatible endpoint: `POST {base}/chat/completions` with the
 * request as its JSON body, exactly (the response cache's key describes that body), and the key
 * as a Bearer token when there is one. Each attempt has `timeoutMs`; 408/409/429/5xx, timeouts
 * and network errors are retried up to `maxRetries` times with full-jitter exponential backoff,
 * or after the endpoint's `Retry-After` (capped at 60 s). Other answers fail at once. Failures
 * are ModelEndpointError naming the endpoint (never the key); the caller's cancel rejects with
 * ModelRequestCancelled.
 */
export async function sendChat(config: EndpointConfig, request: ChatRequest, options: SendOptions = {}): Promise<ModelResponse> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const url = chatCompletionsUrl(config);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;
  const body = JSON.stringify(request);
  const where = `model endpoint ${config.baseUrl}`;
  const fail = (message: string, status: number, transient: boolean) => new ModelEndpointError(maskKey(message, config.apiKey), status, transient);

  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new ModelRequestCancelled();
    const outcome = await attemptOnce(fetchImpl, url, headers, body, config.timeoutMs, options.signal);
    let reason: string;
    let status = 0;
    let waitMs: number | null = null;
    if (outcome.kind === 'cancelled') throw new ModelRequestCancelled();
    if (outcome.kind === 'answer') {
      status = outcome.status;
      if (status >= 200 && status < 300) {
        try {
          return parseChatResponse(outcome.text);
        } catch (error) {
          throw fail(`${where} answered HTTP ${status}, but ${(error as Error).message.replace(/^the answer/, 'its answer')}`, status, false);
        }
      }
      const quote = quoteEndpointError(outcome.text);
      reason = `answered HTTP ${status}${quote}`;
      if (!isTransientStatus(status)) throw fail(`${where} ${reason}`, status, false);
      waitMs = retryAfterMs(outcome.retryAfter, now());
    } else {
      reason = outcome.kind === 'timeout' ? `gave no answer within ${config.timeoutMs / 1000} s` : `could not be reached (${outcome.message})`;
    }
    if (attempt >= config.maxRetries) {
      const tries = attempt + 1;
      throw fail(`${where} ${reason} (${tries} attempt${tries === 1 ? '' : 's'})`, status, true);
    }
    const delayMs = waitMs ?? backoffDelay(attempt, random);
    options.onRetry?.({ attempt: attempt + 1, delayMs, reason: maskKey(reason, config.apiKey) });
    try {
      await raceAbort(sleep(delayMs, options.signal), options.signal);
    } catch {
      throw new ModelRequestCancelled();
    }
  }
}

type Attempt =
  | { kind: 'answer'; status: number; text: string; retryAfter: string | null }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'network'; message: string };

/** One POST with its own time limit; the body is read under the same limit. */
async function attemptOnce(fetchImpl: typeof fetch, url: string, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetchImpl(url, { method: 'POST', headers, body, signal: controller.signal });
    const text = await response.text();
    return { kind: 'answer', status: response.status, text, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    if (signal?.aborted) return { kind: 'cancelled' };
    if (timedOut) return { kind: 'timeout' };
    return { kind: 'network', message: networkMessage(error) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** "connection refused (ECONNREFUSED)" and the like, from fetch's TypeError and its cause. */
function networkMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    UND_ERR_SOCKET: 'connection closed by the server',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
  };
  if (code) return `${known[code] ?? (typeof cause?.message === 'string' ? excerpt(cause.message, 120) : 'network error')} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return excerpt(typeof cause?.message === 'string' ? `${message}: ${cause.message}` : message, 160);
}

/** `: "the endpoint's message"` from an OpenAI-style `{ error: { message } }` body, else a short excerpt of the body. */
export function quoteEndpointError(text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const inner = typeof body?.error === 'string' ? body.error : typeof body?.error?.message === 'string' ? body.error.message : typeof body?.message === 'string' ? body.message : typeof body?.detail === 'string' ? body.detail : undefined;
    if (inner !== undefined) message = inner;
  } catch {
    // Not JSON: quote the text itself.
  }
  const short = excerpt(message);
  return short === '' ? '' : `: "${short}"`;
}
