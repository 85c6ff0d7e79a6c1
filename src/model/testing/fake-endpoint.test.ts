import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../engine/model-call.ts';
import { toyChooseLogits } from '../../engine/testing/toy-model.ts';
import { useFakeEndpoints } from './use-fake-endpoints.ts';
import { fakeModelAnswer } from './fake-model.ts';

const fake = useFakeEndpoints();

async function post(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  return { status: response.status, json: await response.json() };
}

const prompt = 'My kettle broke. PREFER:replace';
const choose: ChatRequest = {
  model: 'fake-model',
  messages: [{ role: 'user', content: prompt }, { role: 'user', content: 'Answer with the letter of one option only.\nA. refund\nB. replace\nC. escalate' }],
  max_tokens: 1,
  logprobs: true,
  top_logprobs: 20,
  temperature: 0,
};

describe('the fake endpoint', () => {
  it('lists its models at /v1/models and /models', async () => {
    const endpoint = await fake({ models: ['m1', 'm2'] });
    for (const path of ['/v1/models', '/models']) {
      const body = (await (await fetch(endpoint.url.replace(/\/v1$/, path))).json()) as { data: { id: string }[] };
      expect(body.data.map((m) => m.id)).toEqual(['m1', 'm2']);
    }
  });

  it('answers chat in OpenAI format with the deterministic model (ANSWER: rule)', async () => {
    const endpoint = await fake();
    const request: ChatRequest = { model: 'fake-model', messages: [{ role: 'system', content: 'ANSWER:refund' }, { role: 'user', content: 'hello there' }] };
    const { status, json } = await post(endpoint.url, request);
    expect(status).toBe(200);
    expect(json.choices[0].message.content).toBe('refund');
    expect(json.choices[0].finish_reason).toBe('stop');
    expect(json.usage.prompt_tokens).toBe(fakeModelAnswer(request).usage.input);
    expect(endpoint.requests).toEqual([request]);
  });

  it('gives normalised label log-probabilities matching toyChooseLogits, so simulated twins agree', async () => {
    const endpoint = await fake();
    const { json } = await post(endpoint.url, choose);
    const top = json.choices[0].logprobs.content[0].top_logprobs as { token: string; logprob: number }[];
    expect(top.map((t) => t.token)).toEqual(['A', 'B', 'C']);
    expect(top.reduce((s, t) => s + Math.exp(t.logprob), 0)).toBeCloseTo(1, 12);
    const twin = toyChooseLogits(['refund', 'replace', 'escalate'], prompt);
    expect(top.map((t) => t.logprob)).toEqual([twin.refund, twin.replace, twin.escalate]);
    // PREFER raises its option strongly.
    expect(twin.replace).toBeGreaterThan(Math.max(twin.refund, twin.escalate));
  });

  it('injects faults per request and globally', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'status', status: 429, retryAfter: '2', message: 'slow down' }, { kind: 'no-logprobs' });
    const limited = await fetch(`${endpoint.url}/chat/completions`, { method: 'POST', body: JSON.stringify(choose) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(((await limited.json()) as { error: { message: string } }).error.message).toBe('slow down');
    expect((await post(endpoint.url, choose)).json.choices[0].logprobs).toBeNull();
    endpoint.setFault({ kind: 'malformed' });
    const text = await (await fetch(`${endpoint.url}/chat/completions`, { method: 'POST', body: JSON.stringify(choose) })).text();
    expect(() => JSON.parse(text)).toThrow();
    endpoint.setFault({ kind: 'reset' });
    await expect(fetch(`${endpoint.url}/chat/completions`, { method: 'POST', body: JSON.stringify(choose) })).rejects.toThrow();
    endpoint.setFault(null);
    endpoint.faultWhen((r) => r.logprobs === true, { kind: 'status', status: 503 });
    expect((await post(endpoint.url, choose)).status).toBe(503);
    expect((await post(endpoint.url, { ...choose, logprobs: undefined })).status).toBe(200);
  });

  it('checks the key when it has one, and refuses unknown models', async () => {
    const endpoint = await fake({ apiKey: 'k-123' });
    expect((await post(endpoint.url, choose)).status).toBe(401);
    const ok = await fetch(`${endpoint.url}/chat/completions`, { method: 'POST', body: JSON.stringify(choose), headers: { Authorization: 'Bearer k-123' } });
    expect(ok.status).toBe(200);
    const unknown = await fetch(`${endpoint.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ ...choose, model: 'gpt-9' }), headers: { Authorization: 'Bearer k-123' } });
    expect(unknown.status).toBe(404);
  });

  it('answers CORS preflights (the page calls it from another origin)', async () => {
    const endpoint = await fake();
    const response = await fetch(`${endpoint.url}/chat/completions`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });
});
