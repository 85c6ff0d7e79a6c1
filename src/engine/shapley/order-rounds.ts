import type { Game, Rng } from '../types.ts';
import type { EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { Endpoints, marginalsAlong, sampleShapley, shuffle } from './sampling.ts';

/**
 * Fills `into` with the j-th companion (1-based) of a uniform order: an order that is uniform as
 * well, so the mean over the order and its companions stays unbiased.
 */
export type Companion = (order: readonly number[], j: number, into: number[]) => void;

/**
 * The permutation walk the order-based estimators share: each round shuffles one uniform order,
 * walks it and each of its `companions` derived orders, and gives every player the mean of its
 * marginals over them. Every walk telescopes to v(all) - v(empty), so the round mean is exactly
 * efficient; rounds are i.i.d., so sampleShapley's intervals apply. A round counts as
 * 1 + companions permutations.
 */
export function sampleOrderRounds(game: Game, rng: Rng, opts: EstimatorOptions, companions: number, companion: Companion): EstimatorOutput {
  const n = game.players.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const other = order.slice();
  const walks = 1 + companions;
  const ends = new Endpoints();
  return sampleShapley(game, rng, opts, (g, r, out) => {
    shuffle(order, r);
    marginalsAlong(g, order, ends, out);
    for (let j = 1; j < walks; j++) {
      companion(order, j, other);
      marginalsAlong(g, other, ends, out, true);
    }
    if (walks > 1) for (let i = 0; i < n; i++) out[i] /= walks;
    return walks;
  });
}

/** Fills `into` with `order` rotated left by `shift` positions (the player at k + shift moves to k): uniform when `order` is. */
export function rotateInto(order: readonly number[], shift: number, into: number[]): void {
  const n = order.length;
  for (let k = 0; k < n; k++) into[k] = order[(k + shift) % n];
}
