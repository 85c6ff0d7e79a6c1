import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { Rng } from './types.ts';

/** A seeded uniform [0, 1) generator (xoroshiro128+, 53-bit floats): the estimators' only randomness. */
export function seededRng(seed: number): Rng {
  const gen = xoroshiro128plus((seed ^ Math.floor(seed / 4294967296)) | 0);
  return () => uniformFloat64(gen);
}
