import type { Game, Rng } from '../types.ts';
import type { Estimator, EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { rotateInto, sampleOrderRounds } from './order-rounds.ts';

/**
 * Half-rotation pairs: each round takes a uniform order and the same order rotated by n/2
 * positions (player at position k moves to k + n/2 mod n), and gives every player the mean of its
 * two marginals. Like antithetic pairs (Mitchell et al. 2022) this pairs an early position with a
 * late one, but it maps the middle to the ends, where reversal keeps the middle in the middle: in
 * threshold (voting-like) games, where a step is pivotal mostly in the middle, the two marginals
 * are negatively correlated. The rotated order is uniform too, so the pair mean is unbiased, lies
 * in the marginal's range and telescopes to v(all) - v(empty) (exactly efficient); rounds are
 * i.i.d. A round counts as two permutations.
 */
export function rotationShapley(game: Game, rng: Rng, opts: EstimatorOptions): EstimatorOutput {
  const half = Math.floor(game.players.length / 2);
  return sampleOrderRounds(game, rng, opts, 1, (order, _j, rotated) => rotateInto(order, half, rotated));
}

export const rotationEstimator: Estimator = {
  name: 'rotation',
  label: 'Half-rotation pairs',
  summary: 'Each random order with the same order rotated by half its length, one averaged marginal per step per pair; exactly efficient.',
  estimate: rotationShapley,
};
