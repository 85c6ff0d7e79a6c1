import { seededRng } from '../rng.ts';
import type { Rng } from '../types.ts';

/**
 * The share of `runs` independent runs (seeds 1 to runs, each its own generator) in which
 * `happens` is true: the error or miss rate a coverage test holds below its alpha.
 */
export function shareOfSeededRuns(runs: number, happens: (rng: Rng) => boolean): number {
  let count = 0;
  for (let seed = 1; seed <= runs; seed++) if (happens(seededRng(seed))) count++;
  return count / runs;
}
