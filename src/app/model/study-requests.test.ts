import { describe, expect, it } from 'vitest';
import type { PricedRequest } from '../runs/price-table.svelte.ts';
import { StudyRequests, studyRequestKeys } from './study-requests.svelte.ts';

const entry = (model: string, input: number, output: number): PricedRequest => ({ request: { model }, response: { usage: { input, output } } });

describe('the requests of a study', () => {
  it('reads each key its results name once, and asks again for the ones the store lacked', async () => {
    const store = new Map([['k1', entry('m1', 10, 1)], ['k2', entry('m2', 20, 2)]]);
    const asked: string[][] = [];
    const requests = new StudyRequests(async (keys) => {
      asked.push([...keys]);
      return new Map(keys.flatMap((k) => (store.has(k) ? [[k, store.get(k)!] as const] : [])));
    });
    expect(studyRequestKeys([{ modelKeys: ['k2', 'k1'] }, undefined, { modelKeys: ['k1', 'k3'] }, {}])).toEqual(['k1', 'k2', 'k3']);
    await requests.update(['k1', 'k2', 'k3']);
    expect(requests.requests).toEqual([entry('m1', 10, 1), entry('m2', 20, 2)]);
    expect(requests.missing).toBe(1);
    store.set('k3', entry('m1', 5, 5));
    await requests.update(['k1', 'k2', 'k3']);
    expect(asked).toEqual([['k1', 'k2', 'k3'], ['k3']]);
    expect(requests.requests).toHaveLength(3);
    expect(requests.missing).toBe(0);
  });

  it('keeps the latest update when an earlier read ends after it', async () => {
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const requests = new StudyRequests(async (keys) => {
      if (keys.includes('old')) await slow;
      return new Map(keys.map((k) => [k, entry(k, 1, 1)] as const));
    });
    const first = requests.update(['old']);
    await requests.update(['new']);
    release();
    await first;
    expect(requests.requests.map((r) => r.request.model)).toEqual(['new']);
  });

  it('counts the keys as missing when the store cannot be read', async () => {
    const requests = new StudyRequests(async () => {
      throw new Error('blocked');
    });
    await requests.update(['a', 'b']);
    expect(requests.requests).toEqual([]);
    expect(requests.missing).toBe(2);
  });
});
