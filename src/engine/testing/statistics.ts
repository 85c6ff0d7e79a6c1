/** Reference statistics for the engine's tests, written independently of the engine. */

/** Kolmogorov-Smirnov distance between the empirical CDF of xs and the uniform CDF on (0, 1). */
export function ksUniform(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) d = Math.max(d, (i + 1) / n - s[i], s[i] - i / n);
  return d;
}

/** Pearson sample correlation. */
export function correlation(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Pearson chi-square statistic of observed counts against expected probabilities. */
export function chiSquare(counts: readonly number[], probabilities: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  let x = 0;
  counts.forEach((c, i) => {
    const e = total * probabilities[i];
    x += (c - e) ** 2 / e;
  });
  return x;
}

/** Two-sample chi-square statistic for equal-size samples of counts (df = categories - 1). */
export function chiSquareTwoSample(a: readonly number[], b: readonly number[]): number {
  let x = 0;
  a.forEach((ai, i) => {
    const s = ai + b[i];
    if (s > 0) x += (ai - b[i]) ** 2 / s;
  });
  return x;
}

/**
 * Upper 0.001 quantiles of the chi-square distribution by degrees of freedom (standard
 * tables, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4).
 */
export const CHI2_999: Readonly<Record<number, number>> = { 1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 9: 27.877 };

export function softmax(logits: readonly number[]): number[] {
  const m = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Unbiased sample variance by the two-pass formula. */
export function variance(xs: readonly number[]): number {
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
}
