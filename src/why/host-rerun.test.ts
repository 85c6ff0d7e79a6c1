import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { WorldNoise } from '../engine/noise.ts';
import { ModelHost, MemoryResponseCache, endpointConfig } from '../model/index.ts';
import { startFakeEndpoint } from '../model/testing/fake-endpoint.ts';
import type { WhyMessage } from './context.ts';
import { hostRerun } from './host-rerun.ts';

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
});
