import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import { backoffDelay } from './backoff-delay.ts';
import { chatCompletionsUrl, type EndpointConfig } from './endpoint.ts';
import { excerpt, maskKey, ModelEndpointError, ModelRequestCancelled } from './endpoint-error.ts';
import { parseChatResponse } from './parse-chat-response.ts';
import { quoteEndpointError } from './endpoint-reason.ts';
import { readCapped } from './read-capped.ts';
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
  /**
   * Told before each retry's wait. `overloaded`: the attempt timed out or the endpoint said 429 or
   * 503, so the host should send fewer requests at once.
   */
  onRetry?(retry: { attempt: number; delayMs: number; reason: string; overloaded: boolean }): void;
  /**
   * Waits for the host's leave to make one attempt (retries included) and resolves with its release:
   * the host's limit on requests in flight then holds for retries too, so a server that is still
   * computing abandoned attempts is not sent more of them.
   */
  permit?(signal?: AbortSignal): Promise<() => void>;
}

export { quoteEndpointError };

/** Statuses worth trying again: timeout, conflict, rate limit, and every server error. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * llama-server's refusals of a request it cannot take, which it answers as HTTP 500 (server_error):
 * the same request always gets the same answer, so it is not asked again.
 */
const REFUSED_AS_SERVER_ERROR = /tools param requires --jinja flag|Cannot use tools with stream|Unsupported param: tool_choice/;

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
  const body = JSON.stringify(requestBody(request));
  const where = `model endpoint ${config.baseUrl}`;
  const fail = (message: string, status: number, transient: boolean) => new ModelEndpointError(maskKey(message, config.apiKey), status, transient);

  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new ModelRequestCancelled();
    let release: () => void = () => {};
    if (options.permit) {
      const leave = options.permit(options.signal);
      try {
        release = await raceAbort(leave, options.signal);
      } catch {
        // Cancelled while waiting: a leave granted at that moment is handed back at once.
        void leave.then((giveBack) => giveBack());
        throw new ModelRequestCancelled();
      }
    }
    let outcome: Attempt;
    try {
      outcome = await attemptOnce(fetchImpl, url, headers, body, config, options.signal);
    } finally {
      release();
    }
    let reason: string;
    let status = 0;
    let waitMs: number | null = null;
    let overloaded = false;
    if (outcome.kind === 'cancelled') throw new ModelRequestCancelled();
    if (outcome.kind === 'redirect') {
      const where2 = outcome.to === null ? 'somewhere the browser does not show' : outcome.to;
      throw fail(`${where} answered ${outcome.status === 0 ? 'with a redirect' : `HTTP ${outcome.status}`} to ${where2}; not followed, so the prompt and key went nowhere else (${outcome.why}): if that is the endpoint, give its URL as the base URL`, outcome.status, false);
    }
    if (outcome.kind === 'too-large') {
      throw fail(`${where} answered HTTP ${outcome.status} with more than ${formatBytes(config.maxResponseBytes)} (the most one answer may hold); not read, and not asked again`, outcome.status, false);
    }
    if (outcome.kind === 'answer') {
      status = outcome.status;
      // Masked before anything is parsed, quoted or cut: an endpoint may echo the key anywhere.
      const text = maskKey(outcome.text, config.apiKey);
      if (status >= 200 && status < 300) {
        let response: ModelResponse;
        try {
          response = parseChatResponse(text, request.logprobs ? request.top_logprobs : undefined);
        } catch (error) {
          throw fail(`${where} answered HTTP ${status}, but ${(error as Error).message.replace(/^the answer/, 'its answer')}`, status, false);
        }
        return maskResponse(response, config.apiKey);
      }
      const quote = quoteEndpointError(text);
      const hint = status === 404 ? ` (requests go to ${url}: is the base URL right? most servers want it to end in /v1; is the model id one the server lists?)` : '';
      reason = `answered HTTP ${status}${quote}${hint}`;
      if (!isTransientStatus(status) || REFUSED_AS_SERVER_ERROR.test(quote)) throw fail(`${where} ${reason}`, status, false);
      overloaded = status === 429 || status === 503;
      waitMs = retryAfterMs(outcome.retryAfter, now());
    } else {
      if (outcome.kind === 'network' && outcome.badPort) {
        throw fail(`${where} could not be reached: this runtime's fetch refuses port ${new URL(url).port} (a "bad port" of the Fetch standard): use another port`, 0, false);
      }
      overloaded = outcome.kind === 'timeout';
      reason = outcome.kind === 'timeout' ? `gave no answer within ${config.timeoutMs / 1000} s` : `could not be reached (${maskKey(outcome.message, config.apiKey)})`;
    }
    if (attempt >= config.maxRetries) {
      const tries = attempt + 1;
      const advice = overloaded ? '; a slow or busy server (one slot on a CPU answers one request at a time): raise the time per request (the command: --timeout-request S; the page: Model > Time per request) or lower the requests in flight (the command: --concurrency 1; the page: Model > Requests at once)' : '';
      throw fail(`${where} ${reason} (${tries} attempt${tries === 1 ? '' : 's'})${advice}`, status, true);
    }
    const delayMs = waitMs ?? backoffDelay(attempt, random);
    options.onRetry?.({ attempt: attempt + 1, delayMs, reason: maskKey(reason, config.apiKey), overloaded });
    try {
      await raceAbort(sleep(delayMs, options.signal), options.signal);
    } catch {
      throw new ModelRequestCancelled();
    }
  }
}

type Attempt =
  | { kind: 'answer'; status: number; text: string; retryAfter: string | null }
  | { kind: 'redirect'; status: number; to: string | null; why: string }
  | { kind: 'too-large'; status: number }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'network'; message: string; badPort?: boolean };

/** Same-origin 307/308 hops followed (they re-send the body to the same server); anything else is refused. */
const MAX_REDIRECTS = 3;

/**
 * One POST with its own time limit; the body is read under the same limit and up to the size cap.
 * Redirects are never followed by fetch: a 307/308 within the endpoint's origin is followed here,
 * any other (another origin, or a 301/302/303 that would turn the POST into a GET) is refused,
 * so the prompt and key never go to a server the user did not name.
 */
async function attemptOnce(fetchImpl: typeof fetch, url: string, headers: Record<string, string>, body: string, config: EndpointConfig, signal: AbortSignal | undefined): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const origin = new URL(url).origin;
    let target = url;
    let response = await fetchImpl(target, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
    for (let hops = 0; response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400); hops++) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get('location');
      // A browser hides where an opaque redirect goes.
      if (response.type === 'opaqueredirect' || location === null) return { kind: 'redirect', status: response.status, to: null, why: 'a redirect the page cannot check' };
      const next = new URL(location, target);
      if (next.origin !== origin) return { kind: 'redirect', status: response.status, to: next.origin, why: 'another origin' };
      if (response.status !== 307 && response.status !== 308) return { kind: 'redirect', status: response.status, to: next.pathname, why: 'it would turn the POST into a GET' };
      if (hops >= MAX_REDIRECTS) return { kind: 'redirect', status: response.status, to: next.pathname, why: `more than ${MAX_REDIRECTS} redirects` };
      target = next.href;
      response = await fetchImpl(target, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
    }
    const text = await readCapped(response, config.maxResponseBytes);
    if (text === null) return { kind: 'too-large', status: response.status };
    return { kind: 'answer', status: response.status, text, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    if (signal?.aborted) return { kind: 'cancelled' };
    if (timedOut) return { kind: 'timeout' };
    // Node's fetch refuses the Fetch standard's "bad ports" before connecting: asking again cannot help.
    const badPort = (error as { cause?: { message?: unknown } })?.cause?.message === 'bad port';
    return { kind: 'network', message: networkMessage(error, config.apiKey), ...(badPort && { badPort }) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The JSON body of a request: its alias's extra parameters first, never replacing a field the engine set. */
export function requestBody(request: ChatRequest): Record<string, unknown> {
  const { params, ...fields } = request;
  return params ? { ...params, ...fields } : fields;
}

/**
 * The response with the key masked in every text it carries, in every field (an endpoint may echo
 * the key anywhere, and a field added later is masked too), after JSON decoding: the body was masked
 * as text before it was parsed, but a key written with `\u` escapes only appears once decoded. Tool
 * call arguments are JSON text themselves, so they are masked again as decoded.
 */
function maskResponse(response: ModelResponse, key: string | undefined): ModelResponse {
  if (!key) return response;
  const out = maskStrings(response, key) as ModelResponse;
  if (out.toolCalls) out.toolCalls = out.toolCalls.map((call) => ({ ...call, arguments: maskJsonText(call.arguments, key) }));
  return out;
}

/** Every string of a JSON-like value (keys included) with the key masked. */
function maskStrings(value: unknown, key: string): unknown {
  if (typeof value === 'string') return maskKey(value, key);
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskKey(k, key), maskStrings(v, key)]));
  return value;
}

/** JSON text with the key masked in what it decodes to; written again only when the key was there. */
function maskJsonText(text: string, key: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const written = JSON.stringify(value);
  const masked = JSON.stringify(maskStrings(value, key));
  return masked === written ? text : masked;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/** "connection refused (ECONNREFUSED)" and the like, from fetch's TypeError and its cause. */
function networkMessage(error: unknown, key: string | undefined): string {
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
  if (code) return `${known[code] ?? (typeof cause?.message === 'string' ? excerpt(maskKey(cause.message, key), 120) : 'network error')} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return excerpt(maskKey(typeof cause?.message === 'string' ? `${message}: ${cause.message}` : message, key), 160);
}
