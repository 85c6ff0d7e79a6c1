import type { Game, Rng } from '../types.ts';
import type { Estimator, EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { sampleOrderRounds } from './order-rounds.ts';

/** The Monte Carlo part of the analysis settings (budget: checked before every coalition; only whole permutations count). */
export type PermutationOptions = EstimatorOptions;

/**
 * Monte Carlo permutation Shapley (Castro, Gomez & Tejada 2009): each uniformly random order
 * adds the players one by one and gives every player one marginal v(pre+i) - v(pre). The mean
 * of a player's marginals is unbiased, and within each permutation the marginals telescope to
 * v(all) - v(empty), so every estimate is exactly efficient. Intervals and stop rules: see
 * sampleShapley (a budget spent before the first permutation ends it: an equal split, intervals the whole range).
 */
export function permutationShapley(game: Game, rng: Rng, opts: PermutationOptions): EstimatorOutput {
  return sampleOrderRounds(game, rng, opts, 0, () => {});
}

/** Today's estimator: plain uniform permutations. */
export const permutationEstimator: Estimator = {
  name: 'permutation',
  label: 'Permutations',
  summary: 'Uniformly random orders, one marginal per step each (Castro et al. 2009); exactly efficient.',
  estimate: permutationShapley,
};
