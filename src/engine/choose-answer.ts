import type { ChatRequest, ModelResponse } from './model-call.ts';

/** The line that starts the lettered options of a choose request (the model answers with one letter). */
export const CHOOSE_INSTRUCTION = 'Answer with the letter of one option only.';

/** The option letters a choose request lists (A, B, ... after the last CHOOSE_INSTRUCTION), or [] when it lists none. */
export function chooseLetters(request: ChatRequest): string[] {
  const last = request.messages[request.messages.length - 1]?.content ?? '';
  const at = last.lastIndexOf(CHOOSE_INSTRUCTION);
  if (at < 0) return [];
  return [...last.slice(at).matchAll(/^([A-Z])\. /gm)].map((m) => m[1]);
}

/** A token's option label: trimmed, without a trailing "." or ")", when it is one character. */
export function tokenLabel(token: string): string | null {
  const label = token.trim().replace(/[.)]$/, '');
  return label.length === 1 ? label : null;
}

/**
 * Why a choose answer cannot give the options' probabilities, or null when it can: it has no
 * log-probabilities (a server without `logprobs` support), or none of its first token's top
 * tokens is an option letter (a thinking model starts with `<think>`, a chat model with prose).
 * The host refuses to cache such an answer, and the step's error quotes the tokens that came back.
 */
export function chooseAnswerProblem(request: ChatRequest, response: ModelResponse): string | null {
  const top = response.topLogprobs;
  if (!top || top.length === 0) return `the endpoint returned no log-probabilities (it must support "logprobs" and "top_logprobs" on chat completions; answer text ${quoteTokens([response.text])})`;
  const letters = chooseLetters(request);
  const wanted = new Set(letters);
  if (top.some((t) => Number.isFinite(t.logprob) && wanted.has(tokenLabel(t.token) ?? ''))) return null;
  const shown = [...top].sort((a, b) => b.logprob - a.logprob).slice(0, 5).map((t) => t.token);
  const thinking = top.some((t) => /<\/?think|<\|?(channel|reasoning)|^\s*(okay|let me|hmm)/i.test(t.token)) ? ' (a thinking model: turn its thinking off, e.g. --model-param ALIAS.reasoning_effort=none, or use a model that answers at once)' : '';
  return `none of the option letters (${letters.join(', ') || 'none listed'}) is among the first token's top log-probabilities; the endpoint's first tokens were ${quoteTokens(shown)}${thinking}`;
}

function quoteTokens(tokens: readonly string[]): string {
  return tokens.map((t) => JSON.stringify(t.length > 40 ? `${t.slice(0, 37)}...` : t)).join(', ');
}
