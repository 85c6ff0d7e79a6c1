/** Standard Gumbel from a uniform in (0, 1): g = -ln(-ln u). */
export function gumbelFromUniform(u: number): number {
  return -Math.log(-Math.log(u));
}

/** ln(e^a + e^b) without overflow. */
export function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = a > b ? a : b;
  return m + Math.log1p(Math.exp(-Math.abs(a - b)));
}

/** ln sum_k e^{x_k}, stable. */
export function logSumExp(xs: readonly number[]): number {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  if (m === -Infinity || m === Infinity) return m;
  let s = 0;
  for (const x of xs) s += Math.exp(x - m);
  return m + Math.log(s);
}
