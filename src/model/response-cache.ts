import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';

/** One cached response: the request it answers (as sent) and its key, requestKey(request). */
export interface CacheEntry {
  key: string;
  request: ChatRequest;
  response: ModelResponse;
}

/**
 * Responses by request key (docs/model-host.md). The host reads it before sending anything and
 * puts every response it gets; the page keeps one with the session, the command one per run over
 * its `--cache` files. Implementations never hold failures: only real answers are kept.
 */
export interface ResponseCache {
  get(key: string): ModelResponse | undefined;
  has(key: string): boolean;
  put(key: string, request: ChatRequest, response: ModelResponse): void;
  entries(): Iterable<CacheEntry>;
  readonly size: number;
}

/** A response cache in memory (the page's, and the base of the JSONL one). */
export class MemoryResponseCache implements ResponseCache {
  private readonly byKey = new Map<string, CacheEntry>();

  constructor(entries: Iterable<CacheEntry> = []) {
    for (const entry of entries) this.byKey.set(entry.key, entry);
  }

  get(key: string): ModelResponse | undefined {
    return this.byKey.get(key)?.response;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  put(key: string, request: ChatRequest, response: ModelResponse): void {
    this.byKey.set(key, { key, request, response });
  }

  entries(): Iterable<CacheEntry> {
    return this.byKey.values();
  }

  get size(): number {
    return this.byKey.size;
  }
}
