import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest, type ModelResponse } from '../engine/model-call.ts';
import { validateCacheEntry } from '../model/index.ts';
import { validateModelCache } from '../session/validate-study.ts';

/**
 * A cached model response reaches the program two ways: a `--cache` file or the page's stored
 * responses (validateCacheEntry) and a session's `modelCache` (validateModelCache). Both must
 * refuse the same entries with the same words, or a file refused one way could be let in the other.
 */
const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0, max_tokens: 3, tools: [{ type: 'function', function: { name: 'f' } }], params: { top_k: 4 } };
const response: ModelResponse = { text: 'hello', finish: 'stop', usage: { input: 1, output: 1 }, topLogprobs: [{ token: 'A', logprob: -0.1 }], served: { model: 'm' }, toolCalls: [{ name: 'f', arguments: '{}' }] };

/** An entry whose key is its request's, so only what was broken is wrong. */
function entry(req: Record<string, unknown>, res: Record<string, unknown> = { ...response }): Record<string, unknown> {
  return { key: requestKey(req as unknown as ChatRequest), request: req, response: res };
}

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

const bad: [string, unknown][] = [
  ['not an object', null],
  ['a short key', { ...entry({ ...request }), key: 'abc' }],
  ['an extra field', { ...entry({ ...request }), extra: 1 }],
  ['a key of another request', { ...entry({ ...request }), key: requestKey({ ...request, model: 'other' }) }],
  ['an empty model', entry({ ...request, model: '' })],
  ['no messages', entry({ ...request, messages: [] })],
  ['an unknown role', entry({ ...request, messages: [{ role: 'boss', content: 'x' }] })],
  ['a negative temperature', entry({ ...request, temperature: -1 })],
  ['a fractional max_tokens', entry({ ...request, max_tokens: 1.5 })],
  ['a stop list with a number', entry({ ...request, stop: ['a', 3] })],
  ['a tool that is not an object', entry({ ...request, tools: ['search'] })],
  ['params nested too deep', entry({ ...request, params: { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: 1 } } } } } } } } } } })],
  ['a field no request has', entry({ ...request, stream: true })],
  ['a response without text', entry({ ...request }, { ...response, text: undefined })],
  ['negative usage', entry({ ...request }, { ...response, usage: { input: -1, output: 0 } })],
  ['a positive log-probability', entry({ ...request }, { ...response, topLogprobs: [{ token: 'A', logprob: 0.5 }] })],
  ['a served field no endpoint reports', entry({ ...request }, { ...response, served: { gpu: 'x' } })],
  ['a tool call without arguments', entry({ ...request }, { ...response, toolCalls: [{ name: 'f' }] })],
];

describe('the two readers of a cached model response', () => {
  it('accept the same entry and copy it the same way', () => {
    const good = entry({ ...request });
    expect(validateModelCache([good], 'modelCache')).toEqual([validateCacheEntry(good, 'modelCache[0]')]);
  });

  it.each(bad)('refuse %s with the same path and words', (_what, value) => {
    const asCache = refusal(() => validateCacheEntry(value, 'modelCache[0]'));
    const asSession = refusal(() => validateModelCache([value], 'modelCache'));
    expect(asCache).toMatch(/^modelCache\[0\]/);
    expect(asSession).toBe(asCache);
  });
});
