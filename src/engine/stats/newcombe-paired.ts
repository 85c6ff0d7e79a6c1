import { wilsonInterval } from './wilson-interval.ts';

/**
 * Newcombe's hybrid score interval for the difference of two proportions measured on the same
 * subjects (R. G. Newcombe, "Improved confidence intervals for the difference between binomial
 * proportions based on paired data", Statistics in Medicine 17, 1998, method 10). With the 2x2
 * table of n pairs (a: yes on both sides, b: yes only on the first, c: yes only on the second,
 * d: no on both), p1 = (a + b)/n, p2 = (a + c)/n, the Wilson intervals (l1, u1), (l2, u2) and the
 * correlation phi = C / sqrt((a+b)(c+d)(a+c)(b+d)) (0 when a margin is empty), where C is
 * ad - bc moved n/2 towards 0 when positive (0 in between), as the paper corrects it:
 *   [d - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2),
 *    d + sqrt((u1 - p1)^2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)^2)],  d = p1 - p2 = (b - c)/n.
 * No pairs give [-1, 1].
 *
 * @param z normal quantile (1.959964 for 95%)
 */
export function newcombePairedInterval(a: number, b: number, c: number, d: number, z = 1.959964): [number, number] {
  const n = a + b + c + d;
  if (n === 0) return [-1, 1];
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const [l1, u1] = wilsonInterval(a + b, n, z);
  const [l2, u2] = wilsonInterval(a + c, n, z);
  const margins = (a + b) * (c + d) * (a + c) * (b + d);
  const cross = a * d - b * c;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = margins === 0 ? 0 : corrected / Math.sqrt(margins);
  const diff = p1 - p2;
  const below = Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const above = Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  return [Math.max(-1, diff - below), Math.min(1, diff + above)];
}
