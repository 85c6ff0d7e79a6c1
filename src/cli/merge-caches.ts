/**
 * Merging response caches (docs/shards.md, "one cache per shard"): `--cache A --cache B ...`
 * reads every file and writes to the first only, so the responses of B, C and of the session
 * files' `modelCache` that A lacks are appended to A, through the cache's own writer (one whole
 * line per entry, a torn last line cut first). Run again, it adds nothing.
 */
import { openCaches, readCacheFile } from '../model/jsonl-cache.node.ts';
import type { ModelCacheEntry } from '../session/types.ts';

export interface CacheMerge {
  /** Entries appended to the first file. */
  added: number;
  /** Lines skipped while reading (torn last lines, forged entries). */
  warnings: string[];
}

export function mergeCacheFiles(files: readonly string[], fromSessions: readonly ModelCacheEntry[] = []): CacheMerge {
  const [first, ...others] = files;
  const { cache, warnings } = openCaches([first]);
  const before = cache.size;
  for (const file of others) {
    const read = readCacheFile(file);
    warnings.push(...read.warnings);
    for (const entry of read.entries) cache.put(entry.key, entry.request, entry.response);
  }
  for (const entry of fromSessions) cache.put(entry.key, entry.request, entry.response);
  return { added: cache.size - before, warnings };
}
