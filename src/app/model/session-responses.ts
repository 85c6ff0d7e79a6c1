/**
 * Model responses travel with a session: an exported session file or report carries the responses
 * its results used (`modelCache`, as the command's `--save` and `--html` write it), so it
 * re-analyses elsewhere without any model. An opened file's responses stay with its session: they
 * answer that study's requests that this browser's response store lacks, and are never put into
 * the store, where they would answer every later study (a forged file would poison them all).
 * Entries in a session file were validated at import (each key is its request's, and only those
 * its results name are kept).
 */
import type { AsyncResponseStore, CacheEntry } from '../../model/index.ts';
import type { ModelCacheEntry, Session } from '../../session/types.ts';
import type { ResponseStore } from './response-store.ts';

/** The session with the stored responses its results used, and how many of those were not stored. */
export async function withModelResponses(session: Session, store: Pick<ResponseStore, 'getMany'>): Promise<{ session: Session; missing: number }> {
  const keys = [...new Set(session.results.flatMap((r) => r.modelKeys ?? []))].sort();
  if (keys.length === 0) return { session, missing: 0 };
  const found = await store.getMany(keys);
  const modelCache: ModelCacheEntry[] = keys.flatMap((key) => {
    const entry = found.get(key);
    return entry ? [{ key, request: entry.request, response: entry.response }] : [];
  });
  // Responses the session already carried (opened from a file) count too.
  const carried = new Map((session.modelCache ?? []).map((e) => [e.key, e]));
  for (const key of keys) if (!found.has(key) && carried.has(key)) modelCache.push(carried.get(key)!);
  modelCache.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const { modelCache: _old, ...rest } = session;
  return { session: modelCache.length > 0 ? { ...rest, modelCache } : rest, missing: keys.length - modelCache.length };
}

/**
 * The response store as one study's analysis sees it: this browser's own responses first, then
 * the ones its session file carried, for keys the store lacks (a file's entry never replaces a
 * response this browser fetched). New responses go to the store; carried ones are never written.
 */
export function withCarriedResponses(store: AsyncResponseStore, carried: readonly ModelCacheEntry[]): AsyncResponseStore {
  if (carried.length === 0) return store;
  const byKey = new Map(carried.map((e) => [e.key, e]));
  return {
    async getMany(keys: readonly string[]): Promise<Map<string, CacheEntry>> {
      const found = await store.getMany(keys);
      for (const key of keys) {
        const entry = byKey.get(key);
        if (!found.has(key) && entry) found.set(key, entry);
      }
      return found;
    },
    putMany: (entries) => store.putMany(entries),
  };
}
