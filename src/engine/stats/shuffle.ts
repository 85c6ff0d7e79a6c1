import type { Rng } from '../types.ts';

/**
 * A uniformly random permutation of `xs` (Fisher & Yates 1938, in Durstenfeld's 1964 in-place
 * form), from injected randomness. Shuffling a signal's scores within one case keeps their
 * marginal distribution and breaks their link to the steps: the credit-assignment audit's
 * "marginal-matched shuffled control".
 */
export function shuffled<T>(xs: readonly T[], rng: Rng): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}
