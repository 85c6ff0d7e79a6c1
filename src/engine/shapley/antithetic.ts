import type { Game, Rng } from '../types.ts';
import type { Estimator, EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { sampleOrderRounds } from './order-rounds.ts';

/**
 * Antithetic permutation Shapley (Mitchell, Cooper, Frank & Holmes 2022, "Sampling permutations
 * for Shapley value estimation", JMLR: antithetic pairs): each round takes a uniform order and its
 * reverse and gives every player the mean of its two marginals. A player early in one order is
 * late in the other, so the two marginals are often negatively correlated and the mean has lower
 * variance. The pair mean is unbiased, lies in the marginal's range, and each order telescopes to
 * v(all) - v(empty), so the estimate stays exactly efficient; the rounds are i.i.d., so every
 * interval of sampleShapley applies to them. A round counts as two permutations.
 */
export function antitheticShapley(game: Game, rng: Rng, opts: EstimatorOptions): EstimatorOutput {
  const n = game.players.length;
  return sampleOrderRounds(game, rng, opts, 1, (order, _j, reversed) => {
    for (let k = 0; k < n; k++) reversed[k] = order[n - 1 - k];
  });
}

export const antitheticEstimator: Estimator = {
  name: 'antithetic',
  label: 'Antithetic permutations',
  summary: 'Each random order with its reverse, one averaged marginal per step per pair (Mitchell et al. 2022); exactly efficient.',
  estimate: antitheticShapley,
};
