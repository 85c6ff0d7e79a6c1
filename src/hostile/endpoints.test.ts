import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { openCaches } from '../model/index.node.ts';
import { ModelHost, sendChat, endpointConfig, type EndpointInput, ModelEndpointError } from '../model/index.ts';
import { useFakeEndpoints } from '../model/testing/use-fake-endpoints.ts';

/**
 * Hostile endpoints: what an endpoint (or whatever answers in its place) can do to the key, the
 * prompt and the host. An echoed key is masked everywhere before anything is cut; no redirect takes
 * the prompt to another origin; an answer's size is capped; a top_logprobs list is cut at what was asked.
 */
const fake = useFakeEndpoints();

const KEY = 'sk-live-0123456789abcdefghijklmnopqrstuvwxyz';
const chat: ChatRequest = { model: 'fake-model', messages: [{ role: 'system', content: 'ANSWER:yes' }, { role: 'user', content: 'Is it raining?' }], temperature: 0 };
const choose: ChatRequest = {
  model: 'fake-model',
  messages: [{ role: 'user', content: 'Broken kettle. PREFER:replace\nAnswer with the letter of one option only.\nA. refund\nB. replace' }],
  max_tokens: 1,
  logprobs: true,
  top_logprobs: 20,
  temperature: 0,
};

function config(url: string, extra: Partial<EndpointInput> = {}) {
  return endpointConfig({ baseUrl: url, models: { default: 'fake-model' }, ...extra });
}

describe('the API key', () => {
  it('is masked in an answer that echoes it (the text that becomes step outputs, caches, sessions and reports)', async () => {
    const endpoint = await fake({ apiKey: KEY });
    endpoint.failNext({ kind: 'echo-key', where: 'text' });
    const response = await sendChat(config(endpoint.url, { apiKey: KEY }), chat);
    expect(response.text).toBe('yes (you sent Bearer [API key])');
    expect(JSON.stringify(response)).not.toContain(KEY.slice(0, 12));
  });

  it('is masked before the error quote is cut, so a key across the cut leaks no prefix', async () => {
    const endpoint = await fake({ apiKey: KEY });
    // The message quotes "bad request with header Bearer KEY"; each pad puts the key across a cut (120, 200, 600 characters) somewhere else.
    for (const pad of [150, 160, 170, 560, 570, 580, 590]) {
      endpoint.failNext({ kind: 'echo-key', where: 'error', pad });
      const error = (await sendChat(config(endpoint.url, { apiKey: KEY, maxRetries: 0 }), chat).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(ModelEndpointError);
      expect(error.message).not.toContain(KEY.slice(0, 8));
    }
  });

  it('is masked in an echoed key within a body that is no chat completion (the parse error quotes it)', async () => {
    const fetchEcho: typeof fetch = async () => new Response(`{"oops": "${KEY}"}`, { status: 200 });
    const error = (await sendChat(config('http://127.0.0.1:9/v1', { apiKey: KEY }), chat, { fetch: fetchEcho }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('[API key]');
    expect(error.message).not.toContain(KEY.slice(0, 8));
  });

  it('never reaches the cache file, nor the answer a step gets, when the endpoint echoes it', async () => {
    const endpoint = await fake({ apiKey: KEY });
    endpoint.setFault({ kind: 'echo-key', where: 'text' });
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-echo-'));
    try {
      const file = join(dir, 'cache.jsonl');
      const host = new ModelHost({ endpoint: config(endpoint.url, { apiKey: KEY }), cache: openCaches([file]).cache });
      const answers = await host.resolve([{ key: requestKey(chat), request: chat, step: 'draft', caseId: 'c0' }]);
      expect(JSON.stringify([...answers.values()])).toContain('[API key]');
      expect(JSON.stringify([...answers.values()])).not.toContain(KEY.slice(0, 8));
      expect(readFileSync(file, 'utf8')).not.toContain(KEY.slice(0, 8));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('redirects', () => {
  it('are not followed to another origin: the prompt and the key stay with the endpoint the user named', async () => {
    const elsewhere = await fake();
    const endpoint = await fake({ apiKey: KEY });
    endpoint.setFault({ kind: 'redirect', status: 307, location: `${elsewhere.url}/chat/completions` });
    const error = (await sendChat(config(endpoint.url, { apiKey: KEY }), chat).catch((e: unknown) => e)) as ModelEndpointError;
    expect(error.message).toContain(`answered HTTP 307 to ${new URL(elsewhere.url).origin}; not followed`);
    expect(error.transient).toBe(false);
    expect(endpoint.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('are followed within the endpoint origin for 307/308 (the POST and its body kept)', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'redirect', status: 308, location: '/chat/completions' });
    const response = await sendChat(config(endpoint.url), chat);
    expect(response.text).toBe('yes');
    expect(endpoint.requests).toEqual([chat, chat]);
  });

  it('that would turn the POST into a GET are refused', async () => {
    const endpoint = await fake();
    endpoint.failNext({ kind: 'redirect', status: 302, location: '/v1/chat/completions' });
    const error = (await sendChat(config(endpoint.url), chat).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('answered HTTP 302 to /v1/chat/completions; not followed');
  });
});

describe('the size of an answer', () => {
  it('is capped: a body past maxResponseBytes is a clear error, read once, not retried', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'oversized', bytes: 32 * 1024 * 1024 });
    const error = (await sendChat(config(endpoint.url, { maxResponseBytes: 1024 * 1024 }), chat).catch((e: unknown) => e)) as ModelEndpointError;
    expect(error.message).toBe(`model endpoint ${endpoint.url} answered HTTP 200 with more than 1 MiB (the most one answer may hold); not read, and not asked again`);
    expect(error.transient).toBe(false);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('is capped also when the length is declared up front', async () => {
    const big = 'x'.repeat(2048);
    const declared: typeof fetch = async () => new Response(big, { status: 200, headers: { 'Content-Length': String(big.length) } });
    const error = (await sendChat(config('http://127.0.0.1:9/v1', { maxResponseBytes: 1024 }), chat, { fetch: declared }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('with more than 1 KiB');
  });

  it('keeps only as many top log-probabilities as asked, however many come back', async () => {
    const endpoint = await fake();
    endpoint.setFault({ kind: 'long-top', count: 100_000 }); // about 4 MB, under the size cap
    const response = await sendChat(config(endpoint.url), choose);
    expect(response.topLogprobs).toHaveLength(20);
    const asked = await sendChat(config(endpoint.url), { ...choose, top_logprobs: 5 });
    // The two letters and three fillers: the list is cut at the five asked for.
    expect(asked.topLogprobs!.map((t) => t.token)).toEqual(['A', 'B', 'filler0', 'filler1', 'filler2']);
  });
});

describe('extra endpoint parameters', () => {
  it('go into the body as top-level fields, never replacing one the call set', async () => {
    const endpoint = await fake();
    await sendChat(config(endpoint.url), { ...chat, params: { reasoning_effort: 'none', chat_template_kwargs: { enable_thinking: false } } });
    expect(endpoint.requests[0]).toEqual({ ...chat, reasoning_effort: 'none', chat_template_kwargs: { enable_thinking: false } });
  });
});
