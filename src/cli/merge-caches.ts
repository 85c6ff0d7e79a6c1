/**
 * Merging response caches (docs/shards.md, "one cache per shard"): `--cache A --cache B ...`
 * reads every file and writes to the first only, so the responses of B, C, ... that A lacks are
 * appended to A, through the cache's own writer (one whole line per entry, a torn last line cut
 * first). Run again, it adds nothing. Two files that answer one request differently are refused
 * before anything is written: which answer is right cannot be told, and taking either silently
 * would make a study nobody computed. Session files' own responses are merged in only when the
 * user asks (`--keep-responses`); otherwise they stay with their session.
 */
import { answerText } from '../engine/answer-text.ts';
import { openCaches, readCacheFile } from '../model/index.node.ts';
import type { CacheEntry } from '../model/index.ts';

export interface CacheMerge {
  /** Entries appended to the first file. */
  added: number;
  /** Lines skipped while reading (torn last lines, forged entries). */
  warnings: string[];
}

/** Two cache files answer the same request differently; the message names both and the key. */
export class CacheConflictError extends Error {
  override name = 'CacheConflictError';
}

/** `fromSessions`: the session files' responses, given only with --keep-responses. */
export function mergeCacheFiles(files: readonly string[], fromSessions: readonly CacheEntry[] = []): CacheMerge {
  const [first, ...others] = files;
  const { cache, warnings } = openCaches([first]);
  const before = cache.size;
  // Every file is read and checked before the first line is appended.
  const owner = new Map<string, { file: string; response: string }>();
  for (const entry of cache.entries()) owner.set(entry.key, { file: `--cache ${first}`, response: answerText(entry.response) });
  const toAdd: CacheEntry[] = [];
  const sources = others.map((file) => ({ file: `--cache ${file}`, ...readCacheFile(file) }));
  sources.push({ file: 'the session files', entries: [...fromSessions], warnings: [], validLength: 0, needsNewline: false, torn: false });
  for (const { file, entries, warnings: skipped } of sources) {
    warnings.push(...skipped);
    for (const entry of entries) {
      const response = answerText(entry.response);
      const known = owner.get(entry.key);
      if (known === undefined) {
        owner.set(entry.key, { file, response });
        toAdd.push(entry);
      } else if (known.response !== response) {
        throw new CacheConflictError(`${file}: a different response for request ${entry.key.slice(0, 12)}... than ${known.file} has; keep the caches of different runs apart`);
      }
    }
  }
  for (const entry of toAdd) cache.put(entry.key, entry.request, entry.response);
  return { added: cache.size - before, warnings };
}
