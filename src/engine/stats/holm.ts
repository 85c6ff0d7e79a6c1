/**
 * Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective multiple test
 * procedure"): the i-th smallest p-value times (m - i + 1), made monotone and capped at 1.
 * Rejecting where the adjusted value is below alpha controls the family-wise error rate at alpha
 * over all m tests, under any dependence between them. Returned in the input's order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const [i, p] of pValues.entries()) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust: p-value ${i} must be in [0, 1], got ${p}`);
  }
  const order = [...pValues.keys()].sort((a, b) => pValues[a] - pValues[b] || a - b);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((i, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[i]));
    adjusted[i] = running;
  });
  return adjusted;
}
