/** A part of a study (`--shard i/k`): 1-based index i of k parts. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Whether the case at 0-based position j belongs to shard i/k: j mod k = i - 1 (round robin, so
 * every shard gets cases from the whole file, and a file's order decides nothing else).
 */
export function inShard(position: number, shard: Shard): boolean {
  return position % shard.count === shard.index - 1;
}

/** The items of one shard, in their order. */
export function shardOf<T>(items: readonly T[], shard: Shard): T[] {
  return items.filter((_, j) => inShard(j, shard));
}

/** "i/k" parsed; null when it is not two whole numbers with 1 <= i <= k. */
export function parseShard(text: string): Shard | null {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  if (!match) return null;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return index >= 1 && index <= count ? { index, count } : null;
}
