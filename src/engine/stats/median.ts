/**
 * The sample median: the middle value, or the mean of the two middle values for an even count
 * (the usual definition, e.g. Hyndman & Fan 1996, type 7 at p = 0.5). NaN for an empty list.
 */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
