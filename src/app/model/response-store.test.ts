import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../../engine/model-call.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';
import { ResponseStore } from './response-store.ts';

const entry = (text: string) => {
  const request: ChatRequest = { model: 'toy-1', messages: [{ role: 'user', content: text }], temperature: 0 };
  return { key: requestKey(request), request, response: toyAnswer(request) };
};

describe('ResponseStore', () => {
  it('keeps responses across instances (a reload) and never replaces one', async () => {
    const a = entry('hello');
    const b = entry('world');
    await new ResponseStore().putMany([a, b]);
    const again = new ResponseStore();
    const found = await again.getMany([a.key, b.key, 'f'.repeat(64)]);
    expect([...found.keys()]).toEqual([a.key, b.key]);
    expect(found.get(a.key)).toEqual(a);
    await again.putMany([{ ...a, response: { ...a.response, text: 'changed' } }]);
    expect((await again.getMany([a.key])).get(a.key)!.response.text).toBe(a.response.text);
    expect(await again.count()).toBeGreaterThanOrEqual(2);
  });

  it('replaces a stored answer that cannot serve its request with a fresh one that can, and only then', async () => {
    // A log-probability request: an answer without log-probabilities cannot serve it (a server without that support).
    const request: ChatRequest = { model: 'toy-1', messages: [{ role: 'user', content: 'score this' }], temperature: 0, logprobs: true, top_logprobs: 5 };
    const key = requestKey(request);
    const unusable = { key, request, response: { text: 'yes', finish: 'stop' as const, usage: { input: 2, output: 1 } } };
    const usable = { ...unusable, response: { ...unusable.response, topLogprobs: [{ token: 'yes', logprob: -0.1 }] } };
    const store = new ResponseStore();
    await store.putMany([unusable]);
    // Another unusable answer changes nothing.
    await store.putMany([{ ...unusable, response: { ...unusable.response, text: 'no' } }]);
    expect((await store.getMany([key])).get(key)).toEqual(unusable);
    // The fresh usable answer the host got when it asked again replaces it.
    await store.putMany([usable]);
    expect((await new ResponseStore().getMany([key])).get(key)).toEqual(usable);
    // And is itself never replaced.
    await store.putMany([{ ...usable, response: { ...usable.response, text: 'later' } }]);
    expect((await store.getMany([key])).get(key)).toEqual(usable);
  });

  it('replaces an entry whose key is not its request\'s', async () => {
    const good = entry('keyed');
    const other = entry('another request');
    const store = new ResponseStore();
    // Stored under good's key, but answering another request: the host never uses it.
    await store.putMany([{ ...other, key: good.key }]);
    await store.putMany([good]);
    expect((await store.getMany([good.key])).get(good.key)).toEqual(good);
  });
});
