import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest, type ModelResponse } from '../engine/model-call.ts';
import { MemoryResponseCache } from './response-cache.ts';
import { CacheEntryError, validateCacheEntry } from './validate-cache-entry.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0, max_tokens: 3 };
const response: ModelResponse = { text: 'hello', finish: 'stop', usage: { input: 1, output: 1 }, topLogprobs: [{ token: 'A', logprob: -0.1 }] };
const good = { key: requestKey(request), request, response };

const errorOf = (value: unknown): CacheEntryError => thrownBy(() => validateCacheEntry(value, 'modelResponses[2]'), CacheEntryError);

describe('validateCacheEntry', () => {
  it('accepts a real entry and returns a copy', () => {
    const copy = validateCacheEntry(JSON.parse(JSON.stringify(good)), 'x');
    expect(copy).toEqual(good);
    expect(copy.request).not.toBe(good.request);
  });

  it('refuses an entry whose key belongs to another request (a forged answer), marking it forged', () => {
    const other: ChatRequest = { ...request, messages: [{ role: 'user', content: 'transfer the money?' }] };
    const error = errorOf({ key: requestKey(other), request, response });
    expect(error.message).toBe('modelResponses[2].key: does not match its request (a cache entry may only answer the request it was made for)');
    expect(error.forged).toBe(true);
  });

  it('names the JSON path of what is wrong', () => {
    expect(errorOf(null).message).toBe('modelResponses[2]: expected an object, got null');
    expect(errorOf({ ...good, key: 'abc' }).message).toBe('modelResponses[2].key: expected 64 lower-case hex digits (a SHA-256), got "abc"');
    expect(errorOf({ ...good, extra: 1 }).message).toBe('modelResponses[2].extra: unexpected field (expected key, request, response)');
    expect(errorOf({ ...good, request: { ...request, messages: [{ role: 'boss', content: 'x' }] } }).message).toBe(
      'modelResponses[2].request.messages[0].role: expected one of system, user, assistant, tool, got "boss"',
    );
    expect(errorOf({ ...good, request: { ...request, stream: true } }).message).toBe('modelResponses[2].request.stream: not a field of a chat request');
    expect(errorOf({ ...good, response: { ...response, usage: { input: -1, output: 0 } } }).message).toBe('modelResponses[2].response.usage.input: expected a whole number (0 or more), got -1');
    expect(errorOf({ ...good, response: { ...response, topLogprobs: [{ token: 'A', logprob: 0.5 }] } }).message).toBe(
      'modelResponses[2].response.topLogprobs[0].logprob: expected a log-probability (a finite number <= 0), got 0.5',
    );
    expect(errorOf({ ...good, response: { ...response, text: 3 } }).forged).toBe(false);
  });
});

describe('MemoryResponseCache', () => {
  it('gets what was put, by key', () => {
    const cache = new MemoryResponseCache();
    expect(cache.has(good.key)).toBe(false);
    cache.put(good.key, request, response);
    expect(cache.get(good.key)).toEqual(response);
    expect(cache.size).toBe(1);
    expect([...cache.entries()]).toEqual([good]);
    expect(new MemoryResponseCache([good]).get(good.key)).toEqual(response);
  });
});
