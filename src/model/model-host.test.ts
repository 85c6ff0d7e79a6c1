import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isModelFailure, requestKey, type ChatRequest, type ModelAnswer } from '../engine/model-call.ts';
import { endpointConfig, type EndpointInput } from './endpoint.ts';
import { ModelRequestCancelled } from './endpoint-error.ts';
import { openCaches } from './jsonl-cache.node.ts';
import { ModelHost, type HostRequest, type ModelProgress, type RequestRecord } from './model-host.ts';
import { MemoryResponseCache } from './response-cache.ts';
import type { FakeEndpoint } from './testing/fake-endpoint.ts';
import { useFakeEndpoints } from './testing/use-fake-endpoints.ts';
import { fakeModelAnswer } from './testing/fake-model.ts';
import { settle } from '../app/testing/settle.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const fake = useFakeEndpoints();

function chat(k: number): ChatRequest {
  return { model: 'fake-model', messages: [{ role: 'user', content: `question ${k}` }], temperature: 0 };
}

function pending(k: number, caseId = 'c0', step = 'draft'): HostRequest {
  const request = chat(k);
  return { key: requestKey(request), request, step, caseId };
}

function host(endpoint: FakeEndpoint, input: Partial<EndpointInput> = {}, extra: ConstructorParameters<typeof ModelHost>[0] = {}): ModelHost {
  return new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url, models: { default: 'fake-model' }, ...input }), send: { sleep: async () => {} }, ...extra });
}

/** The fake model's answer as it comes through the endpoint: with the `model` the endpoint reports. */
function fromFake(request: ChatRequest) {
  return { ...fakeModelAnswer(request), served: { model: request.model } };
}

function bodies(endpoint: FakeEndpoint): string[] {
  return endpoint.requests.map((r) => JSON.stringify(r));
}

describe('ModelHost', () => {
  it('answers from the cache without sending, charging each distinct hit to the first case that needed it', async () => {
    const endpoint = await fake();
    const cache = new MemoryResponseCache();
    cache.put(pending(1).key, chat(1), fakeModelAnswer(chat(1)));
    const h = host(endpoint, {}, { cache });
    const answers = await h.resolve([pending(1, 'a'), pending(1, 'a')]);
    expect(answers.get(pending(1).key)).toEqual(fakeModelAnswer(chat(1)));
    await h.resolve([pending(1, 'b')]);
    expect(endpoint.requests).toEqual([]);
    // A hit is charged the tokens the cached answer cost when it was fetched.
    expect(h.usage('a')).toEqual({ requests: 0, cacheHits: 1, inputTokens: fakeModelAnswer(chat(1)).usage.input, outputTokens: 1 });
    expect(h.usage('b')).toEqual({ requests: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('sends each distinct request once, also when cases ask for it at the same time, and puts it in the cache', async () => {
    const endpoint = await fake({ latencyMs: 30 });
    const h = host(endpoint);
    const [a, b] = await Promise.all([h.resolve([pending(1, 'a'), pending(2, 'a')]), h.resolve([pending(2, 'b'), pending(3, 'b'), pending(1, 'b')])]);
    expect(a.get(pending(2).key)).toEqual(b.get(pending(2).key));
    expect(bodies(endpoint).sort()).toEqual([chat(1), chat(2), chat(3)].map((r) => JSON.stringify(r)).sort());
    // Answered before: never sent again in this host's life.
    await h.resolve([pending(1, 'c'), pending(3, 'c')]);
    expect(endpoint.requests).toHaveLength(3);
    expect(h.cache.size).toBe(3);
    const tokens = fakeModelAnswer(chat(1)).usage.input;
    expect(h.usage('a')).toEqual({ requests: 2, cacheHits: 0, inputTokens: 2 * tokens, outputTokens: 2 });
    expect(h.usage('b')).toEqual({ requests: 1, cacheHits: 0, inputTokens: tokens, outputTokens: 1 });
    expect(h.usage('c')).toEqual({ requests: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 });
    expect(h.totalUsage()).toEqual({ requests: 3, cacheHits: 0, inputTokens: 3 * tokens, outputTokens: 3 });
  });

  it('tells onRequest how each distinct request was settled: from the cache, sent (latency, tokens) or failed, once each', async () => {
    const endpoint = await fake();
    const cache = new MemoryResponseCache();
    cache.put(pending(1).key, chat(1), fakeModelAnswer(chat(1)));
    let clock = 1000;
    const records: RequestRecord[] = [];
    const h = host(endpoint, {}, { cache, send: { sleep: async () => {}, now: () => (clock += 5) }, onRequest: (r) => records.push(r) });
    endpoint.faultWhen((r) => r.messages[0].content === 'question 3', { kind: 'status', status: 400, message: 'bad prompt' });
    await h.resolve([pending(1, 'a', 'plan'), pending(2, 'a', 'draft'), pending(3, 'b', 'judge')]);
    await h.resolve([pending(1, 'c'), pending(2, 'c')]);
    const by = new Map(records.map((r) => [r.prompt, r]));
    expect(records).toHaveLength(3);
    expect(by.get('question 1')).toMatchObject({ source: 'cache', caseId: 'a', step: 'plan', model: 'fake-model', inputTokens: fakeModelAnswer(chat(1)).usage.input });
    expect(by.get('question 1')?.latencyMs).toBeUndefined();
    expect(by.get('question 2')).toMatchObject({ source: 'sent', caseId: 'a', step: 'draft', outputTokens: 1, answer: fakeModelAnswer(chat(2)).text });
    expect(by.get('question 2')?.latencyMs).toBeGreaterThan(0);
    expect(by.get('question 2')?.error).toBeUndefined();
    expect(by.get('question 3')).toMatchObject({ source: 'sent', caseId: 'b', step: 'judge' });
    expect(by.get('question 3')?.error).toMatch(/bad prompt/);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const endpoint = await fake({ latencyMs: 20 });
    const h = host(endpoint, { concurrency: 3 });
    const seen: ModelProgress[] = [];
    const h2 = new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url, concurrency: 3 }), onProgress: (p) => seen.push(p) });
    await Promise.all(Array.from({ length: 12 }, (_, k) => h.resolve([pending(k, `c${k % 4}`)])));
    expect(endpoint.requests).toHaveLength(12);
    // The bound is what matters; how many overlap at the server depends on the machine's load.
    expect(endpoint.maxInFlight).toBeLessThanOrEqual(3);
    await h2.resolve(Array.from({ length: 8 }, (_, k) => pending(100 + k)));
    expect(Math.max(...seen.map((p) => p.inFlight))).toBe(3);
    expect(Math.max(...seen.map((p) => p.queued))).toBe(5);
    expect(seen.at(-1)).toEqual({ queued: 0, inFlight: 0, done: 8, failed: 0, cacheHits: 0, held: false });
  });

  it('askAbove: sends that many requests, holds the rest (cache hits still answered) until release()', async () => {
    const endpoint = await fake();
    const cache = new MemoryResponseCache();
    cache.put(pending(0).key, chat(0), fakeModelAnswer(chat(0)));
    const seen: ModelProgress[] = [];
    const h = host(endpoint, { concurrency: 2 }, { cache, askAbove: 3, onProgress: (p) => seen.push(p) });
    const waiting = h.resolve(Array.from({ length: 8 }, (_, k) => pending(k)));
    const cached = await h.resolve([pending(0, 'other')]);
    expect(cached.get(pending(0).key)).toEqual(fakeModelAnswer(chat(0)));
    await vi.waitFor(() => expect(h.progress()).toMatchObject({ done: 3, inFlight: 0, queued: 4, cacheHits: 1, held: true }));
    expect(endpoint.requests).toHaveLength(3);
    expect(seen.at(-1)?.held).toBe(true);
    h.release();
    const answers = await waiting;
    expect(endpoint.requests).toHaveLength(7);
    expect([...answers.values()].every((a) => !isModelFailure(a))).toBe(true);
    expect(h.progress()).toMatchObject({ done: 7, queued: 0, held: false });
  });

  it('offline sends nothing: a miss is a failure, a hit an answer', async () => {
    const endpoint = await fake();
    const cache = new MemoryResponseCache([{ key: pending(1).key, request: chat(1), response: fakeModelAnswer(chat(1)) }]);
    const h = new ModelHost({ cache, offline: true, endpoint: endpointConfig({ baseUrl: endpoint.url }) });
    const answers = await h.resolve([pending(1), pending(2)]);
    expect(answers.get(pending(1).key)).toEqual(fakeModelAnswer(chat(1)));
    expect(answers.get(pending(2).key)).toEqual({ error: `offline: no cached response for this request (model "fake-model", key ${pending(2).key.slice(0, 12)})` });
    expect(endpoint.requests).toEqual([]);
  });

  it('remembers a permanent failure for the run instead of sending it again for every case', async () => {
    const endpoint = await fake({ apiKey: 'the-right-key' });
    const h = host(endpoint, { apiKey: 'a-wrong-key' });
    const first = await h.resolve([pending(1, 'a')]);
    const again = await h.resolve([pending(1, 'b')]);
    const failure = first.get(pending(1).key)!;
    expect(isModelFailure(failure)).toBe(true);
    expect(failure).toEqual({ error: `model endpoint ${endpoint.url} answered HTTP 401: "Incorrect API key provided."` });
    expect(again.get(pending(1).key)).toEqual(failure);
    expect(endpoint.requests).toHaveLength(1);
    expect(h.usage('a').requests).toBe(1);
    expect(h.progress()).toMatchObject({ done: 1, failed: 1 });
  });

  it('retries transient faults (429 with Retry-After, 500, reset) and answers', async () => {
    const endpoint = await fake();
    const waits: number[] = [];
    const h = new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url }), send: { sleep: async (ms) => void waits.push(ms), random: () => 0 } });
    endpoint.failNext({ kind: 'status', status: 429, retryAfter: '3' }, { kind: 'status', status: 500 }, { kind: 'reset' });
    const answers = await h.resolve([pending(1)]);
    expect(answers.get(pending(1).key)).toEqual(fromFake(chat(1)));
    expect(waits).toEqual([3000, 0, 0]);
    expect(h.usage('c0').requests).toBe(1);
  });

  it('cancel() aborts requests in flight; they are not remembered, so a later run sends them again', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'delay', ms: 5000 });
    const h = host(endpoint);
    const started = Date.now();
    const waiting = h.resolve([pending(1), pending(2)]);
    // Both requests reach the endpoint after some turns of the event loop (more on a loaded machine).
    await settle(() => h.progress().inFlight === 2, 'both requests in flight');
    h.cancel();
    await expect(waiting).rejects.toBeInstanceOf(ModelRequestCancelled);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(h.progress()).toMatchObject({ inFlight: 0, queued: 0, done: 0 });
    endpoint.setFault(null);
    const answers = await h.resolve([pending(1)]);
    expect(answers.get(pending(1).key)).toEqual(fromFake(chat(1)));
  });

  it("a caller's signal aborts what only it waits for, and leaves shared requests to the others", async () => {
    const endpoint = await fake({ latencyMs: 150 });
    const h = host(endpoint);
    const controller = new AbortController();
    const mine = h.resolve([pending(1, 'a'), pending(2, 'a')], controller.signal);
    const theirs = h.resolve([pending(2, 'b')]);
    await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    await expect(mine).rejects.toBeInstanceOf(ModelRequestCancelled);
    const answers = await theirs;
    expect(answers.get(pending(2).key)).toEqual(fromFake(chat(2)));
    expect(h.cache.has(pending(1).key)).toBe(false);
    // Charged to b: a's share was cancelled before the answer came.
    expect(h.usage('a').requests + h.usage('b').requests).toBe(1);
  });

  it('rejects at once for a signal aborted before the call', async () => {
    const endpoint = await fake();
    const controller = new AbortController();
    controller.abort();
    await expect(host(endpoint).resolve([pending(1)], controller.signal)).rejects.toBeInstanceOf(ModelRequestCancelled);
    expect(endpoint.requests).toEqual([]);
  });

  it('refuses a request whose key is not its own (it could poison the cache)', async () => {
    const endpoint = await fake();
    const h = host(endpoint);
    const forged = { ...pending(1), key: pending(2).key };
    const answers = await h.resolve([forged]);
    expect(isModelFailure(answers.get(pending(2).key)!)).toBe(true);
    expect(endpoint.requests).toEqual([]);
  });

  it('writes each response to the JSONL cache as it arrives; a second host over the file sends nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-host-'));
    dirs.push(dir);
    const file = join(dir, 'responses.jsonl');
    const endpoint = await fake();
    const first = host(endpoint, {}, { cache: openCaches([file]).cache });
    await first.resolve([pending(1), pending(2)]);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    const second = host(endpoint, {}, { cache: openCaches([file]).cache });
    const answers = await second.resolve([pending(1), pending(2)]);
    expect(endpoint.requests).toHaveLength(2);
    expect([...answers.values()].every((a: ModelAnswer) => !isModelFailure(a))).toBe(true);
    expect(second.totalUsage()).toEqual({ requests: 0, cacheHits: 2, inputTokens: 4, outputTokens: 2 }); // the cached answers' tokens (2 words in, 1 out, each)
  });

  it('never lets the API key into the cache file, answers, errors, progress or usage', async () => {
    const key = 'sk-live-0123456789abcdef';
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-key-'));
    dirs.push(dir);
    const file = join(dir, 'responses.jsonl');
    const endpoint = await fake({ apiKey: key });
    const outputs: unknown[] = [];
    const h = host(endpoint, { apiKey: key }, { cache: openCaches([file]).cache, onProgress: (p) => outputs.push(p) });
    outputs.push([...(await h.resolve([pending(1), pending(2)])).entries()]);
    // Faults whose messages echo the key, and one that fails for good.
    endpoint.failNext({ kind: 'status', status: 500, message: `upstream rejected ${key}` }, { kind: 'status', status: 400, message: `bad request from ${key}` });
    outputs.push([...(await h.resolve([pending(3), pending(4)])).entries()]);
    outputs.push(h.totalUsage(), h.usage('c0'), h.progress());
    expect(endpoint.authorizations.every((a) => a === `Bearer ${key}`)).toBe(true);
    const everything = JSON.stringify(outputs) + readFileSync(file, 'utf8');
    expect(everything).toContain('[API key]');
    expect(everything).not.toContain(key);
  });

  describe('with an asynchronous store behind the cache (the page)', () => {
    class MapStore {
      readonly entries = new Map<string, { key: string; request: ChatRequest; response: ReturnType<typeof fakeModelAnswer> }>();
      failReads = false;
      failWrites = false;
      async getMany(keys: readonly string[]) {
        if (this.failReads) throw new Error('IndexedDB is not available in this browser');
        await new Promise((r) => setTimeout(r, 5));
        return new Map(keys.filter((k) => this.entries.has(k)).map((k) => [k, this.entries.get(k)!] as const));
      }
      async putMany(entries: readonly { key: string; request: ChatRequest; response: ReturnType<typeof fakeModelAnswer> }[]) {
        if (this.failWrites) throw new Error('QuotaExceededError');
        await new Promise((r) => setTimeout(r, 5));
        for (const e of entries) this.entries.set(e.key, e);
      }
    }

    it('answers from the store without sending (cache hits) and writes each new response before answering', async () => {
      const endpoint = await fake();
      const store = new MapStore();
      store.entries.set(pending(1).key, { key: pending(1).key, request: chat(1), response: fakeModelAnswer(chat(1)) });
      const h = host(endpoint, {}, { store });
      const answers = await h.resolve([pending(1, 'a'), pending(2, 'a')]);
      expect(answers.get(pending(1).key)).toEqual(fakeModelAnswer(chat(1)));
      expect(bodies(endpoint)).toEqual([JSON.stringify(chat(2))]);
      expect(store.entries.get(pending(2).key)?.response).toEqual(fromFake(chat(2)));
      expect(h.usage('a')).toMatchObject({ requests: 1, cacheHits: 1 });
      // A new host over the same store (a reloaded page) sends nothing.
      const again = host(endpoint, {}, { store });
      await again.resolve([pending(1, 'b'), pending(2, 'b')]);
      expect(endpoint.requests).toHaveLength(1);
      expect(again.totalUsage()).toEqual({ requests: 0, cacheHits: 2, inputTokens: 4, outputTokens: 2 }); // the cached answers' tokens
    });

    it('ignores a stored entry whose key is not its request', async () => {
      const endpoint = await fake();
      const store = new MapStore();
      store.entries.set(pending(2).key, { key: pending(2).key, request: chat(1), response: { text: 'forged', finish: 'stop', usage: { input: 0, output: 0 } } });
      const answers = await host(endpoint, {}, { store }).resolve([pending(2)]);
      expect(answers.get(pending(2).key)).toEqual(fromFake(chat(2)));
      expect(endpoint.requests).toHaveLength(1);
    });

    it('goes on with a warning when the store cannot be read or written', async () => {
      const endpoint = await fake();
      const store = new MapStore();
      store.failReads = true;
      store.failWrites = true;
      const warnings: string[] = [];
      const answers = await host(endpoint, {}, { store, onWarning: (w) => warnings.push(w) }).resolve([pending(1)]);
      expect(answers.get(pending(1).key)).toEqual(fromFake(chat(1)));
      expect(warnings).toEqual([
        'the response store could not be read (IndexedDB is not available in this browser); missing responses are requested',
        'a response could not be stored (QuotaExceededError); it is kept for this run only',
      ]);
    });
  });
});
