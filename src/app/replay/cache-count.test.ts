import { describe, expect, it } from 'vitest';
import { requestKey, type ModelResponse, type ChatRequest } from '../../engine/model-call.ts';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { buildReplay } from '../../replay/index.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { analyzeSourceCaseRound } from '../../sandbox/analyze-source.ts';
import { CacheCountResolver, standIn } from './cache-count.ts';

const definition = buildReplay([readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0]], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
const settings = { ...DEFAULT_SETTINGS, method: 'exact' as const, models: { default: 'scripted' } };

/** Analyses the replay round after round, answering through the counting resolver. */
async function count(stored: Map<string, { response: ModelResponse }>) {
  const resolver = new CacheCountResolver({ getMany: async (keys) => new Map([...stored].filter(([k]) => keys.includes(k))) as never });
  const answers = new Map();
  for (let round = 0; round < 100; round++) {
    const r = analyzeSourceCaseRound(definition.source, definition.cases[0], settings, answers, {}, 'replay.js');
    if (r.kind === 'result') return { resolver, result: r.result };
    const got = await resolver.resolve(r.requests.map((p) => ({ ...p, caseId: 'c' })));
    for (const [k, v] of got) answers.set(k, v);
  }
  throw new Error('too many rounds');
}

describe('counting what the cache answers', () => {
  // The requests the replay really sends to the scripted model (each distinct request once).
  const { sent } = analyzeWithModel(definition.source, definition.cases[0], settings, scriptedModel);

  it('bounds the requests from above when nothing is cached, the later turns included', async () => {
    const { resolver } = await count(new Map());
    expect(sent.length).toBe(5);
    // The scripted model's repairs of the planner and the reporter repeat what was recorded, so
    // the turns after them keep their record; stand-ins always differ, so the count is an upper
    // bound. Counted by hand over the coalitions of the players P(lanner), C(alculator),
    // R(eporter): P's repair (1); C's repair, C re-sent after P's stand-in, C's repair after it
    // (3); R re-sent or repaired in each coalition but the empty one (7).
    expect(resolver.total).toBe(11);
    expect(resolver.answered).toBe(0);
  });

  it('counts them all as answered when every response is stored, and asks for nothing else', async () => {
    const stored = new Map(sent.map((request) => [requestKey(request), { response: scriptedModel(request) }]));
    const { resolver, result } = await count(stored);
    expect(resolver.total).toBe(sent.length);
    expect(resolver.answered).toBe(sent.length);
    // With every real answer, the counting run is the real analysis: the calculator is blamed.
    expect(result.error).toBeUndefined();
  });

  it('counts part of them when some are stored', async () => {
    const first = sent.slice(0, 2);
    const { resolver } = await count(new Map(first.map((request) => [requestKey(request), { response: scriptedModel(request) }])));
    expect(resolver.answered).toBe(2);
    expect(resolver.total).toBeGreaterThanOrEqual(sent.length);
    expect(resolver.total).toBeLessThanOrEqual(11);
  });

  it('stands in with text unique to the request, and with equal odds for a choice', () => {
    const chat: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(standIn(chat, 'abcdef0123456789ff').text).toBe('(not cached yet: abcdef0123456789)');
    const choice = standIn({ ...chat, logprobs: true, top_logprobs: 20, max_tokens: 1 }, 'k');
    expect(choice.topLogprobs).toHaveLength(26);
    expect(new Set(choice.topLogprobs!.map((t) => t.logprob)).size).toBe(1);
  });
});
