import { chooseAnswerProblem, chooseLetters } from '../engine/choose-answer.ts';
import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';

/**
 * Why an answer cannot serve its request, or null when it can. Only log-probability requests can
 * get unusable answers: one without log-probabilities (a server without that support) or, for a
 * choose request, one whose first token is no option letter (a thinking model). Such answers are
 * failures, like HTTP errors: never cached, so a rerun after the server is fixed asks again.
 */
export function unusableAnswer(request: ChatRequest, response: ModelResponse): string | null {
  if (!request.logprobs) return null;
  if (chooseLetters(request).length > 0) return chooseAnswerProblem(request, response);
  return response.topLogprobs && response.topLogprobs.length > 0 ? null : 'the endpoint returned no log-probabilities (it must support "logprobs" and "top_logprobs" on chat completions)';
}
