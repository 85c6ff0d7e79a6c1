import type { Game, Rng } from '../types.ts';
import { type Coalition, complementOf, emptyCoalition, withPlayer } from '../coalition.ts';
import type { Estimator, EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { Endpoints, sampleShapley } from './sampling.ts';

/**
 * Unbiased KernelSHAP with paired sampling and a size-wise control (Covert & Lee 2021, "Improving
 * KernelSHAP: practical Shapley value estimation via linear regression", AISTATS: the unbiased
 * estimator; paired sampling from the same paper). With z drawn from the Shapley kernel
 * (size k in 1..n-1 with probability proportional to 1/(k(n-k)), then a uniform set of that size),
 * A = E[z z^T] is known in closed form, A = (1/2 - b) I + b 1 1^T with 1/2 - b = 1/(2 H_{n-1}),
 * and the constrained least-squares solution is affine in b = E[z (v(z) - c)]; it reduces to
 *   phi_i = 2 H_{n-1} E[(z_i - |z|/n)(v(z) - c)] + (v(all) - v(empty)) / n
 * for any constant c, since E[z_i - |z|/n | |z|] = 0. Averaging z with its complement (paired
 * sampling; the complement has the same kernel weight) gives one round's sample
 *   x_i = H_{n-1} (z_i - k/n) (v(z) - v(not z) - g_k) + (v(all) - v(empty)) / n,
 * where g_k, the running mean of v(z) - v(not z) over earlier rounds of the same size, is a
 * predictable control (a regression on the size): it removes the part of the difference the
 * size alone explains and keeps every sample's conditional mean phi_i, so the betting sequences
 * stay valid. Each x sums to v(all) - v(empty) over the players (exactly efficient), and
 * |x_i - (v(all) - v(empty))/n| <= H_{n-1} (n-1)/n * 2 span: that bound is what the intervals
 * rescale by. Sizes k and n - k give the same pair, so k is drawn from 1..n/2.
 * A round asks two values; it counts as 2/(n-1) of a permutation (the same number of queries).
 */
export function kernelShapley(game: Game, rng: Rng, opts: EstimatorOptions): EstimatorOutput {
  const n = game.players.length;
  const span = game.range[1] - game.range[0];
  const ends = new Endpoints();
  if (n < 2) return sampleShapley(game, rng, opts, (g, _r, out) => ((out[0] = ends.vAll(g) - ends.vEmpty(g)), 1));
  const harmonic = harmonicNumber(n - 1);
  const sizes = pairedSizeDistribution(n);
  const controlSum = new Float64Array(sizes.length);
  const controlCount = new Float64Array(sizes.length);
  const players = Array.from({ length: n }, (_, i) => i);
  const member = new Uint8Array(n);
  const perRound = 2 / (n - 1);
  const bound = (harmonic * (n - 1) * 2 * span) / n + span / n;
  return sampleShapley(
    game,
    rng,
    opts,
    (g, r, out) => {
      const share = (ends.vAll(g) - ends.vEmpty(g)) / n;
      const s = drawIndex(sizes, r);
      const k = s + 1;
      member.fill(0);
      let mask: Coalition = emptyCoalition(n);
      // A uniform set of size k: the first k places of a partial Fisher-Yates shuffle.
      for (let t = 0; t < k; t++) {
        const j = t + Math.floor(r() * (n - t));
        const p = players[j];
        players[j] = players[t];
        players[t] = p;
        member[p] = 1;
        mask = withPlayer(mask, p);
      }
      const diff = g.value(mask) - g.value(complementOf(mask, n));
      const control = 2 * k === n || controlCount[s] === 0 ? 0 : controlSum[s] / controlCount[s];
      const residual = harmonic * (diff - control);
      for (let i = 0; i < n; i++) out[i] = (member[i] - k / n) * residual + share;
      controlSum[s] += diff;
      controlCount[s]++;
      return perRound;
    },
    bound,
  );
}

/** H_m = 1 + 1/2 + ... + 1/m. */
function harmonicNumber(m: number): number {
  let h = 0;
  for (let k = 1; k <= m; k++) h += 1 / k;
  return h;
}

/** Cumulative probabilities of the pair's smaller size k = 1..floor(n/2): kernel weight 1/(k(n-k)), doubled when k != n - k. */
function pairedSizeDistribution(n: number): Float64Array {
  const half = Math.floor(n / 2);
  const cumulative = new Float64Array(half);
  let total = 0;
  for (let k = 1; k <= half; k++) {
    total += (2 * k === n ? 1 : 2) / (k * (n - k));
    cumulative[k - 1] = total;
  }
  for (let k = 0; k < half; k++) cumulative[k] /= total;
  return cumulative;
}

/** The index whose cumulative probability first exceeds a uniform draw. */
function drawIndex(cumulative: Float64Array, rng: Rng): number {
  const u = rng();
  for (let k = 0; k < cumulative.length - 1; k++) if (u < cumulative[k]) return k;
  return cumulative.length - 1;
}

export const kernelEstimator: Estimator = {
  name: 'kernel',
  label: 'Kernel regression (paired)',
  summary: 'Unbiased KernelSHAP with paired sets and a size-wise control (Covert & Lee 2021); two values per sample for every step at once; exactly efficient.',
  estimate: kernelShapley,
};
