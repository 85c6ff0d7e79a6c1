import { wilsonInterval } from './wilson-interval.ts';

/**
 * Newcombe's hybrid score interval for the difference p1 - p2 of two independent binomial
 * proportions (R. G. Newcombe, "Interval estimation for the difference between independent
 * proportions: comparison of eleven methods", Statistics in Medicine 17, 1998, method 10): with
 * the Wilson intervals (l1, u1) and (l2, u2) of each proportion,
 *   [d - sqrt((p1 - l1)^2 + (u2 - p2)^2),  d + sqrt((u1 - p1)^2 + (p2 - l2)^2)],  d = p1 - p2.
 * Unlike the Wald interval it behaves at 0 or n successes and for small samples, where replay
 * counts live. A side with no trials counts as p = 0 with the interval [0, 1].
 *
 * @param z normal quantile (1.959964 for 95%)
 */
export function newcombeInterval(x1: number, n1: number, x2: number, n2: number, z = 1.959964): [number, number] {
  const p1 = n1 === 0 ? 0 : x1 / n1;
  const p2 = n2 === 0 ? 0 : x2 / n2;
  const [l1, u1] = wilsonInterval(x1, n1, z);
  const [l2, u2] = wilsonInterval(x2, n2, z);
  const d = p1 - p2;
  return [Math.max(-1, d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)), Math.min(1, d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))];
}
