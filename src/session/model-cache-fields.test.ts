import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest, type ModelResponse } from '../engine/model-call.ts';
import { validateModelCache } from './validate-study.ts';

// A session's modelCache carries what real endpoints add: the alias's extra parameters in the
// request, and what served each answer in the response.
describe('modelCache entries from real endpoints', () => {
  const request: ChatRequest = { model: 'local', messages: [{ role: 'user', content: 'hi' }], temperature: 0, params: { reasoning_effort: 'none', chat_template_kwargs: { enable_thinking: false } } };
  const response: ModelResponse = { text: 'hello', finish: 'stop', usage: { input: 1, output: 1 }, served: { model: 'local', fingerprint: 'b6000', identity: 'model_path /m/a.gguf' } };

  it('keep params and served', () => {
    expect(validateModelCache([{ key: requestKey(request), request, response }], 'modelCache')).toEqual([{ key: requestKey(request), request, response }]);
  });

  it('refuse a served field that is not one', () => {
    expect(() => validateModelCache([{ key: requestKey(request), request, response: { ...response, served: { model: 'x', gpu: 'y' } } }], 'modelCache')).toThrow('modelCache[0].response.served');
    expect(() => validateModelCache([{ key: requestKey(request), request, response: { ...response, served: { model: 3 } } }], 'modelCache')).toThrow('modelCache[0].response.served.model');
  });
});
