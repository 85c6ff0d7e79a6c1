import type { ModelUsage } from '../engine/model-call.ts';
import { FormatError } from '../formats/format-error.ts';
import { expectInteger, expectObject, expectString } from '../formats/validate.ts';
import { requiredField } from './validate-fields.ts';

function count(value: unknown, path: string): number {
  const n = expectInteger(value, path);
  if (n < 0) throw new FormatError(path, `expected a count (an integer >= 0), got ${n}`);
  return n;
}

/** Model usage of a case or a batch (model steps), rebuilt from untrusted JSON. */
export function validateUsage(value: unknown, path: string): ModelUsage {
  const object = expectObject(value, path);
  return {
    requests: requiredField(object, 'requests', path, count),
    cacheHits: requiredField(object, 'cacheHits', path, count),
    inputTokens: requiredField(object, 'inputTokens', path, count),
    outputTokens: requiredField(object, 'outputTokens', path, count),
  };
}

/** A response-cache key: 64 lower-case hex digits (SHA-256). */
export function expectRequestKey(value: unknown, path: string): string {
  const key = expectString(value, path);
  if (!/^[0-9a-f]{64}$/.test(key)) throw new FormatError(path, 'expected a response-cache key (64 lower-case hex digits)');
  return key;
}
