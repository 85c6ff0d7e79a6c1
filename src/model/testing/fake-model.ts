import type { ChatRequest, ModelResponse } from '../../engine/model-call.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';

/**
 * The fake endpoint's deterministic test model: the answer is a pure function of the request,
 * the same as the engine's toy model (src/engine/testing/toy-model.ts), so a definition analysed
 * against the fake endpoint and its simulated twin (written with `toyChooseLogits`) agree exactly.
 * Its rules, which tests and demos may rely on:
 *
 * - chat: if the system message contains `ANSWER:<x>` the answer is `<x>`; otherwise one of
 *   alpha, beta, gamma, delta, chosen by a hash of the last message (and the seed, when given);
 *   finish "stop".
 * - choose (a `logprobs` request whose last message lists `A. option` lines): the text is the
 *   first letter, finish "length", and `topLogprobs` gives every listed letter a normalised
 *   log-probability: each option gets a hash-derived raw score in [0, 1) from the whole prompt,
 *   plus 3 for the option named by `PREFER:<option>` anywhere in the messages.
 * - usage: input = the words of all messages, output = 1.
 */
export function fakeModelAnswer(request: ChatRequest): ModelResponse {
  return toyAnswer(request);
}
