import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isModelFailure, requestKey, type ChatRequest, type ModelFailure, type ModelResponse } from '../engine/model-call.ts';
import { chooseRequest } from '../engine/step-llm.ts';
import { endpointConfig, type EndpointInput } from './endpoint.ts';
import { openCaches } from './jsonl-cache.node.ts';
import { ModelHost, type HostRequest } from './model-host.ts';
import { MemoryResponseCache } from './response-cache.ts';
import type { FakeEndpoint } from './testing/fake-endpoint.ts';
import { useFakeEndpoints } from './testing/use-fake-endpoints.ts';
import { fakeModelAnswer } from './testing/fake-model.ts';

// What real llama.cpp, Ollama and vLLM servers do to model steps, each reproduced by the fake endpoint.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const fake = useFakeEndpoints();

function host(endpoint: FakeEndpoint, input: Partial<EndpointInput> = {}, extra: ConstructorParameters<typeof ModelHost>[0] = {}): ModelHost {
  return new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url, models: { default: 'fake-model' }, ...input }), send: { sleep: async () => {}, random: () => 0 }, ...extra });
}

const OPTIONS = ['refund', 'replace', 'escalate'];
const choose = chooseRequest({ messages: [{ role: 'system', content: 'You triage tickets.' }, { role: 'user', content: 'My kettle broke. PREFER:replace' }], options: OPTIONS }, OPTIONS, 'fake-model');

function pending(request: ChatRequest, caseId = 'c0'): HostRequest {
  return { key: requestKey(request), request, step: 'triage', caseId };
}

function chatN(k: number): ChatRequest {
  return { model: 'fake-model', messages: [{ role: 'user', content: `question ${k}` }], temperature: 0 };
}

describe('an answer that cannot serve its request', () => {
  it('without log-probabilities (an older server) is a failure, not cached: a rerun after the fix asks again', async () => {
    const endpoint = await fake();
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-unusable-'));
    dirs.push(dir);
    const file = join(dir, 'cache.jsonl');
    endpoint.setFault({ kind: 'no-logprobs' });
    const first = await host(endpoint, {}, { cache: openCaches([file]).cache }).resolve([pending(choose)]);
    const failure = first.get(requestKey(choose)) as ModelFailure;
    expect(failure.error).toMatch(/answered, but the endpoint returned no log-probabilities .*; the answer was not cached$/);
    expect(existsSync(file)).toBe(false);
    endpoint.setFault(null);
    const again = host(endpoint, {}, { cache: openCaches([file]).cache });
    const second = await again.resolve([pending(choose)]);
    expect(isModelFailure(second.get(requestKey(choose))!)).toBe(false);
    expect(again.totalUsage().requests).toBe(1);
    expect(endpoint.requests).toHaveLength(2);
  });

  it('from a thinking model (first token <think>) fails naming the tokens that came back and how to turn thinking off', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'thinking' });
    const h = host(endpoint);
    const failure = (await h.resolve([pending(choose)])).get(requestKey(choose)) as ModelFailure;
    expect(failure.error).toContain('none of the option letters (A, B, C) is among the first token\'s top log-probabilities; the endpoint\'s first tokens were "<think>", "Okay", "The" (a thinking model: turn its thinking off');
    expect(h.cache.size).toBe(0);
  });

  it('cached before such answers were refused is skipped with a warning and asked again; the new answer wins', async () => {
    const endpoint = await fake();
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-unusable-'));
    dirs.push(dir);
    const file = join(dir, 'cache.jsonl');
    const stale: ModelResponse = { text: '<think>', finish: 'length', usage: { input: 9, output: 1 }, topLogprobs: [{ token: '<think>', logprob: -0.01 }] };
    writeFileSync(file, `${JSON.stringify({ key: requestKey(choose), request: choose, response: stale })}\n`);
    const opened = openCaches([file]);
    expect(opened.warnings).toEqual(["skipped 1 cached answer that cannot serve its request (no log-probabilities, or no option letter among them): asked again"]);
    const answers = await host(endpoint, {}, { cache: opened.cache }).resolve([pending(choose)]);
    expect((answers.get(requestKey(choose)) as ModelResponse).topLogprobs?.map((t) => t.token)).toEqual(['A', 'B', 'C']);
    const reread = openCaches([file]);
    expect(reread.cache.get(requestKey(choose))?.topLogprobs).toHaveLength(3);
  });
});

describe('a strict chat template (Gemma, Mistral under llama-server)', () => {
  it('accepts a choose request: the options go into the last user message', async () => {
    const endpoint = await fake({ strictRoles: true });
    expect(choose.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const answer = (await host(endpoint).resolve([pending(choose)])).get(requestKey(choose));
    expect(isModelFailure(answer!)).toBe(false);
  });

  it('refusing two user messages in a row is quoted with the template\'s own reason, not cut in its source', async () => {
    const endpoint = await fake({ strictRoles: true });
    const twoUsers: ChatRequest = { model: 'fake-model', messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] };
    const failure = (await host(endpoint).resolve([pending(twoUsers)])).get(requestKey(twoUsers)) as ModelFailure;
    expect(failure.error).toContain('answered HTTP 400: "Conversation roles must alternate user/assistant/user/assistant/... (the chat template refused the messages');
  });
});

describe('a one-slot server (llama-server on a CPU)', () => {
  it('gets fewer requests at once after time-outs, and every request is answered', async () => {
    // Each answer takes 150 ms and one waits for the other: four at once outlive a 400 ms limit.
    const endpoint = await fake({ slots: 1, latencyMs: 150 });
    const warnings: string[] = [];
    const h = host(endpoint, { concurrency: 4, timeoutMs: 400, maxRetries: 6 }, { onWarning: (w) => warnings.push(w) });
    const requests = Array.from({ length: 8 }, (_, k) => pending(chatN(k), `c${k}`));
    const answers = await h.resolve(requests);
    expect([...answers.values()].filter(isModelFailure)).toEqual([]);
    expect(warnings[0]).toMatch(/is overloaded \(a time-out, or HTTP 429\/503\): [12] requests? in flight from now on \(the command: --concurrency [12] avoids this; the page: Model > Requests at once\)/);
    expect(h.concurrency).toBeLessThan(4);
  });

  it('a 429 or 503 lowers the requests in flight too', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'status', status: 503, message: 'Loading model' });
    const warnings: string[] = [];
    const h = host(endpoint, { concurrency: 4 }, { onWarning: (w) => warnings.push(w) });
    await h.resolve([pending(chatN(1))]);
    expect(h.concurrency).toBe(2);
    expect(warnings).toHaveLength(1);
  });
});

describe('a model swapped behind its id', () => {
  it('is recorded with each answer and warned about when a cache answered for another model', async () => {
    const endpoint = await fake({ served: { modelPath: '/models/stories260K.gguf', nParams: 260_000, size: 1_185_376 } });
    const cache = new MemoryResponseCache();
    const first = await host(endpoint, {}, { cache }).resolve([pending(chatN(1))]);
    const answer = first.get(requestKey(chatN(1))) as ModelResponse;
    expect(answer.served).toEqual({ model: 'fake-model', identity: 'model_path /models/stories260K.gguf; meta n_params=260000,n_vocab=512,size=1185376' });
    expect(cache.get(requestKey(chatN(1)))?.served?.identity).toBe(answer.served?.identity);

    const warnings: string[] = [];
    const same = host(endpoint, {}, { cache, onWarning: (w) => warnings.push(w) });
    await same.resolve([pending(chatN(1))]);
    expect(warnings).toEqual([]);

    endpoint.swapModel({ modelPath: '/models/qwen3-0.6b.gguf', nParams: 600_000_000, size: 400_000_000 });
    const swapped = host(endpoint, {}, { cache, onWarning: (w) => warnings.push(w) });
    await swapped.resolve([pending(chatN(1)), pending(chatN(1), 'c1')]);
    expect(warnings).toEqual([
      'cached answers for model "fake-model" came from another model (model_path /models/stories260K.gguf; meta n_params=260000,n_vocab=512,size=1185376) than the endpoint serves now (model_path /models/qwen3-0.6b.gguf; meta n_params=600000000,n_vocab=512,size=400000000): the cache is keyed by the model id, not the model, so they are the old model\'s answers; start a new response cache (the command: a new --cache file; the page: a new session) to ask the new model',
    ]);
    // Warned, not refused: the cache still answers (the id is the key; the docs say so).
    expect(swapped.totalUsage().cacheHits).toBe(1);
  });

  it('with servers that list no model file, the answers\' own model field tells', async () => {
    const endpoint = await fake({ answerModel: 'gpt-x-2025-01-01' });
    const cache = new MemoryResponseCache();
    await host(endpoint, {}, { cache }).resolve([pending(chatN(1))]);
    endpoint.swapModel(undefined, 'gpt-x-2026-06-01');
    const warnings: string[] = [];
    const h = host(endpoint, {}, { cache, onWarning: (w) => warnings.push(w) });
    // A fresh answer tells what serves the id now; the cached one of the same id is then checked.
    await h.resolve([pending(chatN(2))]);
    await h.resolve([pending(chatN(1))]);
    expect(warnings[0]).toContain('came from another model (gpt-x-2025-01-01) than the endpoint serves now (gpt-x-2026-06-01)');
  });
});

describe('the fake model through a one-slot server', () => {
  it('answers as the test model does', async () => {
    const endpoint = await fake({ slots: 1 });
    const answers = await host(endpoint).resolve([pending(choose)]);
    expect((answers.get(requestKey(choose)) as ModelResponse).topLogprobs).toEqual(fakeModelAnswer(choose).topLogprobs);
  });
});
