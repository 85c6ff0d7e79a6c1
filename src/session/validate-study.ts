/** Validators for a session's `study` mark and its `modelCache` entries (untrusted JSON). */
import { checkCacheEntry } from '../engine/validate-cached-response.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath } from '../formats/json-path.ts';
import { expectArray, expectInteger, expectObject, expectString, rejectUnknownFields } from '../formats/validate.ts';
import type { ModelCacheEntry, StudyMark } from './types.ts';
import { arrayOf, expectBoolean, expectInterval, expectOneOf, optionalField, requiredField } from './validate-fields.ts';
import { BATCH_BOUNDS, BATCH_STOP_RULES } from '../engine/setting-choices.ts';

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

/** The `study` field: fingerprint, optional shard, batch bound, metric range and batch stop. */
export function validateStudyMark(value: unknown, path: string): StudyMark {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['fingerprint', 'shard', 'batchBound', 'range', 'batchStop', 'batchStopRule'], path);
  const fingerprint = requiredField(object, 'fingerprint', path, expectHexDigest);
  const shard = optionalField(object, 'shard', path, validateShard);
  const batchBound = optionalField(object, 'batchBound', path, (v, p) => expectOneOf(v, BATCH_BOUNDS, p));
  const range = optionalField(object, 'range', path, expectInterval);
  const batchStop = optionalField(object, 'batchStop', path, expectBoolean);
  const batchStopRule = optionalField(object, 'batchStopRule', path, (v, p) => expectOneOf(v, BATCH_STOP_RULES, p));
  return {
    fingerprint,
    ...(shard && { shard }),
    ...(batchBound && { batchBound }),
    ...(range && { range }),
    ...(batchStop !== undefined && { batchStop }),
    ...(batchStopRule !== undefined && { batchStopRule }),
  };
}

/**
 * The `modelCache` field: entries whose key is the SHA-256 of their request's canonical JSON, so
 * an entry can only ever answer the request it was made for; one entry per key.
 */
export function validateModelCache(value: unknown, path: string): ModelCacheEntry[] {
  const seen = new Set<string>();
  expectArray(value, path);
  return arrayOf(value, path, (item, itemPath) => {
    const entry = checkCacheEntry(item, itemPath, (at, detail) => new FormatError(at, detail));
    if (seen.has(entry.key)) throw new FormatError(childPath(itemPath, 'key'), 'a second entry for the same request');
    seen.add(entry.key);
    return entry;
  });
}
