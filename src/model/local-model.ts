/**
 * A model file run by this process instead of an endpoint (docs/model-host.md, "Model files"): the
 * page's in-page model (wllama in a Web Worker) and the command's `--model-file` (node-llama-cpp).
 * Both answer the same `ChatRequest`s the endpoint path sends, rendered to one prompt text here, so a
 * study gives the same requests and cache keys whichever of them answers. The model id of a file is
 * `gguf-sha256:<hex>`: the cache key names the file's bytes, so answers of another model are never
 * served for it.
 */
import type { ChatMessage, ChatRequest, ModelResponse } from '../engine/model-call.ts';

/** A model file's model id: its SHA-256 (name-independent, the same in the page and the command). */
export function modelFileId(sha256Hex: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) throw new TypeError(`a model file's hash must be 64 lower-case hex digits, got "${sha256Hex}"`);
  return `gguf-sha256:${sha256Hex}`;
}

/** The hash a model file id names, or null when the id is not one. */
export function modelFileHash(modelId: string): string | null {
  const m = /^gguf-sha256:([0-9a-f]{64})$/.exec(modelId);
  return m ? m[1] : null;
}

/** A short form of a model file id for messages: `gguf-sha256:270cba1b…`. */
export function shortModelFileId(modelId: string): string {
  const hash = modelFileHash(modelId);
  return hash ? `gguf-sha256:${hash.slice(0, 8)}…` : modelId;
}

/** What runs a model file. `complete` answers one request at a time (the host queues them). */
export interface LocalModel {
  /** Whether requests with this model id go to this model (a model file id it can run). */
  handles(modelId: string): boolean;
  /** How messages name it: `the in-page model stories260K.gguf`. */
  describe(modelId: string): string;
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ModelResponse>;
}

/**
 * The prompt a model file completes: one `role: content` line per message, then `assistant:`.
 * Chat templates differ per model and a base model (stories260K) has none; one fixed rendering keeps
 * the page and the command on exactly the same tokens. Instruction-tuned files follow it less well
 * than their own template: the trade for identical answers in both places.
 */
export function renderPrompt(messages: readonly ChatMessage[], tools?: readonly unknown[]): string {
  // The tools a request offers are shown to the model as one line first; it answers in text only
  // (turning its text into tool calls is an endpoint's own parser, which a model file run here lacks).
  const offered = tools !== undefined && tools.length > 0 ? `tools: ${JSON.stringify(tools)}\n` : '';
  return `${offered}${messages.map((m) => `${m.role}: ${m.content}`).join('\n')}\nassistant:`;
}

/** Generated tokens when a request gives no `max_tokens` (a base model writes until it is stopped). */
export const DEFAULT_LOCAL_MAX_TOKENS = 128;
/** The context both hosts load a model file with (past a small model's training context its answers degrade, the same in both). */
export const LOCAL_CONTEXT_TOKENS = 2048;

/** What a model file is asked to do for a request, the same in the page and the command. */
export interface LocalCompletion {
  prompt: string;
  maxTokens: number;
  /** 0: greedy (the same text in both hosts). */
  temperature: number;
  seed: number;
  /** Top log-probabilities of the first token to return (0: none). */
  topLogprobs: number;
  stop: string[];
}

/** The completion a request asks for. */
export function localCompletion(request: ChatRequest): LocalCompletion {
  return {
    prompt: renderPrompt(request.messages, request.tools),
    maxTokens: request.max_tokens ?? DEFAULT_LOCAL_MAX_TOKENS,
    // OpenAI's default temperature is 1; a request without one samples there too.
    temperature: request.temperature ?? 1,
    seed: request.seed ?? 0,
    topLogprobs: request.logprobs === true ? Math.min(request.top_logprobs ?? 0, 20) : 0,
    stop: request.stop ?? [],
  };
}

/** Cut a generated text at its first stop string; whether one was found. */
export function cutAtStop(text: string, stops: readonly string[]): { text: string; stopped: boolean } {
  const hits = stops.filter((s) => s !== '').map((s) => text.indexOf(s)).filter((k) => k >= 0);
  return hits.length === 0 ? { text, stopped: false } : { text: text.slice(0, Math.min(...hits)), stopped: true };
}

/** The prompt does not fit the loaded context: a clear error instead of a silently cut prompt. */
export function checkContext(promptTokens: number, maxTokens: number, contextTokens: number): number {
  if (promptTokens >= contextTokens) throw new RangeError(`the prompt is ${promptTokens} tokens, more than the model file's context of ${contextTokens}`);
  return Math.max(1, Math.min(maxTokens, contextTokens - promptTokens));
}

/** The ModelResponse of a model file's answer (top log-probabilities cut at the number asked for). */
export function localResponse(
  answer: { text: string; finish: 'stop' | 'length'; promptTokens: number; outputTokens: number; firstTop?: readonly { token: string; logprob: number }[] },
  completion: LocalCompletion,
  served: { model: string; fingerprint: string },
): ModelResponse {
  const response: ModelResponse = { text: answer.text, finish: answer.finish, usage: { input: answer.promptTokens, output: answer.outputTokens }, served: { ...served } };
  if (completion.topLogprobs > 0 && answer.firstTop) {
    response.topLogprobs = answer.firstTop
      .slice(0, completion.topLogprobs)
      .filter((t) => Number.isFinite(t.logprob))
      .map((t) => ({ token: t.token, logprob: Math.min(0, t.logprob) }));
  }
  return response;
}
