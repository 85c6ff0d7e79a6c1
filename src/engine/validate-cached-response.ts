import { requestKey, type ChatMessage, type ChatRequest, type ModelResponse } from './model-call.ts';

/**
 * Makes the caller's error for a problem at `path` (a JSON path such as `modelCache[3].request`);
 * `forged` is set when the entry is well formed but its key is not its request's.
 */
export type CachedResponseFail = (path: string, detail: string, forged?: boolean) => Error;

/** One cached model response: the request as sent, its key, and what the endpoint answered. */
export interface CheckedCacheEntry {
  key: string;
  request: ChatRequest;
  response: ModelResponse;
}

const ROLES: readonly ChatMessage['role'][] = ['system', 'user', 'assistant', 'tool'];
const REQUEST_FIELDS = ['model', 'messages', 'temperature', 'top_p', 'max_tokens', 'stop', 'seed', 'logprobs', 'top_logprobs', 'params', 'tools'];
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Check an untrusted cached model response (a `--cache` file's line, a session's `modelCache`, a
 * report's responses) and return a fresh plain copy; every problem is `fail(path, detail)` with
 * the JSON path below `path`. The key must be requestKey(request): an entry must never answer a
 * request other than the one it was made for (`fail(..., true)` then, so a reader can drop a
 * forged or stale entry instead of refusing the file).
 */
export function checkCacheEntry(value: unknown, path: string, fail: CachedResponseFail): CheckedCacheEntry {
  const entry = record(value, path, fail);
  onlyFields(entry, path, ['key', 'request', 'response'], fail);
  if (typeof entry.key !== 'string' || !/^[0-9a-f]{64}$/.test(entry.key)) throw fail(`${path}.key`, `expected 64 lower-case hex digits (a SHA-256), got ${short(entry.key)}`);
  const request = checkChatRequest(entry.request, `${path}.request`, fail);
  const response = checkModelResponse(entry.response, `${path}.response`, fail);
  if (requestKey(request) !== entry.key) throw fail(`${path}.key`, 'does not match its request (a cache entry may only answer the request it was made for)', true);
  return { key: entry.key, request, response };
}

/** A ChatRequest copied field by field; anything else fails naming its path. */
function checkChatRequest(value: unknown, path: string, fail: CachedResponseFail): ChatRequest {
  const r = record(value, path, fail);
  for (const name of Object.keys(r)) if (!REQUEST_FIELDS.includes(name)) throw fail(fieldPath(path, name), 'not a field of a chat request');
  if (typeof r.model !== 'string' || r.model === '') throw fail(`${path}.model`, `expected a model id, got ${short(r.model)}`);
  if (!Array.isArray(r.messages) || r.messages.length === 0) throw fail(`${path}.messages`, 'expected a non-empty array');
  const messages: ChatMessage[] = r.messages.map((m: unknown, k: number) => {
    const at = `${path}.messages[${k}]`;
    const message = record(m, at, fail);
    onlyFields(message, at, ['role', 'content', 'tool_calls', 'tool_call_id'], fail);
    const role = ROLES.find((known) => known === message.role);
    if (role === undefined) throw fail(`${at}.role`, `expected one of ${ROLES.join(', ')}, got ${short(message.role)}`);
    if (typeof message.content !== 'string') throw fail(`${at}.content`, 'expected a string');
    const out: ChatMessage = { role, content: message.content };
    if (message.tool_calls !== undefined) {
      out.tool_calls = list(message.tool_calls, `${at}.tool_calls`, fail, (call, where) => {
        onlyFields(call, where, ['id', 'type', 'function'], fail);
        const fn = record(call.function, `${where}.function`, fail);
        onlyFields(fn, `${where}.function`, ['name', 'arguments'], fail);
        if (typeof call.id !== 'string' || call.type !== 'function' || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') throw fail(where, 'expected { id, type: "function", function: { name, arguments } } strings');
        return { id: call.id, type: 'function' as const, function: { name: fn.name, arguments: fn.arguments } };
      });
    }
    if (message.tool_call_id !== undefined) {
      if (typeof message.tool_call_id !== 'string') throw fail(`${at}.tool_call_id`, 'expected a string');
      out.tool_call_id = message.tool_call_id;
    }
    return out;
  });
  const request: ChatRequest = { model: r.model, messages };
  if (r.temperature !== undefined) {
    if (typeof r.temperature !== 'number' || !Number.isFinite(r.temperature) || r.temperature < 0) throw fail(`${path}.temperature`, `expected a number >= 0, got ${short(r.temperature)}`);
    request.temperature = r.temperature;
  }
  if (r.top_p !== undefined) {
    if (typeof r.top_p !== 'number' || !Number.isFinite(r.top_p) || r.top_p <= 0 || r.top_p > 1) throw fail(`${path}.top_p`, `expected a number above 0 and at most 1, got ${short(r.top_p)}`);
    request.top_p = r.top_p;
  }
  if (r.max_tokens !== undefined) request.max_tokens = wholeNumber(r.max_tokens, `${path}.max_tokens`, fail);
  if (r.stop !== undefined) {
    if (!Array.isArray(r.stop) || !r.stop.every((s: unknown) => typeof s === 'string')) throw fail(`${path}.stop`, 'expected an array of strings');
    request.stop = [...(r.stop as string[])];
  }
  if (r.seed !== undefined) request.seed = wholeNumber(r.seed, `${path}.seed`, fail);
  if (r.logprobs !== undefined) {
    if (typeof r.logprobs !== 'boolean') throw fail(`${path}.logprobs`, 'expected true or false');
    request.logprobs = r.logprobs;
  }
  if (r.top_logprobs !== undefined) request.top_logprobs = wholeNumber(r.top_logprobs, `${path}.top_logprobs`, fail);
  if (r.params !== undefined) request.params = jsonObject(r.params, `${path}.params`, fail);
  if (r.tools !== undefined) {
    if (!Array.isArray(r.tools)) throw fail(`${path}.tools`, 'expected an array of function definitions');
    // Copied as JSON, not through jsonObject: a tool's parameter schema may nest deeper than params do.
    request.tools = r.tools.map((t: unknown, k: number) => JSON.parse(JSON.stringify(record(t, `${path}.tools[${k}]`, fail))) as unknown);
  }
  return request;
}

/** A ModelResponse copied field by field; anything else fails naming its path. */
export function checkModelResponse(value: unknown, path: string, fail: CachedResponseFail): ModelResponse {
  const r = record(value, path, fail);
  onlyFields(r, path, ['text', 'finish', 'usage', 'topLogprobs', 'served', 'toolCalls'], fail);
  if (typeof r.text !== 'string') throw fail(`${path}.text`, 'expected a string');
  if (typeof r.finish !== 'string') throw fail(`${path}.finish`, 'expected a string');
  const usage = record(r.usage, `${path}.usage`, fail);
  onlyFields(usage, `${path}.usage`, ['input', 'output'], fail);
  const response: ModelResponse = { text: r.text, finish: r.finish, usage: { input: wholeNumber(usage.input, `${path}.usage.input`, fail), output: wholeNumber(usage.output, `${path}.usage.output`, fail) } };
  if (r.topLogprobs !== undefined) {
    response.topLogprobs = list(r.topLogprobs, `${path}.topLogprobs`, fail, (top, at) => {
      onlyFields(top, at, ['token', 'logprob'], fail);
      if (typeof top.token !== 'string') throw fail(`${at}.token`, 'expected a string');
      if (typeof top.logprob !== 'number' || !Number.isFinite(top.logprob) || top.logprob > 0) throw fail(`${at}.logprob`, `expected a log-probability (a finite number <= 0), got ${short(top.logprob)}`);
      return { token: top.token, logprob: top.logprob };
    });
  }
  if (r.served !== undefined) {
    const served = record(r.served, `${path}.served`, fail);
    onlyFields(served, `${path}.served`, ['model', 'fingerprint', 'identity'], fail);
    response.served = {};
    for (const name of ['model', 'fingerprint', 'identity'] as const) {
      const v = served[name];
      if (v === undefined) continue;
      if (typeof v !== 'string' || v.length > 1000) throw fail(`${path}.served.${name}`, 'expected a string of at most 1000 characters');
      response.served[name] = v;
    }
  }
  if (r.toolCalls !== undefined) {
    response.toolCalls = list(r.toolCalls, `${path}.toolCalls`, fail, (call, at) => {
      onlyFields(call, at, ['id', 'name', 'arguments'], fail);
      if (typeof call.name !== 'string' || typeof call.arguments !== 'string' || (call.id !== undefined && typeof call.id !== 'string')) throw fail(at, 'expected { id?, name, arguments } strings');
      return { ...(typeof call.id === 'string' && { id: call.id }), name: call.name, arguments: call.arguments };
    });
  }
  return response;
}

/** An array of objects, each read by `read` with its own path. */
function list<T>(value: unknown, path: string, fail: CachedResponseFail, read: (item: Record<string, unknown>, path: string) => T): T[] {
  if (!Array.isArray(value)) throw fail(path, 'expected an array');
  return value.map((item: unknown, k: number) => read(record(item, `${path}[${k}]`, fail), `${path}[${k}]`));
}

/** A plain JSON object (strings, finite numbers, booleans, null, arrays, objects; at most 8 levels), copied. */
function jsonObject(value: unknown, path: string, fail: CachedResponseFail): Record<string, unknown> {
  const copy = (v: unknown, at: string, depth: number): unknown => {
    if (depth > 8) throw fail(at, 'nested too deep (at most 8 levels)');
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw fail(at, `expected a number, got ${short(v)}`);
      return v;
    }
    if (Array.isArray(v)) return v.map((x, k) => copy(x, `${at}[${k}]`, depth + 1));
    const o = record(v, at, fail);
    const out: Record<string, unknown> = {};
    // Defined, not assigned, so a key named __proto__ stays a plain key.
    for (const [k, x] of Object.entries(o)) Object.defineProperty(out, k, { value: copy(x, fieldPath(at, k), depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return copy(record(value, path, fail), path, 0) as Record<string, unknown>;
}

function record(value: unknown, path: string, fail: CachedResponseFail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(path, `expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  return value as Record<string, unknown>;
}

function onlyFields(value: Record<string, unknown>, path: string, allowed: readonly string[], fail: CachedResponseFail): void {
  for (const name of Object.keys(value)) if (!allowed.includes(name)) throw fail(fieldPath(path, name), `unexpected field (expected ${allowed.join(', ')})`);
}

function wholeNumber(value: unknown, path: string, fail: CachedResponseFail): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw fail(path, `expected a whole number (0 or more), got ${short(value)}`);
  return value;
}

/** A field's path; a name that is not an identifier is quoted, so a path never carries control characters. */
function fieldPath(path: string, name: string): string {
  return IDENTIFIER.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
