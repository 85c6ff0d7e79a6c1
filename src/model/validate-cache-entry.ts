import { requestKey, type ChatMessage, type ChatRequest, type ModelResponse } from '../engine/model-call.ts';
import type { CacheEntry } from './response-cache.ts';

/** An untrusted cache entry that is not one; the message starts with its JSON path. */
export class CacheEntryError extends Error {
  override name = 'CacheEntryError';
  constructor(
    message: string,
    /** True when the entry is well formed but its key is not its request's: a forged or stale entry. */
    readonly forged = false,
  ) {
    super(message);
  }
}

const ROLES: readonly string[] = ['system', 'user', 'assistant', 'tool'];
const REQUEST_FIELDS = new Set(['model', 'messages', 'temperature', 'max_tokens', 'stop', 'seed', 'logprobs', 'top_logprobs', 'tools']);

/**
 * Check an untrusted response cache entry (from a session file, a report or a `--cache` file) and
 * return a fresh plain copy. `path` names it in errors, e.g. `modelResponses[3]`. The key must be
 * requestKey(request): an entry must never answer a request other than the one it was made for
 * (such an entry throws with `forged` set, so a reader can drop it instead of refusing the file).
 */
export function validateCacheEntry(value: unknown, path: string): CacheEntry {
  const entry = record(value, path);
  onlyFields(entry, path, ['key', 'request', 'response']);
  if (typeof entry.key !== 'string' || !/^[0-9a-f]{64}$/.test(entry.key)) throw new CacheEntryError(`${path}.key: expected 64 lower-case hex digits (a SHA-256), got ${short(entry.key)}`);
  const request = validateChatRequest(entry.request, `${path}.request`);
  const response = validateModelResponse(entry.response, `${path}.response`);
  if (requestKey(request) !== entry.key) throw new CacheEntryError(`${path}.key: does not match its request (a cache entry may only answer the request it was made for)`, true);
  return { key: entry.key, request, response };
}

/** A ChatRequest copied field by field; anything else is an error naming its path. */
export function validateChatRequest(value: unknown, path: string): ChatRequest {
  const r = record(value, path);
  for (const name of Object.keys(r)) if (!REQUEST_FIELDS.has(name)) throw new CacheEntryError(`${path}.${name}: not a field of a chat request`);
  if (typeof r.model !== 'string' || r.model === '') throw new CacheEntryError(`${path}.model: expected a model id, got ${short(r.model)}`);
  if (!Array.isArray(r.messages) || r.messages.length === 0) throw new CacheEntryError(`${path}.messages: expected a non-empty array`);
  const messages: ChatMessage[] = r.messages.map((m: unknown, k: number) => {
    const at = `${path}.messages[${k}]`;
    const message = record(m, at);
    onlyFields(message, at, ['role', 'content']);
    if (typeof message.role !== 'string' || !ROLES.includes(message.role)) throw new CacheEntryError(`${at}.role: expected one of ${ROLES.join(', ')}, got ${short(message.role)}`);
    if (typeof message.content !== 'string') throw new CacheEntryError(`${at}.content: expected a string`);
    return { role: message.role as ChatMessage['role'], content: message.content };
  });
  const request: ChatRequest = { model: r.model, messages };
  if (r.temperature !== undefined) request.temperature = finiteNumber(r.temperature, `${path}.temperature`);
  if (r.max_tokens !== undefined) request.max_tokens = wholeNumber(r.max_tokens, `${path}.max_tokens`);
  if (r.stop !== undefined) {
    if (!Array.isArray(r.stop) || !r.stop.every((s: unknown) => typeof s === 'string')) throw new CacheEntryError(`${path}.stop: expected an array of strings`);
    request.stop = [...(r.stop as string[])];
  }
  if (r.seed !== undefined) request.seed = wholeNumber(r.seed, `${path}.seed`);
  if (r.logprobs !== undefined) {
    if (typeof r.logprobs !== 'boolean') throw new CacheEntryError(`${path}.logprobs: expected true or false`);
    request.logprobs = r.logprobs;
  }
  if (r.top_logprobs !== undefined) request.top_logprobs = wholeNumber(r.top_logprobs, `${path}.top_logprobs`);
  if (r.tools !== undefined) {
    if (!Array.isArray(r.tools)) throw new CacheEntryError(`${path}.tools: expected an array of function definitions`);
    request.tools = JSON.parse(JSON.stringify(r.tools)) as unknown[];
  }
  return request;
}

/** A ModelResponse copied field by field; anything else is an error naming its path. */
export function validateModelResponse(value: unknown, path: string): ModelResponse {
  const r = record(value, path);
  onlyFields(r, path, ['text', 'finish', 'usage', 'topLogprobs', 'toolCalls']);
  if (typeof r.text !== 'string') throw new CacheEntryError(`${path}.text: expected a string`);
  if (typeof r.finish !== 'string') throw new CacheEntryError(`${path}.finish: expected a string`);
  const usage = record(r.usage, `${path}.usage`);
  onlyFields(usage, `${path}.usage`, ['input', 'output']);
  const response: ModelResponse = { text: r.text, finish: r.finish, usage: { input: wholeNumber(usage.input, `${path}.usage.input`), output: wholeNumber(usage.output, `${path}.usage.output`) } };
  if (r.topLogprobs !== undefined) {
    if (!Array.isArray(r.topLogprobs)) throw new CacheEntryError(`${path}.topLogprobs: expected an array`);
    response.topLogprobs = r.topLogprobs.map((t: unknown, k: number) => {
      const at = `${path}.topLogprobs[${k}]`;
      const top = record(t, at);
      onlyFields(top, at, ['token', 'logprob']);
      if (typeof top.token !== 'string') throw new CacheEntryError(`${at}.token: expected a string`);
      if (typeof top.logprob !== 'number' || !Number.isFinite(top.logprob) || top.logprob > 0) throw new CacheEntryError(`${at}.logprob: expected a log-probability (a finite number <= 0), got ${short(top.logprob)}`);
      return { token: top.token, logprob: top.logprob };
    });
  }
  if (r.toolCalls !== undefined) {
    if (!Array.isArray(r.toolCalls)) throw new CacheEntryError(`${path}.toolCalls: expected an array`);
    response.toolCalls = r.toolCalls.map((c: unknown, k: number) => {
      const at = `${path}.toolCalls[${k}]`;
      const call = record(c, at);
      onlyFields(call, at, ['name', 'arguments']);
      if (typeof call.name !== 'string' || typeof call.arguments !== 'string') throw new CacheEntryError(`${at}: expected { name, arguments } strings`);
      return { name: call.name, arguments: call.arguments };
    });
  }
  return response;
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CacheEntryError(`${path}: expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  return value as Record<string, unknown>;
}

function onlyFields(value: Record<string, unknown>, path: string, allowed: readonly string[]): void {
  for (const name of Object.keys(value)) if (!allowed.includes(name)) throw new CacheEntryError(`${path}.${name}: unexpected field (expected ${allowed.join(', ')})`);
}

function finiteNumber(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CacheEntryError(`${path}: expected a number, got ${short(value)}`);
  return value;
}

function wholeNumber(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new CacheEntryError(`${path}: expected a whole number (0 or more), got ${short(value)}`);
  return value;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
