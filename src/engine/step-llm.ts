import type { ChatMessage, ChatRequest, ModelResponse } from './model-call.ts';
import type { ModelContext } from './model-context.ts';
import { CHOOSE_INSTRUCTION, chooseAnswerProblem, tokenLabel } from './choose-answer.ts';
import { DEFAULT_KEY, type WorldNoise } from './noise.ts';
import { MAX_PROMPT_CHARS } from './limits.ts';
import type { Llm, LlmChatArgs, LlmChatResult, LlmChooseArgs, LlmMessage, LlmToolCall, Noise } from './types.ts';

/** Most options llm.choose takes: one letter each, A to Z. */
export const MAX_CHOOSE_OPTIONS = 26;
/** Log-probabilities asked for per token (the most OpenAI-compatible endpoints return). */
export const CHOOSE_TOP_LOGPROBS = 20;
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
/** Noise slot of a chat request's seed (the '#' prefix keeps it apart from option names). */
const SLOT_SEED = '#llm-seed';

/**
 * The `llm` a step receives in one world (docs/model-steps.md). Requests are built from the arguments
 * alone (plus the world's seed for sampled chats), so every coalition that sends the same prompt
 * gets the same response, and `choose` is Gumbel-max over the model's own label probabilities
 * with the step's addressed Gumbels: common random numbers for real models.
 */
export class StepLlm implements Llm {
  constructor(
    private readonly world: WorldNoise,
    private readonly step: string,
    private readonly noise: Noise,
    private readonly context: ModelContext,
  ) {}

  chat(args: LlmChatArgs): LlmChatResult {
    const alias = aliasOf(args.model, 'llm.chat');
    const request = withParams(chatRequest(args, this.context.modelId(alias, this.step, 'llm.chat'), (key) => this.seedFor(key)), this.context.paramsOf(alias), 'chat');
    const response = this.context.lookup(request, this.step, 'llm.chat');
    const result: LlmChatResult = { text: response.text, finish: response.finish, usage: { input: response.usage.input, output: response.usage.output } };
    if (response.toolCalls) result.toolCalls = response.toolCalls.map((c) => ({ ...(c.id !== undefined && { id: c.id }), name: c.name, arguments: c.arguments }));
    return result;
  }

  choose(args: LlmChooseArgs): string {
    const options = checkOptions(args?.options);
    const alias = aliasOf(args.model, 'llm.choose');
    const request = withParams(chooseRequest(args, options, this.context.modelId(alias, this.step, 'llm.choose')), this.context.paramsOf(alias));
    const response = this.context.lookup(request, this.step, 'llm.choose');
    const logits = labelLogits(response, options, this.step, request);
    return this.noise.categorical(logits, keyOf(args.key, 'llm.choose'));
  }

  /** A 31-bit seed addressed by (world, step, key), so endpoints that honour seeds reproduce a world. */
  private seedFor(key: string): number {
    return chatSeed(this.world, this.step, key);
  }
}

/** The seed of a sampled chat request in a world, addressed by (step, key): also how a host tells which call sent a request. */
export function chatSeed(world: WorldNoise, step: string, key: string): number {
  return Math.floor(world.uniform(step, key, SLOT_SEED) * 2 ** 31);
}

/**
 * The request of a chat call. A temperature of 0 asks for the greedy answer, the same in every
 * world, so it carries no seed; any other (or the endpoint's default) samples, so each world's
 * request carries its own seed.
 */
export function chatRequest(args: LlmChatArgs, model: string, seedFor: (key: string) => number): ChatRequest {
  if (args === null || typeof args !== 'object') throw new TypeError('llm.chat needs an object { messages, model?, temperature?, top_p?, max_tokens?, stop?, key?, tools? }');
  const request: ChatRequest = { model, messages: checkMessages(args.messages, 'llm.chat') };
  checkPromptSize(request.messages, 'llm.chat');
  const { temperature, top_p: topP, max_tokens: maxTokens, stop } = args;
  if (temperature !== undefined) {
    if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2)) throw new RangeError(`llm.chat: temperature must be a number from 0 to 2, got ${String(temperature)}`);
    request.temperature = temperature;
  }
  if (topP !== undefined) {
    if (typeof topP !== 'number' || !(topP > 0 && topP <= 1)) throw new RangeError(`llm.chat: top_p must be a number above 0 and at most 1, got ${String(topP)}`);
    request.top_p = topP;
  }
  if (maxTokens !== undefined) {
    if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError(`llm.chat: max_tokens must be a positive integer, got ${String(maxTokens)}`);
    request.max_tokens = maxTokens;
  }
  if (stop !== undefined) {
    if (!Array.isArray(stop) || stop.length > 4 || !stop.every((s) => typeof s === 'string' && s !== '')) throw new TypeError('llm.chat: stop must be an array of up to 4 non-empty strings');
    request.stop = [...stop];
  }
  if (args.tools !== undefined) {
    if (!Array.isArray(args.tools) || !args.tools.every((t) => t !== null && typeof t === 'object' && !Array.isArray(t))) throw new TypeError('llm.chat: tools must be an array of function definitions (objects)');
    request.tools = JSON.parse(JSON.stringify(args.tools)) as unknown[];
  }
  if (temperature !== 0) request.seed = seedFor(keyOf(args.key, 'llm.chat'));
  return request;
}

/**
 * The request of a choose call: the messages with the lettered options added to the last user
 * message (after a newline), or as a new user message when the last one is not the user's.
 * Strict chat templates (Gemma's, Mistral's) refuse two user messages in a row.
 */
export function chooseRequest(args: LlmChooseArgs, options: readonly string[], model: string): ChatRequest {
  const listing = options.map((option, k) => `${letter(k)}. ${option}`).join('\n');
  const instruction = `${CHOOSE_INSTRUCTION}\n${listing}`;
  const messages: ChatMessage[] = checkMessages(args.messages, 'llm.choose');
  const last = messages[messages.length - 1];
  if (last.role === 'user') messages[messages.length - 1] = { role: 'user', content: `${last.content}\n${instruction}` };
  else messages.push({ role: 'user', content: instruction });
  checkPromptSize(messages, 'llm.choose');
  return {
    model,
    messages,
    max_tokens: 1,
    logprobs: true,
    top_logprobs: CHOOSE_TOP_LOGPROBS,
    temperature: 0,
  };
}

/**
 * Logits of the options from the first token's top log-probabilities: the label tokens, trimmed
 * (and without a trailing "." or ")"), matched to the letters; two tokens of one label ("A" and
 * " A") add their probabilities. A label outside the top list gets -Infinity: it cannot be chosen.
 */
export function labelLogits(response: ModelResponse, options: readonly string[], step: string, request?: ChatRequest): Record<string, number> {
  const top = response.topLogprobs;
  if (!top || top.length === 0) {
    throw new Error(`llm.choose in step "${step}": the endpoint returned no log-probabilities (it must support "logprobs" and "top_logprobs" on chat completions)`);
  }
  const byLetter = new Map<string, number[]>();
  for (const { token, logprob } of top) {
    const label = tokenLabel(token);
    if (label === null || !Number.isFinite(logprob)) continue;
    const list = byLetter.get(label) ?? [];
    list.push(logprob);
    byLetter.set(label, list);
  }
  const logits: Record<string, number> = {};
  let any = false;
  options.forEach((option, k) => {
    const found = byLetter.get(letter(k));
    const value = found ? logSumExp(found) : -Infinity;
    if (value !== -Infinity) any = true;
    Object.defineProperty(logits, option, { value, enumerable: true, writable: true, configurable: true });
  });
  if (!any) {
    const why = request ? chooseAnswerProblem(request, response) : null;
    throw new Error(`llm.choose in step "${step}": ${why ?? `none of the option letters (${options.map((_, k) => letter(k)).join(', ')}) is among the answer's top log-probabilities`}`);
  }
  return logits;
}

/** The request with its alias's extra endpoint parameters (none: the request as it was, so its key does not change). */
/**
 * The alias's extra parameters on the request. Its `max_tokens`, a cap on chat answers, replaces a
 * chat call's own; a choice keeps its one token.
 */
function withParams(request: ChatRequest, params: Record<string, unknown> | undefined, call: 'chat' | 'choose' = 'choose'): ChatRequest {
  if (params === undefined) return request;
  if (!Object.hasOwn(params, 'max_tokens')) return { ...request, params };
  const { max_tokens: cap, ...rest } = params;
  const out: ChatRequest = call === 'chat' ? { ...request, max_tokens: cap as number } : { ...request };
  if (Object.keys(rest).length > 0) out.params = rest;
  return out;
}

function logSumExp(xs: readonly number[]): number {
  const max = Math.max(...xs);
  let sum = 0;
  for (const x of xs) sum += Math.exp(x - max);
  return max + Math.log(sum);
}

function letter(k: number): string {
  return String.fromCharCode(65 + k);
}

function aliasOf(model: unknown, call: string): string {
  if (model === undefined) return 'default';
  if (typeof model !== 'string' || model === '') throw new TypeError(`${call}: model must be a non-empty string (a model alias), got ${typeof model}`);
  return model;
}

function keyOf(key: unknown, call: string): string {
  if (key === undefined) return DEFAULT_KEY;
  if (typeof key !== 'string') throw new TypeError(`${call}: key must be a string, got ${typeof key}`);
  return key;
}

function checkMessages(messages: unknown, call: string): ChatMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) throw new TypeError(`${call}: messages must be a non-empty array of { role, content }`);
  return messages.map((m: unknown, i) => {
    const message = m as Partial<LlmMessage> | null;
    if (message === null || typeof message !== 'object') throw new TypeError(`${call}: messages[${i}] must be an object { role, content }`);
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) throw new TypeError(`${call}: messages[${i}].role must be one of system, user, assistant, tool`);
    if (typeof message.content !== 'string') throw new TypeError(`${call}: messages[${i}].content must be a string`);
    const out: ChatMessage = { role: message.role, content: message.content };
    if (message.tool_calls !== undefined) {
      if (message.role !== 'assistant') throw new TypeError(`${call}: messages[${i}].tool_calls: only an assistant message makes tool calls`);
      out.tool_calls = checkToolCalls(message.tool_calls, `${call}: messages[${i}].tool_calls`);
    }
    if (message.tool_call_id !== undefined) {
      if (message.role !== 'tool' || typeof message.tool_call_id !== 'string' || message.tool_call_id === '') throw new TypeError(`${call}: messages[${i}].tool_call_id must be a non-empty string on a tool message`);
      out.tool_call_id = message.tool_call_id;
    }
    return out;
  });
}

/** `[{ id, type: "function", function: { name, arguments } }]`, copied (arguments: JSON text). */
function checkToolCalls(calls: unknown, where: string): LlmToolCall[] {
  if (!Array.isArray(calls) || calls.length === 0) throw new TypeError(`${where} must be a non-empty array of { id, type: "function", function: { name, arguments } }`);
  return calls.map((c: unknown, k) => {
    const call = c as Partial<LlmToolCall> | null;
    const fn = call !== null && typeof call === 'object' ? call.function : undefined;
    if (call === null || typeof call !== 'object' || typeof call.id !== 'string' || call.id === '' || call.type !== 'function' || fn === null || typeof fn !== 'object' || typeof fn.name !== 'string' || fn.name === '' || typeof fn.arguments !== 'string') {
      throw new TypeError(`${where}[${k}] must be { id, type: "function", function: { name, arguments } } with strings (arguments: JSON text)`);
    }
    return { id: call.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } };
  });
}

/** Refuse a prompt (its messages; choose's options are one of them) past MAX_PROMPT_CHARS, before it is hashed or sent. */
function checkPromptSize(messages: readonly ChatMessage[], call: string): void {
  let size = 0;
  for (const m of messages) {
    size += m.content.length;
    for (const c of m.tool_calls ?? []) size += c.function.name.length + c.function.arguments.length;
  }
  if (size > MAX_PROMPT_CHARS) throw new RangeError(`${call}: the messages hold ${size} characters (at most ${MAX_PROMPT_CHARS})`);
}

function checkOptions(options: unknown): string[] {
  if (!Array.isArray(options) || options.length === 0 || options.length > MAX_CHOOSE_OPTIONS) {
    throw new TypeError(`llm.choose: options must be an array of 1 to ${MAX_CHOOSE_OPTIONS} strings`);
  }
  const seen = new Set<string>();
  for (const option of options) {
    if (typeof option !== 'string' || option.trim() === '') throw new TypeError('llm.choose: every option must be a non-empty string');
    if (seen.has(option)) throw new TypeError(`llm.choose: option "${option}" is listed twice`);
    seen.add(option);
  }
  return [...options];
}
