/**
 * Model steps (docs/model-steps.md): the plain data that moves between a sandboxed
 * definition that calls `llm.chat` / `llm.choose`, the engine that replays it, and the host that
 * talks to an OpenAI-compatible endpoint. The engine never sends anything: a step whose response
 * is not known yet suspends, the engine reports the request as pending, and the host answers it
 * and replays. Everything here is structured-clone safe.
 */
import { canonicalize } from './canonical.ts';
import { sha256 } from './sha256.ts';

import type { LlmMessage } from './types.ts';

/** A message as sent: OpenAI's shape (`tool_calls` on assistant messages, `tool_call_id` on tool results). */
export type ChatMessage = LlmMessage;

/**
 * The body of `POST {base}/chat/completions` exactly as sent (the model alias already resolved to
 * its id; never `stream`). The response cache is keyed by the SHA-256 of its canonical JSON, so two
 * calls that would send the same body share one response.
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
  /** A 31-bit hash of the noise address (world, step, key), set when temperature > 0. */
  seed?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  /**
   * The alias's extra endpoint parameters (`reasoning_effort`, `chat_template_kwargs`, ...), sent
   * as top-level fields of the body beside the ones above (which they never replace); part of the key.
   */
  params?: Record<string, unknown>;
  /** Function definitions (OpenAI's `tools`), as the definition gave them. */
  tools?: unknown[];
}

/** What the host keeps of an endpoint's answer (no headers, no ids: only what replays need). */
export interface ModelResponse {
  text: string;
  /** The endpoint's `finish_reason` ("stop", "length", ...), or "unknown". */
  finish: string;
  usage: { input: number; output: number };
  /** For `logprobs` requests: the top log-probabilities of the first generated token. */
  topLogprobs?: { token: string; logprob: number }[];
  /** The answer's tool calls (`choices[0].message.tool_calls`: id when given, function name and arguments text). */
  toolCalls?: { id?: string; name: string; arguments: string }[];
  /** What the endpoint said served the request (its `model`, `system_fingerprint`, llama.cpp's model), to spot a model swapped behind an id. */
  served?: ServedModel;
}

/** Who answered: what the endpoint reports; each field only when it reported it. */
export interface ServedModel {
  /** The answer's `model` field (e.g. a dated snapshot of the id asked for). */
  model?: string;
  /** The answer's `system_fingerprint`. */
  fingerprint?: string;
  /** The model file behind the id, as the server lists it (llama.cpp's `/props` model path and `/models` meta). */
  identity?: string;
}

/** A response the host could not get: the message names the endpoint and quotes its error. */
export interface ModelFailure {
  error: string;
}

export type ModelAnswer = ModelResponse | ModelFailure;

export function isModelFailure(answer: ModelAnswer): answer is ModelFailure {
  return typeof (answer as ModelFailure).error === 'string';
}

/** A request a step is waiting for. `step` (and `caseId`) name who asked, for errors and accounting. */
export interface PendingRequest {
  key: string;
  request: ChatRequest;
  step: string;
}

/** Requests and tokens, per case and for a batch (`usage` in the command's JSON). */
export interface ModelUsage {
  /** Requests sent to the endpoint (each distinct body once, retries not counted). */
  requests: number;
  /** Distinct requests answered from the response cache. */
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
}

export const NO_USAGE: Readonly<ModelUsage> = Object.freeze({ requests: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 });

/**
 * Keys by canonical text: a case replays the same requests in every coalition and round, and the
 * hash was a fifth of the CPU of a model-step analysis. Bounded: cleared when it grows past
 * KEY_MEMO_LIMIT, so a long batch of distinct prompts cannot grow it without end.
 */
const keyMemo = new Map<string, string>();
const KEY_MEMO_LIMIT = 4096;

/** Lower-case hex SHA-256 of a text's UTF-8 bytes: the engine's own. */
function ownHexSha256(text: string): string {
  let hex = '';
  for (const b of sha256(new TextEncoder().encode(text))) hex += b.toString(16).padStart(2, '0');
  return hex;
}
let hexSha256 = ownHexSha256;

/**
 * Key requests with a host's native SHA-256 (Node's `crypto`): the same hex, several times faster
 * on long requests (a 2 000-turn replay keys about 450 MB of canonical JSON, and the engine's own
 * SHA-256 was most of its worker's time). `hash(text)` must be the lower-case hex SHA-256 of the
 * text's UTF-8 bytes; null goes back to the engine's own.
 */
export function useNativeSha256(hash: ((text: string) => string) | null): void {
  hexSha256 = hash ?? ownHexSha256;
}

/** The response cache's key of a request: lower-case hex SHA-256 of its canonical JSON (sorted keys). */
export function requestKey(request: ChatRequest): string {
  const text = canonicalize(request);
  const known = keyMemo.get(text);
  if (known !== undefined) return known;
  const hex = hexSha256(text);
  if (keyMemo.size >= KEY_MEMO_LIMIT) keyMemo.clear();
  keyMemo.set(text, hex);
  return hex;
}

/** A batch's model usage: the sum of its cases' (each request is charged to the first case that needed it). */
export function sumUsage(usages: Iterable<ModelUsage | undefined>): ModelUsage | undefined {
  let total: ModelUsage | undefined;
  for (const u of usages) {
    if (!u) continue;
    total ??= { ...NO_USAGE };
    total.requests += u.requests;
    total.cacheHits += u.cacheHits;
    total.inputTokens += u.inputTokens;
    total.outputTokens += u.outputTokens;
  }
  return total;
}
