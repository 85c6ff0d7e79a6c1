/**
 * Two-sided empirical Bernstein radius (Maurer & Pontil 2009, Theorem 4, applied to both
 * tails): sqrt(2 V ln(4/delta) / t) + 7 R ln(4/delta) / (3 (t - 1)), with V the unbiased
 * sample variance of t i.i.d. variables of range R.
 */
export function bernsteinRadius(t: number, variance: number, range: number, delta: number): number {
  if (t < 2) return Infinity;
  const l = Math.log(4 / delta);
  return Math.sqrt((2 * Math.max(variance, 0) * l) / t) + (7 * range * l) / (3 * (t - 1));
}
