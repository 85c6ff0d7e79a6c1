/**
 * Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the law of
 * succession, and statistical inference", JASA 22(158), 1927): the set of p for which the
 * observed rate is within z standard errors, sqrt(p(1-p)/n). Unlike the normal (Wald) interval it
 * stays inside [0, 1] and is sensible at 0 or n successes, which small accuracy counts hit.
 *
 * @param successes number of successes, 0..n
 * @param n trials; 0 gives [0, 1]
 * @param z normal quantile (1.959964 for 95%)
 */
export function wilsonInterval(successes: number, n: number, z = 1.959964): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 or n successes the bound is exactly 0 or 1; rounding would leave ~1e-17.
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === n ? 1 : Math.min(1, centre + half)];
}

/**
 * The fewest trials n for which n successes of n put the Wilson lower bound at or above `level`:
 * with fewer, no result at all can show a rate that high (0.9 at 95 %: 35, since 35/35 gives
 * 0.9011 and 34/34 0.8985).
 */
export function fewestTrialsReaching(level: number, z = 1.959964): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  let n = 1;
  while (wilsonInterval(n, n, z)[0] < level) n++;
  return n;
}
