/**
 * One-sided Fisher exact test (Fisher 1935, "The logic of inductive inference"; the hypergeometric
 * tail of a 2x2 table, Agresti 2002 §3.5.1): `k1` of `n1` runs decided with a piece, `k0` of `n0`
 * without it. Under the null hypothesis that the piece changes nothing, the number of deciding runs
 * among the first group given the column totals is hypergeometric; the p-value is the probability of
 * `k1` or more, i.e. evidence that the rate with the piece is higher. runtape's `why` uses it so
 * that the model's own randomness is not reported as a cause (10 of 10 against 0 of 10: p = 1/C(20,10)).
 */
export function fisherOneSided(k1: number, n1: number, k0: number, n0: number): number {
  for (const [name, x] of [['k1', k1], ['n1', n1], ['k0', k0], ['n0', n0]] as const) {
    if (!Number.isInteger(x) || x < 0) throw new RangeError(`fisherOneSided: ${name} must be a whole number >= 0, got ${x}`);
  }
  if (k1 > n1 || k0 > n0) throw new RangeError(`fisherOneSided: counts exceed their totals (${k1}/${n1}, ${k0}/${n0})`);
  const total = n1 + n0;
  const decided = k1 + k0;
  const logFact = logFactorials(total);
  const logChoose = (n: number, k: number) => logFact[n] - logFact[k] - logFact[n - k];
  const logDenominator = logChoose(total, n1);
  const hi = Math.min(n1, decided);
  let p = 0;
  for (let x = k1; x <= hi; x++) {
    if (n1 - x > total - decided) continue;
    p += Math.exp(logChoose(decided, x) + logChoose(total - decided, n1 - x) - logDenominator);
  }
  return Math.min(1, p);
}

/** log(0!), ..., log(n!). */
function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) out[i] = out[i - 1] + Math.log(i);
  return out;
}
