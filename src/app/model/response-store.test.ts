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
});
