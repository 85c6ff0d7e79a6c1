/**
 * The p-quantile of sorted values by linear interpolation between order statistics (Hyndman & Fan
 * 1996, definition 7, R's default): h = (n - 1) p, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * `sorted` must be in increasing order; NaN when empty.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
