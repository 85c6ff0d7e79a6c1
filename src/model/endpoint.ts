/**
 * Where model steps' requests go: an OpenAI-compatible endpoint (Ollama, llama.cpp's server,
 * vLLM, LM Studio, hosted APIs). Requests are `POST {baseUrl}/chat/completions`; the base URL is
 * kept as given (a `/v1` suffix is the user's to write), only trailing slashes are dropped.
 */
export interface EndpointConfig {
  /** Normalised base URL, without trailing slashes, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Model ids by alias; `default` is the alias a call without `model` uses. */
  models: Record<string, string>;
  /** Sent as `Authorization: Bearer KEY` when set; never written anywhere or put in a message. */
  apiKey?: string;
  /** Requests in flight at once (default 4). */
  concurrency: number;
  /** Time limit of one attempt, in ms (default 60 000). */
  timeoutMs: number;
  /** Attempts after the first on 408/409/429/5xx and network errors (default 5). */
  maxRetries: number;
  /** Largest answer read, in bytes (default 8 MiB); a longer one is a per-case error, not downloaded again. */
  maxResponseBytes: number;
}

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** What a caller gives: the base URL at least; the rest has defaults. */
export interface EndpointInput {
  baseUrl: string;
  models?: Record<string, string>;
  apiKey?: string;
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
  maxResponseBytes?: number;
}

/** A bad endpoint setting; the message names the field. */
export class EndpointConfigError extends Error {
  override name = 'EndpointConfigError';
}

const ALIAS = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A checked, normalised endpoint configuration, or an EndpointConfigError naming what is wrong. */
export function endpointConfig(input: EndpointInput): EndpointConfig {
  const baseUrl = normaliseBaseUrl(input.baseUrl);
  const models: Record<string, string> = {};
  for (const [alias, id] of Object.entries(input.models ?? {})) {
    if (!ALIAS.test(alias)) throw new EndpointConfigError(`models: alias "${alias}" must be 1 to 64 letters, digits or _ . : -`);
    if (typeof id !== 'string' || id.trim() === '' || id !== id.trim() || id.length > 256) {
      throw new EndpointConfigError(`models.${alias}: expected a model id (a non-empty string without surrounding spaces), got ${JSON.stringify(id)}`);
    }
    // An alias may be `__proto__`: define it as an own entry (assignment would set the prototype).
    Object.defineProperty(models, alias, { value: id, enumerable: true, writable: true, configurable: true });
  }
  const config: EndpointConfig = {
    baseUrl,
    models,
    concurrency: positiveInteger('concurrency', input.concurrency ?? DEFAULT_CONCURRENCY),
    timeoutMs: positiveInteger('timeoutMs', input.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxRetries: wholeNumber('maxRetries', input.maxRetries ?? DEFAULT_MAX_RETRIES),
    maxResponseBytes: positiveInteger('maxResponseBytes', input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
  };
  if (input.apiKey !== undefined && input.apiKey !== '') {
    // No value in this message: a key pasted in the wrong field must not be echoed.
    if (typeof input.apiKey !== 'string' || /[\s\u0000-\u001f]/.test(input.apiKey)) throw new EndpointConfigError('apiKey: must be one line of printable characters without spaces');
    config.apiKey = input.apiKey;
  }
  return config;
}

/** `http(s)://host[:port][/path]` without trailing slashes, query or fragment; else an error. */
export function normaliseBaseUrl(raw: string): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EndpointConfigError(`baseUrl: "${text}" is not a URL; expected e.g. http://127.0.0.1:11434/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EndpointConfigError(`baseUrl: expected an http or https URL, got "${url.protocol}" in "${text}"`);
  if (url.username !== '' || url.password !== '') throw new EndpointConfigError('baseUrl: must not hold a user name or password (give the API key separately)');
  if (url.search !== '' || url.hash !== '') throw new EndpointConfigError(`baseUrl: must not have a query or fragment, got "${text}"`);
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/(chat\/)?completions$/.test(path)) {
    throw new EndpointConfigError(`baseUrl: give the base URL without "${/chat\//.test(path) ? '/chat/completions' : '/completions'}" (requests go to BASE/chat/completions): ${url.origin}${path.replace(/\/(chat\/)?completions$/, '')}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The chat completions URL of an endpoint. */
export function chatCompletionsUrl(config: Pick<EndpointConfig, 'baseUrl'>): string {
  return `${config.baseUrl}/chat/completions`;
}

/** The model list URL of an endpoint. */
export function modelsUrl(config: Pick<EndpointConfig, 'baseUrl'>): string {
  return `${config.baseUrl}/models`;
}

function positiveInteger(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new EndpointConfigError(`${field}: expected a positive whole number, got ${JSON.stringify(value)}`);
  return value;
}

function wholeNumber(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new EndpointConfigError(`${field}: expected a whole number (0 or more), got ${JSON.stringify(value)}`);
  return value;
}
