/**
 * Two-sided Hoeffding radius for the mean of t i.i.d. variables with range R
 * (Hoeffding 1963): P(|mean - mu| > r) <= delta for r = R sqrt(ln(2/delta) / (2t)).
 */
export function hoeffdingRadius(t: number, range: number, delta: number): number {
  if (t < 1) return Infinity;
  return range * Math.sqrt(Math.log(2 / delta) / (2 * t));
}
