import type { Game, Rng } from '../types.ts';
import type { Estimator, EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { rotateInto, sampleOrderRounds } from './order-rounds.ts';

/**
 * Position-stratified permutations: each round takes a uniform order and all n of its cyclic
 * rotations, so every player stands in every position exactly once (a Latin square of orders,
 * the systematic form of stratifying by position; Maleki et al. 2013 stratify the same way), and
 * gives every player the mean of its n marginals. The between-position part of a marginal's
 * variance (a step pivotal mostly early, or mostly in the middle) drops out. Each rotation is a
 * uniform order, so the round mean is unbiased, lies in the marginal's range and telescopes to
 * v(all) - v(empty) (exactly efficient); rounds are i.i.d. A round counts as n permutations.
 */
export function stratifiedShapley(game: Game, rng: Rng, opts: EstimatorOptions): EstimatorOutput {
  return sampleOrderRounds(game, rng, opts, game.players.length - 1, rotateInto);
}

export const stratifiedEstimator: Estimator = {
  name: 'stratified',
  label: 'Position-stratified permutations',
  summary: 'Each random order with all its rotations, so every step takes every position once per round; exactly efficient.',
  estimate: stratifiedShapley,
};
