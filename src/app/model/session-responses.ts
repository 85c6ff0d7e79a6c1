/**
 * Model responses travel with a session: an exported session file or report carries the responses
 * its results used (`modelCache`, as the command's `--save` and `--html` write it), so it
 * re-analyses elsewhere without any model; an opened one puts its responses into this browser's
 * response store. Entries in a session file were validated at import (each key is its request's).
 */
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

/** Put a session's carried responses into the store (an opened session file or report). */
export async function storeSessionResponses(session: Session, store: Pick<ResponseStore, 'putMany'>): Promise<number> {
  const entries = session.modelCache ?? [];
  if (entries.length > 0) await store.putMany(entries);
  return entries.length;
}
