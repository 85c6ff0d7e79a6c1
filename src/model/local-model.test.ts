import { describe, expect, it } from 'vitest';
import { isModelFailure, requestKey, type ChatRequest, type ModelResponse } from '../engine/model-call.ts';
import { checkContext, cutAtStop, localCompletion, localResponse, modelFileHash, modelFileId, renderPrompt, type LocalModel } from './local-model.ts';
import { ModelHost, type HostRequest } from './model-host.ts';
import { MemoryResponseCache } from './response-cache.ts';
import { fakeLocalModel } from './testing/fake-local-model.ts';

const HASH = '270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d';
const ID = modelFileId(HASH);

/** A model file that answers every request with the prompt's length, and counts its calls. */
function countingModel(fail?: string): LocalModel & { calls: ChatRequest[] } {
  return fakeLocalModel(ID, (request) => {
    if (fail) throw new Error(fail);
    const c = localCompletion(request);
    return localResponse({ text: `len ${c.prompt.length}`, finish: 'stop', promptTokens: 3, outputTokens: 2, firstTop: [{ token: ' A', logprob: -0.1 }, { token: ' B', logprob: -2.4 }] }, c, { model: ID, fingerprint: 'test' });
  });
}

function pending(request: ChatRequest, caseId = 'c0'): HostRequest {
  return { key: requestKey(request), request, step: 'draft', caseId };
}

describe('model file ids', () => {
  it('name the file by its hash, and only a well-formed hash', () => {
    expect(ID).toBe(`gguf-sha256:${HASH}`);
    expect(modelFileHash(ID)).toBe(HASH);
    expect(modelFileHash('local')).toBeNull();
    expect(() => modelFileId('xyz')).toThrow(/64 lower-case hex/);
  });
});

describe('the completion a request asks of a model file', () => {
  it('renders the messages as role lines ending with the assistant turn', () => {
    expect(renderPrompt([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }])).toBe('system: Be brief.\nuser: Hi\nassistant:');
  });

  it('takes the fields of the request, with the defaults of an endpoint', () => {
    const c = localCompletion({ model: ID, messages: [{ role: 'user', content: 'x' }], max_tokens: 1, logprobs: true, top_logprobs: 20, temperature: 0 });
    expect(c).toEqual({ prompt: 'user: x\nassistant:', maxTokens: 1, temperature: 0, seed: 0, topLogprobs: 20, stop: [] });
    expect(localCompletion({ model: ID, messages: [{ role: 'user', content: 'x' }], seed: 17 })).toMatchObject({ temperature: 1, seed: 17, topLogprobs: 0, maxTokens: 128 });
    // Offered tools are shown to the model as a first line; it answers in text.
    expect(localCompletion({ model: ID, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'add' } }] }).prompt).toBe('tools: [{"type":"function","function":{"name":"add"}}]\nuser: x\nassistant:');
  });

  it('cuts at the first stop string, and refuses a prompt longer than the context', () => {
    expect(cutAtStop('one. two. three', ['two', '.'])).toEqual({ text: 'one', stopped: true });
    expect(cutAtStop('abc', ['z'])).toEqual({ text: 'abc', stopped: false });
    expect(checkContext(10, 100, 64)).toBe(54);
    expect(() => checkContext(70, 1, 64)).toThrow(/70 tokens, more than the model file's context of 64/);
  });

  it('keeps only the top log-probabilities asked for', () => {
    const c = localCompletion({ model: ID, messages: [{ role: 'user', content: 'x' }], logprobs: true, top_logprobs: 1 });
    const r = localResponse({ text: 'A', finish: 'length', promptTokens: 4, outputTokens: 1, firstTop: [{ token: 'A', logprob: -0.2 }, { token: 'B', logprob: -1.8 }] }, c, { model: ID, fingerprint: 'f' });
    expect(r.topLogprobs).toEqual([{ token: 'A', logprob: -0.2 }]);
    expect(r.usage).toEqual({ input: 4, output: 1 });
  });
});

describe('a model host with a model file', () => {
  const asked: ChatRequest = { model: ID, messages: [{ role: 'user', content: 'Once upon a time' }], temperature: 0, max_tokens: 8 };

  it('sends the requests of its id to the model file, caches them, and answers a rerun from the cache', async () => {
    const model = countingModel();
    const cache = new MemoryResponseCache();
    const first = new ModelHost({ local: model, cache });
    // No endpoint: the model file's requests are answered all the same.
    expect(first.hasEndpoint).toBe(false);
    const answers = await first.resolve([pending(asked), pending(asked, 'c1')]);
    expect((answers.get(requestKey(asked)) as ModelResponse).text).toBe(`len ${renderPrompt(asked.messages).length}`);
    expect(model.calls).toHaveLength(1);
    expect(first.totalUsage()).toMatchObject({ requests: 1, cacheHits: 0 });
    const rerun = new ModelHost({ local: model, cache });
    await rerun.resolve([pending(asked)]);
    expect(model.calls).toHaveLength(1);
    expect(rerun.totalUsage()).toMatchObject({ requests: 0, cacheHits: 1 });
  });

  it('fails a request of another model id when there is no endpoint, and names the model file when it fails', async () => {
    const other: ChatRequest = { ...asked, model: 'local' };
    const host = new ModelHost({ local: countingModel() });
    const answer = (await host.resolve([pending(other)])).get(requestKey(other))!;
    expect(isModelFailure(answer) && answer.error).toMatch(/no cached response for this request \(model "local"/);
    const broken = new ModelHost({ local: countingModel('the prompt is 900 tokens') });
    const failed = (await broken.resolve([pending(asked)])).get(requestKey(asked))!;
    expect(isModelFailure(failed) && failed.error).toBe('the in-page model tiny.gguf failed: the prompt is 900 tokens');
  });

  it('sends nothing offline', async () => {
    const model = countingModel();
    const host = new ModelHost({ local: model, offline: true });
    const answer = (await host.resolve([pending(asked)])).get(requestKey(asked))!;
    expect(isModelFailure(answer) && answer.error).toMatch(/^offline/);
    expect(model.calls).toHaveLength(0);
  });
});
