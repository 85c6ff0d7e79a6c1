import type { ModelResponse } from '../engine/model-call.ts';
import { checkCacheEntry, checkModelResponse, type CachedResponseFail } from '../engine/validate-cached-response.ts';
import type { CacheEntry } from './response-cache.ts';

/** An untrusted cache entry that is not one; the message starts with its JSON path. */
export class CacheEntryError extends Error {
  override name = 'CacheEntryError';
  constructor(
    message: string,
    /** True when the entry is well formed but its key is not its request's: a forged or stale entry. */
    readonly forged = false,
  ) {
    super(message);
  }
}

const fail: CachedResponseFail = (path, detail, forged = false) => new CacheEntryError(`${path}: ${detail}`, forged);

/**
 * Check an untrusted response cache entry (from a session file, a report or a `--cache` file) and
 * return a fresh plain copy. `path` names it in errors, e.g. `modelResponses[3]`. The key must be
 * requestKey(request): an entry must never answer a request other than the one it was made for
 * (such an entry throws with `forged` set, so a reader can drop it instead of refusing the file).
 */
export function validateCacheEntry(value: unknown, path: string): CacheEntry {
  return checkCacheEntry(value, path, fail);
}

/** A ModelResponse copied field by field; anything else is an error naming its path. */
export function validateModelResponse(value: unknown, path: string): ModelResponse {
  return checkModelResponse(value, path, fail);
}
