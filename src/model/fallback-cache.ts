import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import { MemoryResponseCache, type CacheEntry, type ResponseCache } from './response-cache.ts';

/**
 * A response cache over another one, with a file's own responses (a session's or report's
 * `modelCache`) behind it: a key is answered by the primary cache first (the user's `--cache`
 * files and what this run fetched), so a file's entry never replaces a response the user has; the
 * file's entries answer only what the primary lacks. New responses go to the primary only, and the
 * file's entries are never written anywhere: they stay with their session.
 */
export class FallbackResponseCache implements ResponseCache {
  private readonly carried: MemoryResponseCache;

  constructor(
    private readonly primary: ResponseCache,
    carried: Iterable<CacheEntry>,
  ) {
    this.carried = new MemoryResponseCache(carried);
  }

  get(key: string): ModelResponse | undefined {
    return this.primary.get(key) ?? this.carried.get(key);
  }

  has(key: string): boolean {
    return this.primary.has(key) || this.carried.has(key);
  }

  put(key: string, request: ChatRequest, response: ModelResponse): void {
    this.primary.put(key, request, response);
  }

  *entries(): Iterable<CacheEntry> {
    yield* this.primary.entries();
    for (const entry of this.carried.entries()) if (!this.primary.has(entry.key)) yield entry;
  }

  get size(): number {
    let size = this.primary.size;
    for (const entry of this.carried.entries()) if (!this.primary.has(entry.key)) size++;
    return size;
  }
}
