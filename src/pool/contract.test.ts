import { describe, expect, it } from 'vitest';
import type { ModelAnswer, PendingRequest } from '../engine/model-call.ts';
import {
  batchSizeFor,
  definitionTimedOutMessage,
  MAX_MODEL_ROUNDS,
  nextModelAnswers,
  PHASE_INPUTS,
  PHASE_METRIC,
  PHASE_RECEIVING,
  preparationAllowanceMs,
  timedOutResult,
  withModelUsage,
  type ModelResolver,
} from './contract.ts';
import { errorResult } from '../engine/case-result.ts';

const settings = { method: 'exact' as const };
const request = (key: string, step = 'classify'): PendingRequest => ({ key, step, request: { model: 'm', messages: [{ role: 'user', content: key }] } });
const usage = { requests: 1, cacheHits: 0, inputTokens: 3, outputTokens: 4 };

function resolver(answer: (key: string) => ModelAnswer | undefined): ModelResolver & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    resolve: async (requests) => {
      asked.push(requests.map((r) => `${r.caseId}/${r.key}`));
      const out = new Map<string, ModelAnswer>();
      for (const r of requests) {
        const a = answer(r.key);
        if (a) out.set(r.key, a);
      }
      return out;
    },
    usage: () => usage,
  };
}

describe('the rules both analysis pools follow', () => {
  it('words a stopped case and a stuck definition one way, with the compile allowance', () => {
    expect(timedOutResult('c1', ['a', 'b'], settings, 1500, 1).error).toBe('case "c1": timed out after 1.5 s in step "b"');
    expect(timedOutResult('c1', ['a'], settings, 10_000, PHASE_METRIC).error).toBe('case "c1": timed out after 10 s in the metric');
    expect(timedOutResult('c1', ['a'], settings, 50, null).error).toBe('case "c1": timed out after 0.05 s');
    expect(definitionTimedOutMessage('p.js', 10_000, preparationAllowanceMs('x'.repeat(250_000)))).toBe('p.js: evaluating the definition timed out after 13 s (10 s + 3 s to compile the definition)');
    // The first case of a definition new to its worker says what allowance it had, and a
    // case stopped before its first step says so.
    expect(timedOutResult('c1', ['a'], settings, 10_000, 0, 2000).error).toBe('case "c1": timed out after 12 s (10 s + 2 s to compile the definition) in step "a"');
    expect(timedOutResult('c1', ['a'], settings, 10_000, PHASE_RECEIVING).error).toBe(`case "c1": timed out after 10 s before its first step, while the case's inputs were being copied to the worker`);
    expect(timedOutResult('c1', ['a'], settings, 10_000, PHASE_INPUTS).error).toBe(`case "c1": timed out after 10 s before its first step, while copying the case's inputs into the sandbox`);
    expect(batchSizeFor(1000, 2)).toBe(16);
    expect(batchSizeFor(3, 4)).toBe(1);
  });

  it('fetches a round of model requests and keeps every answer so far; a missing answer is a failure of its step', async () => {
    const model = resolver((key) => (key === 'k2' ? undefined : { text: `answer ${key}` } as unknown as ModelAnswer));
    const next = await nextModelAnswers({ caseId: 'c', requests: [request('k1'), request('k2', 'judge')], known: { k0: { error: 'old' } }, round: 1, model, noModel: 'none' });
    expect(model.asked).toEqual([['c/k1', 'c/k2']]);
    expect(next).toEqual({
      ok: true,
      answers: { k0: { error: 'old' }, k1: { text: 'answer k1' }, k2: { error: 'the model host returned no answer for a request of step "judge"' } },
    });
  });

  it('ends the case without a model, past the round cap, or when the host fails', async () => {
    const none = await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: 1, model: undefined, noModel: 'no model is set up: open Settings > Model' });
    expect(none).toEqual({ ok: false, error: 'step "classify" calls a model (llm.chat or llm.choose), but no model is set up: open Settings > Model' });
    const model = resolver(() => ({ error: 'x' }));
    const last = await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: MAX_MODEL_ROUNDS, model, noModel: '' });
    expect(last.ok).toBe(true);
    const over = await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: MAX_MODEL_ROUNDS + 1, model, noModel: '' });
    expect(over).toEqual({ ok: false, error: `step "classify" still asks for new model requests after ${MAX_MODEL_ROUNDS} rounds; a step's requests must follow from its inputs and earlier answers` });
    // Never fewer than the default: a small replay's bound does not cut it.
    expect((await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: MAX_MODEL_ROUNDS, maxRounds: 10, model, noModel: '' })).ok).toBe(true);
    // A replay of a chain of 1 000 requests takes a round each: its caller allows as many.
    expect((await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: 1001, maxRounds: 1001, model, noModel: '' })).ok).toBe(true);
    expect(await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: 1002, maxRounds: 1001, model, noModel: '' })).toEqual({
      ok: false,
      error: `step "classify" still asks for new model requests after 1001 rounds; a step's requests must follow from its inputs and earlier answers`,
    });
    const failing: ModelResolver = { resolve: () => Promise.reject(new Error('endpoint down')), usage: () => usage };
    expect(await nextModelAnswers({ caseId: 'c', requests: [request('k')], known: null, round: 1, model: failing, noModel: '' })).toEqual({
      ok: false,
      error: 'model requests of step "classify" failed: endpoint down',
    });
  });

  it('charges model usage only to a case that took model rounds and has no error', () => {
    const model = resolver(() => undefined);
    const failed = errorResult('c', ['a'], settings, 'boom');
    expect(withModelUsage(failed, 2, model)).toBe(failed);
    const passed = { ...failed, error: undefined } as unknown as typeof failed;
    expect(withModelUsage(passed, 0, model)).toBe(passed);
    expect(withModelUsage(passed, 1, undefined)).toBe(passed);
    expect(withModelUsage(passed, 1, model)).toEqual({ ...passed, usage });
  });
});
