import type { ChatRequest, ModelResponse } from '../../engine/model-call.ts';
import type { LocalModel } from '../local-model.ts';

/**
 * A stand-in for a model file run in the page or by the command (`the in-page model tiny.gguf`):
 * it takes the requests for model id `id`, answers each with `answer` and keeps them in `calls`.
 */
export function fakeLocalModel(id: string, answer: (request: ChatRequest) => ModelResponse): LocalModel & { calls: ChatRequest[] } {
  const calls: ChatRequest[] = [];
  return {
    calls,
    handles: (modelId) => modelId === id,
    describe: () => 'the in-page model tiny.gguf',
    complete: async (request) => {
      calls.push(request);
      return answer(request);
    },
  };
}
