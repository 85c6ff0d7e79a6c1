import type { ModelResponse } from '../engine/model-call.ts';
import { excerpt } from './endpoint-error.ts';

/**
 * What the host keeps of an OpenAI-style chat completion body: `choices[0].message.content`,
 * `finish_reason`, `usage.prompt_tokens` / `completion_tokens` (0 when absent), and for logprobs
 * requests the first token's `choices[0].logprobs.content[0].top_logprobs` (only the first `maxTop`
 * entries: a list longer than asked is cut, not copied), and what the endpoint says served it
 * (`model`, `system_fingerprint`). Throws a TypeError naming the JSON path and quoting a short
 * excerpt of the body when it is not such an answer.
 */
export function parseChatResponse(body: string, maxTop = Infinity): ModelResponse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new TypeError(`the answer is not JSON: "${excerpt(body, 120)}"`);
  }
  const bad = (path: string, what: string) => new TypeError(`the answer's ${path} ${what}: "${excerpt(body, 120)}"`);
  if (!isRecord(json)) throw bad('body', 'is not an object');
  const choices = json.choices;
  if (!Array.isArray(choices) || choices.length === 0) throw bad('choices', 'is not a non-empty array');
  const choice: unknown = choices[0];
  if (!isRecord(choice)) throw bad('choices[0]', 'is not an object');
  const message = choice.message;
  if (!isRecord(message)) throw bad('choices[0].message', 'is not an object');
  // A null content (e.g. a refusal or a tool call) is an empty text, not a malformed answer.
  const content = message.content ?? '';
  if (typeof content !== 'string') throw bad('choices[0].message.content', 'is not a string');
  const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : 'unknown';
  const usage = isRecord(json.usage) ? json.usage : {};
  const response: ModelResponse = { text: content, finish, usage: { input: tokenCount(usage.prompt_tokens), output: tokenCount(usage.completion_tokens) } };
  const top = topLogprobs(choice.logprobs, bad, maxTop);
  if (top) response.topLogprobs = top;
  const served: NonNullable<ModelResponse['served']> = {};
  if (typeof json.model === 'string' && json.model !== '') served.model = json.model.slice(0, 200);
  if (typeof json.system_fingerprint === 'string' && json.system_fingerprint !== '') served.fingerprint = json.system_fingerprint.slice(0, 200);
  if (served.model !== undefined || served.fingerprint !== undefined) response.served = served;
  const calls = toolCalls(message.tool_calls, bad);
  if (calls) response.toolCalls = calls;
  return response;
}

function topLogprobs(logprobs: unknown, bad: (path: string, what: string) => TypeError, maxTop: number): ModelResponse['topLogprobs'] | undefined {
  if (!isRecord(logprobs) || !Array.isArray(logprobs.content) || logprobs.content.length === 0) return undefined;
  const first: unknown = logprobs.content[0];
  if (!isRecord(first)) throw bad('choices[0].logprobs.content[0]', 'is not an object');
  const list = first.top_logprobs;
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw bad('choices[0].logprobs.content[0].top_logprobs', 'is not an array');
  const out: { token: string; logprob: number }[] = [];
  const count = Math.min(list.length, maxTop);
  for (let k = 0; k < count; k++) {
    const entry: unknown = list[k];
    const path = `choices[0].logprobs.content[0].top_logprobs[${k}]`;
    if (!isRecord(entry) || typeof entry.token !== 'string') throw bad(`${path}.token`, 'is not a string');
    // Some servers send null for a probability of zero: such a token is as good as absent
    // (an absent label gets logit -Infinity), and JSON caches cannot hold -Infinity.
    if (entry.logprob === null) continue;
    const logprob = entry.logprob;
    if (typeof logprob !== 'number' || !Number.isFinite(logprob) || logprob > 1e-6) throw bad(`${path}.logprob`, 'is not a log-probability (a number <= 0)');
    out.push({ token: entry.token, logprob: Math.min(0, logprob) });
  }
  return out;
}

/** `message.tool_calls[k]`: its `id` when given, `function.{name, arguments}` (arguments as the endpoint wrote them: JSON text). */
function toolCalls(list: unknown, bad: (path: string, what: string) => TypeError): ModelResponse['toolCalls'] | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw bad('choices[0].message.tool_calls', 'is not an array');
  if (list.length === 0) return undefined;
  return list.map((call: unknown, k: number) => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== 'string') throw bad(`choices[0].message.tool_calls[${k}].function.name`, 'is not a string');
    const args = fn.arguments;
    const id = isRecord(call) && typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
    return { ...(id !== undefined && { id }), name: fn.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
  });
}

function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
