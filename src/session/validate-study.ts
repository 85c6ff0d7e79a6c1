/** Validators for a session's `study` mark and its `modelCache` entries (untrusted JSON). */
import { requestKey, type ChatMessage, type ChatRequest, type ModelResponse } from '../engine/model-call.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath } from '../formats/json-path.ts';
import { expectArray, expectInteger, expectObject, expectString, rejectUnknownFields } from '../formats/validate.ts';
import type { ModelCacheEntry, StudyMark } from './types.ts';
import { arrayOf, expectBoolean, expectInterval, expectNonNegative, expectOneOf, optionalField, requiredField } from './validate-fields.ts';
import { BATCH_BOUNDS } from '../engine/setting-choices.ts';

function expectHexDigest(value: unknown, path: string): string {
  const text = expectString(value, path);
  if (!/^[0-9a-f]{64}$/.test(text)) throw new FormatError(path, `expected 64 lower-case hex digits (a SHA-256), got ${JSON.stringify(text.slice(0, 80))}`);
  return text;
}

function validateShard(value: unknown, path: string): { index: number; count: number } {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['index', 'count'], path);
  const count = requiredField(object, 'count', path, expectInteger);
  if (count < 1) throw new FormatError(childPath(path, 'count'), `expected a shard count >= 1, got ${count}`);
  const index = requiredField(object, 'index', path, expectInteger);
  if (index < 1 || index > count) throw new FormatError(childPath(path, 'index'), `expected a shard index from 1 to ${count}, got ${index}`);
  return { index, count };
}

/** The `study` field: fingerprint, optional shard, batch bound and metric range. */
export function validateStudyMark(value: unknown, path: string): StudyMark {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['fingerprint', 'shard', 'batchBound', 'range'], path);
  const fingerprint = requiredField(object, 'fingerprint', path, expectHexDigest);
  const shard = optionalField(object, 'shard', path, validateShard);
  const batchBound = optionalField(object, 'batchBound', path, (v, p) => expectOneOf(v, BATCH_BOUNDS, p));
  const range = optionalField(object, 'range', path, expectInterval);
  return { fingerprint, ...(shard && { shard }), ...(batchBound && { batchBound }), ...(range && { range }) };
}

const ROLES: readonly ChatMessage['role'][] = ['system', 'user', 'assistant', 'tool'];

function validateMessage(value: unknown, path: string): ChatMessage {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['role', 'content'], path);
  return { role: requiredField(object, 'role', path, (v, p) => expectOneOf(v, ROLES, p)), content: requiredField(object, 'content', path, expectString) };
}

function expectWhole(value: unknown, path: string): number {
  const n = expectInteger(value, path);
  if (n < 0) throw new FormatError(path, `expected a whole number >= 0, got ${n}`);
  return n;
}

/** A chat request as sent, copied field by field (the fields of ChatRequest only). */
function validateRequest(value: unknown, path: string): ChatRequest {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['model', 'messages', 'temperature', 'max_tokens', 'stop', 'seed', 'logprobs', 'top_logprobs', 'tools'], path);
  const request: ChatRequest = {
    model: requiredField(object, 'model', path, expectString),
    messages: requiredField(object, 'messages', path, (v, p) => arrayOf(v, p, validateMessage)),
  };
  const temperature = optionalField(object, 'temperature', path, expectNonNegative);
  if (temperature !== undefined) request.temperature = temperature;
  const maxTokens = optionalField(object, 'max_tokens', path, expectWhole);
  if (maxTokens !== undefined) request.max_tokens = maxTokens;
  const stop = optionalField(object, 'stop', path, (v, p) => arrayOf(v, p, expectString));
  if (stop !== undefined) request.stop = stop;
  const seed = optionalField(object, 'seed', path, expectWhole);
  if (seed !== undefined) request.seed = seed;
  const logprobs = optionalField(object, 'logprobs', path, expectBoolean);
  if (logprobs !== undefined) request.logprobs = logprobs;
  const top = optionalField(object, 'top_logprobs', path, expectWhole);
  if (top !== undefined) request.top_logprobs = top;
  const tools = optionalField(object, 'tools', path, (v, p) => arrayOf(v, p, (t, tp) => JSON.parse(JSON.stringify(expectObject(t, tp))) as unknown));
  if (tools !== undefined) request.tools = tools;
  return request;
}

function validateResponse(value: unknown, path: string): ModelResponse {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['text', 'finish', 'usage', 'topLogprobs', 'served', 'toolCalls'], path);
  const usage = requiredField(object, 'usage', path, (v, p) => {
    const u = expectObject(v, p);
    rejectUnknownFields(u, ['input', 'output'], p);
    return { input: requiredField(u, 'input', p, expectWhole), output: requiredField(u, 'output', p, expectWhole) };
  });
  const response: ModelResponse = { text: requiredField(object, 'text', path, expectString), finish: requiredField(object, 'finish', path, expectString), usage };
  const top = optionalField(object, 'topLogprobs', path, (v, p) =>
    arrayOf(v, p, (t, tp) => {
      const o = expectObject(t, tp);
      rejectUnknownFields(o, ['token', 'logprob'], tp);
      const logprob = requiredField(o, 'logprob', tp, (x, xp) => {
        if (typeof x !== 'number' || Number.isNaN(x) || x > 0) throw new FormatError(xp, 'expected a log-probability (a number <= 0)');
        return x;
      });
      return { token: requiredField(o, 'token', tp, expectString), logprob };
    }),
  );
  if (top !== undefined) response.topLogprobs = top;
  const calls = optionalField(object, 'toolCalls', path, (v, p) =>
    arrayOf(v, p, (c, cp) => {
      const o = expectObject(c, cp);
      rejectUnknownFields(o, ['name', 'arguments'], cp);
      return { name: requiredField(o, 'name', cp, expectString), arguments: requiredField(o, 'arguments', cp, expectString) };
    }),
  );
  if (calls !== undefined) response.toolCalls = calls;
  // What the endpoint said served the answer: the model host writes it on live answers.
  const served = optionalField(object, 'served', path, (v, p) => {
    const o = expectObject(v, p);
    rejectUnknownFields(o, ['model', 'fingerprint', 'identity'], p);
    const out: NonNullable<ModelResponse['served']> = {};
    for (const name of ['model', 'fingerprint', 'identity'] as const) {
      const s = optionalField(o, name, p, expectString);
      if (s !== undefined) out[name] = s;
    }
    return out;
  });
  if (served !== undefined) response.served = served;
  return response;
}

/**
 * The `modelCache` field: entries whose key is the SHA-256 of their request's canonical JSON, so
 * an entry can only ever answer the request it was made for; one entry per key.
 */
export function validateModelCache(value: unknown, path: string): ModelCacheEntry[] {
  const seen = new Set<string>();
  expectArray(value, path);
  return arrayOf(value, path, (item, itemPath) => {
    const object = expectObject(item, itemPath);
    rejectUnknownFields(object, ['key', 'request', 'response'], itemPath);
    const key = requiredField(object, 'key', itemPath, expectHexDigest);
    const request = requiredField(object, 'request', itemPath, validateRequest);
    const response = requiredField(object, 'response', itemPath, validateResponse);
    if (requestKey(request) !== key) throw new FormatError(childPath(itemPath, 'key'), 'does not match its request (an entry may only answer the request it was made for)');
    if (seen.has(key)) throw new FormatError(childPath(itemPath, 'key'), 'a second entry for the same request');
    seen.add(key);
    return { key, request, response };
  });
}
