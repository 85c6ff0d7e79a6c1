import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { WorldNoise } from '../engine/noise.ts';
import { ModelHost, MemoryResponseCache, endpointConfig } from '../model/index.ts';
import { startFakeEndpoint } from '../model/testing/fake-endpoint.ts';
import type { WhyMessage } from './context.ts';
import { hostRerun, refusesTools } from './host-rerun.ts';

const context: WhyMessage[] = [
  { role: 'system', text: 'You are an email assistant.' },
  { role: 'assistant', text: '', toolCalls: [{ name: 'read_inbox', arguments: '{}' }] },
  { role: 'tool', name: 'read_inbox', text: '{"emails": []}' },
];

describe('hostRerun', () => {
  it('sends each rerun as a chat request with the seed of its noise address, once, and answers repeats from the cache', async () => {
    const seen: ChatRequest[] = [];
    const e = await startFakeEndpoint({ answer: (r) => (seen.push(r), { text: `tool call: reply {"seed": ${r.seed}}`, finish: 'stop', usage: { input: 1, output: 1 } }) });
    try {
      const host = new ModelHost({ endpoint: endpointConfig({ baseUrl: e.url, models: { default: 'fake-model' } }), cache: new MemoryResponseCache() });
      const rerun = hostRerun(host, { model: 'fake-model', seed: 7, call: 3, maxTokens: 50 });
      const replies = await rerun(context, [0, 1, 2]);
      expect(replies.map((r) => r.toolCalls[0].name)).toEqual(['reply', 'reply', 'reply']);
      // The seed of rerun r is the one a model step draws at (world 7, step "why:3", key "run r").
      const world = new WorldNoise(7);
      const seeds = [0, 1, 2].map((r) => Math.floor(world.uniform('why:3', `run ${r}`, '#llm-seed') * 2 ** 31));
      expect(seen.map((r) => r.seed).sort()).toEqual([...seeds].sort());
      expect(new Set(seeds).size).toBe(3);
      expect(seen[0]).toMatchObject({ model: 'fake-model', max_tokens: 50, messages: [{ role: 'system', content: 'You are an email assistant.' }, { role: 'assistant', content: 'tool call: read_inbox {}' }, { role: 'tool', content: '{"emails": []}' }] });
      expect(new Set(seen.map(requestKey)).size).toBe(3);
      await rerun(context, [1, 2, 3]);
      expect(seen).toHaveLength(4);
      expect(host.usage('why')).toMatchObject({ requests: 4 });
      // For hosted APIs that refuse tool messages without a structured call: tool results as user messages.
      await hostRerun(host, { model: 'fake-model', seed: 7, call: 3, toolResults: 'user' })(context, [0]);
      expect(seen[4].messages[2]).toEqual({ role: 'user', content: 'Tool result (read_inbox):\n{"emails": []}' });
    } finally {
      await e.close();
    }
  });

  it('takes llama-server\'s refusal of tools (HTTP 500 without --jinja) and Ollama\'s (HTTP 400) as a refusal: one note, then text', async () => {
    const e = await startFakeEndpoint({ answer: () => ({ text: 'tool call: reply {}', finish: 'stop', usage: { input: 1, output: 1 } }) });
    try {
      e.faultWhen((q) => q.tools !== undefined, { kind: 'status', status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } });
      const host = new ModelHost({ endpoint: endpointConfig({ baseUrl: e.url, models: { default: 'fake-model' }, maxRetries: 0 }), cache: new MemoryResponseCache() });
      const notes: string[] = [];
      const tools = [{ type: 'function', function: { name: 'reply', parameters: { type: 'object', properties: {} } } }];
      const replies = await hostRerun(host, { model: 'fake-model', seed: 1, call: 3, tools, onNote: (n) => notes.push(n) })(context, [0, 1]);
      expect(replies.map((r) => r.toolCalls[0]?.name)).toEqual(['reply', 'reply']);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/refuses the recorded tools .*tools param requires --jinja flag/);
      expect(e.requests.filter((q) => q.tools === undefined)).toHaveLength(2);
    } finally {
      await e.close();
    }
    expect(refusesTools('the endpoint answered HTTP 400: "registry.ollama.ai/library/gemma3:270m does not support tools"')).toBe(true);
    // Any other server error is a failure, not a refusal: retrying without tools would hide it.
    expect(refusesTools('the endpoint answered HTTP 500: "tools: out of memory"')).toBe(false);
    expect(refusesTools('the endpoint answered HTTP 400: "the request exceeds the available context size"')).toBe(false);
  });
});

