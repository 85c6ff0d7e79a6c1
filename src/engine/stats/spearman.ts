import { averageRanks } from './average-ranks.ts';

/**
 * Spearman's rank correlation (Spearman 1904): Pearson's correlation of the average ranks, so ties
 * are handled exactly (the 1 - 6 sum d^2 / (n (n^2 - 1)) shortcut holds only without ties). Null
 * when it is undefined: fewer than two items, or either list constant (its ranks have no spread),
 * which the credit-assignment audit counts apart rather than as zero.
 */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError(`spearman: ${xs.length} scores against ${ys.length} values`);
  const n = xs.length;
  if (n < 2) return null;
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  const mean = (n + 1) / 2; // the mean of any average-rank list of n items
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i] - mean;
    const dy = ry[i] - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  // Rounding can leave |r| a hair above 1 for identical rankings.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
