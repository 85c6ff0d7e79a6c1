import { normalQuantile } from './normal-quantile.ts';
import { RunningStats } from './welford.ts';

/**
 * Normal-approximation interval for the change `change` = mean(after) - mean(before) between two
 * batches of per-case values, at confidence 1 - delta (two-sided z = Φ⁻¹(1 - delta/2), as the
 * batch's `normal` bound):
 * - paired (the same cases on both sides, `before[k]` and `after[k]` from case k): z·sd(d)/√n over
 *   the per-case differences d_k = after[k] - before[k] (Student 1908's paired design: the case-to-
 *   case spread both sides share cancels);
 * - unpaired: Welch's standard error z·√(s²_before/n_before + s²_after/n_after) (Welch 1947).
 * Null when a side has fewer than two values (no spread to estimate); the caller falls back.
 */
export function differenceInterval(before: readonly number[], after: readonly number[], change: number, paired: boolean, delta: number): [number, number] | null {
  const z = normalQuantile(1 - delta / 2);
  let radius: number;
  if (paired) {
    if (before.length !== after.length) throw new RangeError(`paired difference needs as many values on both sides (${before.length} and ${after.length})`);
    if (before.length < 2) return null;
    const d = new RunningStats();
    before.forEach((x, k) => d.push(after[k] - x));
    radius = (z * Math.sqrt(d.variance)) / Math.sqrt(d.count);
  } else {
    if (before.length < 2 || after.length < 2) return null;
    const a = new RunningStats();
    const b = new RunningStats();
    for (const x of before) a.push(x);
    for (const x of after) b.push(x);
    radius = z * Math.sqrt(a.variance / a.count + b.variance / b.count);
  }
  return [change - radius, change + radius];
}
