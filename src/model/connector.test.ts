import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../engine/model-call.ts';
import { sendChat } from './connector.ts';
import { endpointConfig, type EndpointInput } from './endpoint.ts';
import { ModelEndpointError, ModelRequestCancelled } from './endpoint-error.ts';
import { useFakeEndpoints } from './testing/use-fake-endpoints.ts';
import { fakeModelAnswer } from './testing/fake-model.ts';

const fake = useFakeEndpoints();

const chat: ChatRequest = { model: 'fake-model', messages: [{ role: 'system', content: 'ANSWER:yes' }, { role: 'user', content: 'Is it raining?' }], temperature: 0, max_tokens: 5 };
const choose: ChatRequest = {
  model: 'fake-model',
  messages: [{ role: 'user', content: 'Broken kettle. PREFER:replace' }, { role: 'user', content: 'Answer with the letter of one option only.\nA. refund\nB. replace\nC. escalate' }],
  max_tokens: 1,
  logprobs: true,
  top_logprobs: 20,
  temperature: 0,
};

/** An injected sleep that records the waits and returns at once. */
function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

function config(url: string, extra: Partial<EndpointInput> = {}) {
  return endpointConfig({ baseUrl: url, models: { default: 'fake-model' }, ...extra });
}

describe('sendChat', () => {
  it('posts the request exactly as its body and parses text, finish and usage', async () => {
    const endpoint = await fake();
    const response = await sendChat(config(endpoint.url), chat);
    expect(endpoint.requests).toEqual([chat]);
    expect(response).toEqual({ text: 'yes', finish: 'stop', usage: fakeModelAnswer(chat).usage, served: { model: 'fake-model' } });
    expect(endpoint.authorizations).toEqual([undefined]);
  });

  it('reads the first token top log-probabilities of a logprobs request', async () => {
    const endpoint = await fake();
    const response = await sendChat(config(endpoint.url), choose);
    expect(response.topLogprobs).toEqual(fakeModelAnswer(choose).topLogprobs);
    const total = response.topLogprobs!.reduce((s, t) => s + Math.exp(t.logprob), 0);
    expect(total).toBeCloseTo(1, 12);
    const best = response.topLogprobs!.reduce((a, b) => (b.logprob > a.logprob ? b : a));
    expect(best.token).toBe('B');
  });

  it('sends the key as a Bearer token only when one is set', async () => {
    const endpoint = await fake({ apiKey: 'sk-test-123456' });
    await sendChat(config(endpoint.url, { apiKey: 'sk-test-123456' }), chat);
    expect(endpoint.authorizations).toEqual(['Bearer sk-test-123456']);
  });

  it('retries a 429 after the Retry-After seconds it asks for, then succeeds', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'status', status: 429, retryAfter: '7', message: 'Rate limit reached' }, { kind: 'status', status: 429, retryAfter: '2' });
    const { waits, sleep } = recordingSleep();
    const retries: string[] = [];
    const response = await sendChat(config(endpoint.url), chat, { sleep, onRetry: (r) => retries.push(r.reason) });
    expect(response.text).toBe('yes');
    expect(waits).toEqual([7000, 2000]);
    expect(retries[0]).toBe('answered HTTP 429: "Rate limit reached"');
    expect(endpoint.requests).toHaveLength(3);
  });

  it('honours a Retry-After HTTP date, capped at 60 s', async () => {
    const endpoint = await fake();
    const now = Date.parse('2026-11-30T12:00:00Z');
    endpoint.failNext({ kind: 'status', status: 503, retryAfter: 'Mon, 30 Nov 2026 12:00:05 GMT' }, { kind: 'status', status: 503, retryAfter: 'Mon, 30 Nov 2026 13:00:00 GMT' });
    const { waits, sleep } = recordingSleep();
    await sendChat(config(endpoint.url), chat, { sleep, now: () => now });
    expect(waits).toEqual([5000, 60_000]);
  });

  it('retries 500s with full-jitter exponential backoff', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'status', status: 500 }, { kind: 'status', status: 502 }, { kind: 'status', status: 500 });
    const { waits, sleep } = recordingSleep();
    const response = await sendChat(config(endpoint.url), chat, { sleep, random: () => 0.5 });
    expect(response.text).toBe('yes');
    // random 0.5 of 500, 1000, 2000 ms.
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('gives up after maxRetries with an error naming the endpoint, status and message', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'status', status: 500, message: 'model overloaded' });
    const { waits, sleep } = recordingSleep();
    const error = await sendChat(config(endpoint.url, { maxRetries: 2 }), chat, { sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelEndpointError);
    expect((error as Error).message).toBe(`model endpoint ${endpoint.url} answered HTTP 500: "model overloaded" (3 attempts)`);
    expect(waits).toHaveLength(2);
    expect(endpoint.requests).toHaveLength(3);
  });

  it('fails llama-server\'s refusal of tools (HTTP 500 without --jinja) at once: the same request gets the same answer', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'status', status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } });
    const { waits, sleep } = recordingSleep();
    const error = await sendChat(config(endpoint.url), chat, { sleep }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`model endpoint ${endpoint.url} answered HTTP 500: "tools param requires --jinja flag"`);
    expect([waits.length, endpoint.requests.length]).toEqual([0, 1]);
  });

  it('fails a 401 at once, quoting the endpoint, without a retry', async () => {
    const endpoint = await fake({ apiKey: 'right-key-000' });
    const { waits, sleep } = recordingSleep();
    const error = await sendChat(config(endpoint.url, { apiKey: 'wrong-key-999' }), chat, { sleep }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`model endpoint ${endpoint.url} answered HTTP 401: "Incorrect API key provided."`);
    expect((error as ModelEndpointError).status).toBe(401);
    expect(waits).toEqual([]);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('fails other 4xx at once too (an unknown model)', async () => {
    const endpoint = await fake();
    const error = await sendChat(config(endpoint.url), { ...chat, model: 'nope' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`model endpoint ${endpoint.url} answered HTTP 404: "The model \`nope\` does not exist." (requests go to ${endpoint.url}/chat/completions: is the base URL right? most servers want it to end in /v1; is the model id one the server lists?)`);
  });

  it('retries an attempt that outlives its time limit', async () => {
    const endpoint = await fake();
    // The limit leaves room for a loaded machine: only the first attempt (30 s late) can outlive it.
    endpoint.failNext({ kind: 'delay', ms: 30_000 });
    const { waits, sleep } = recordingSleep();
    const started = Date.now();
    const response = await sendChat(config(endpoint.url, { timeoutMs: 2000 }), chat, { sleep });
    expect(response.text).toBe('yes');
    expect(waits).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('names a timeout when every attempt outlives its limit', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'delay', ms: 2000 });
    const error = await sendChat(config(endpoint.url, { timeoutMs: 50, maxRetries: 1 }), chat, { sleep: async () => {} }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`model endpoint ${endpoint.url} gave no answer within 0.05 s (2 attempts); a slow or busy server (one slot on a CPU answers one request at a time): raise the time per request (the command: --timeout-request S; the page: Model > Time per request) or lower the requests in flight (the command: --concurrency 1; the page: Model > Requests at once)`);
  });

  it('fails a malformed body at once, quoting an excerpt', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'malformed' });
    const error = await sendChat(config(endpoint.url), chat, { sleep: async () => {} }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`model endpoint ${endpoint.url} answered HTTP 200, but its answer is not JSON: "{"id":"chatcmpl-fake","choices":[{"message":{"content":"trunc"`);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('names the JSON path of a body that is JSON but not a chat completion', async () => {
    const fetchStub: typeof fetch = async () => new Response(JSON.stringify({ choices: [{ message: { content: 42 } }] }), { status: 200 });
    const error = await sendChat(config('http://127.0.0.1:9/v1'), chat, { fetch: fetchStub }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('model endpoint http://127.0.0.1:9/v1 answered HTTP 200, but its answer\'s choices[0].message.content is not a string: "{"choices":[{"message":{"content":42}}]}"');
  });

  it('retries a reset connection', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'reset' });
    const retries: string[] = [];
    const response = await sendChat(config(endpoint.url), chat, { sleep: async () => {}, onRetry: (r) => retries.push(r.reason) });
    expect(response.text).toBe('yes');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/^could not be reached \(/);
  });

  it('names a refused connection', async () => {
    const endpoint = await fake();
    const url = endpoint.url;
    await endpoint.close();
    const error = await sendChat(config(url, { maxRetries: 1 }), chat, { sleep: async () => {} }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`model endpoint ${url} could not be reached (connection refused (ECONNREFUSED)) (2 attempts)`);
  });

  it('asks once of a port the runtime\'s fetch refuses, and names the port', async () => {
    const retries: string[] = [];
    const error = await sendChat(config('http://127.0.0.1:9/v1'), chat, { sleep: async () => {}, onRetry: (r) => retries.push(r.reason) }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('model endpoint http://127.0.0.1:9/v1 could not be reached: this runtime\'s fetch refuses port 9 (a "bad port" of the Fetch standard): use another port');
    expect(retries).toEqual([]);
  });

  it('reads an answer without log-probabilities as one without topLogprobs', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'no-logprobs' });
    const response = await sendChat(config(endpoint.url), choose);
    expect(response.topLogprobs).toBeUndefined();
  });

  it('cancel aborts an attempt in flight at once', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'delay', ms: 5000 });
    const controller = new AbortController();
    const started = Date.now();
    const pending = sendChat(config(endpoint.url), chat, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(ModelRequestCancelled);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancel aborts a backoff wait at once, even when the injected sleep ignores it', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'status', status: 429, retryAfter: '30' });
    const controller = new AbortController();
    const pending = sendChat(config(endpoint.url), chat, { signal: controller.signal, sleep: () => new Promise(() => {}), onRetry: () => controller.abort() });
    await expect(pending).rejects.toBeInstanceOf(ModelRequestCancelled);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('never puts the key in an error, even when the endpoint echoes it', async () => {
    const key = 'sk-secret-abcdef-123456';
    const endpoint = await fake({ apiKey: 'another-key' });
    endpoint.failNext({ kind: 'status', status: 400, message: `Invalid key ${key} for this project` });
    const error = await sendChat(config(endpoint.url, { apiKey: key }), chat).catch((e: unknown) => e);
    expect((error as Error).message).toContain('Invalid key [API key] for this project');
    expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack })).not.toContain(key);
  });
});
