import type { Rng } from '../types.ts';
import { median } from './median.ts';
import { quantileSorted } from './quantile.ts';

/**
 * Percentile bootstrap interval of the median (Efron & Tibshirani, An Introduction to the
 * Bootstrap, 1993, ch. 13): resample the values with replacement `resamples` times, take each
 * resample's median, and report the (1 - level) / 2 and (1 + level) / 2 quantiles of those medians.
 * The credit-assignment audit resamples cases this way (10 000 times) for its rank-fidelity
 * intervals. Randomness is injected, so a seed gives the same interval everywhere. Null when empty.
 */
export function bootstrapMedianInterval(values: readonly number[], rng: Rng, resamples = 10_000, level = 0.95): [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  const medians = new Float64Array(resamples);
  const draw = new Array<number>(n);
  for (let b = 0; b < resamples; b++) {
    for (let k = 0; k < n; k++) draw[k] = values[Math.floor(rng() * n)];
    medians[b] = median(draw);
  }
  medians.sort();
  return [quantileSorted(medians, (1 - level) / 2), quantileSorted(medians, (1 + level) / 2)];
}
