import type { Game, Rng } from '../types.ts';
import type { Estimator, EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { bernsteinRadius } from '../stats/bernstein-radius.ts';
import { CheckpointSchedule, checkpointDelta } from '../stats/checkpoint-schedule.ts';
import { hoeffdingRadius } from '../stats/hoeffding-radius.ts';
import { RunningStats } from '../stats/welford.ts';
import { intervalsSatisfy } from './stop-rules.ts';

/** The Monte Carlo part of the analysis settings (budget: stop once the spent cost reaches it; only whole permutations count). */
export type PermutationOptions = EstimatorOptions;

/**
 * Monte Carlo permutation Shapley (Castro, Gomez & Tejada 2009): each uniformly random order
 * adds the players one by one and gives every player one marginal v(pre+i) - v(pre). The mean
 * of a player's marginals is unbiased, and within each permutation the marginals telescope to
 * v(all) - v(empty), so every estimate is exactly efficient.
 *
 * Intervals: Hoeffding or empirical Bernstein with range R = 2 (hi - lo) (a marginal of a game
 * with values in [lo, hi]), checked on a geometric schedule with delta_k = delta / (n k (k+1)),
 * so all intervals hold together with probability >= 1 - delta under adaptive stopping.
 * Between checkpoints: a stop at the permutation cap (a fixed time, not chosen by the data)
 * reports intervals at the next checkpoint's confidence, which the union bound still covers;
 * a budget stop happens at a time that depends on the sampled orders (through the cache), so
 * it reports the last checkpoint's intervals (valid) beside the current estimates, or the
 * trivial interval [-(hi-lo), hi-lo] before the first checkpoint.
 * At least one permutation always runs, so the estimate is defined and exactly efficient.
 */
export function permutationShapley(game: Game, rng: Rng, opts: PermutationOptions): EstimatorOutput {
  const n = game.players.length;
  if (!(opts.delta > 0 && opts.delta < 1)) throw new RangeError(`delta must be in (0, 1), got ${opts.delta}`);
  if (!(Number.isInteger(opts.maxPermutations) && opts.maxPermutations >= 1)) {
    throw new RangeError(`maxPermutations must be a positive integer, got ${opts.maxPermutations}`);
  }
  if (typeof opts.budget !== 'number' || !(opts.budget >= 0)) throw new RangeError(`budget must be a number >= 0 (Infinity for none), got ${opts.budget}`);
  const [lo, hi] = game.range;
  const marginalRange = 2 * (hi - lo);
  const stats = Array.from({ length: n }, () => new RunningStats());
  const schedule = new CheckpointSchedule();
  const order = Array.from({ length: n }, (_, i) => i);
  const bits = order.map((i) => 2 ** i);
  const history: NonNullable<EstimatorOutput['history']> = [];
  const vEmpty = game.value(0);
  let permutations = 0;
  let stopReason: EstimatorOutput['stopReason'] = 'maxPermutations';
  /** Intervals of the latest checkpoint, and whether the latest permutation was one. */
  let checkpointCi: [number, number][] = stats.map(() => [-(hi - lo), hi - lo]);
  let atCheckpoint = false;

  const intervals = (k: number): [number, number][] => {
    const d = checkpointDelta(opts.delta, n, k);
    return stats.map((s) => {
      const r = opts.radius === 'hoeffding' ? hoeffdingRadius(s.count, marginalRange, d) : bernsteinRadius(s.count, s.variance, marginalRange, d);
      // A Shapley value lies within [-(hi-lo), hi-lo]; clipping keeps the interval honest and finite.
      return [Math.max(s.mean - r, -(hi - lo)), Math.min(s.mean + r, hi - lo)];
    });
  };

  while (permutations < opts.maxPermutations) {
    if (permutations > 0 && game.cost() >= opts.budget) {
      stopReason = 'budget';
      break;
    }
    // Fisher-Yates with the injected generator.
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    let mask = 0;
    let prev = vEmpty;
    for (let k = 0; k < n; k++) {
      const p = order[k];
      mask += bits[p];
      const cur = game.value(mask);
      stats[p].push(cur - prev);
      prev = cur;
    }
    permutations++;
    if (schedule.reached(permutations)) {
      const ci = intervals(schedule.index - 1);
      const values = stats.map((s) => s.mean);
      history.push({ permutations, cost: game.cost(), values, ci });
      checkpointCi = ci;
      atCheckpoint = true;
      if (intervalsSatisfy(opts.stop, values, ci, opts.width)) {
        stopReason = opts.stop;
        break;
      }
    } else {
      atCheckpoint = false;
    }
  }
  const last = history[history.length - 1];
  if (stopReason === 'budget' && !atCheckpoint && last) {
    // A budget stop depends on the data through the cost, so only checkpoint intervals are
    // covered by the union bound: report the last checkpoint's estimate with its interval (the
    // two stay consistent and exactly efficient); the cost still counts everything spent.
    return { values: last.values, ci: last.ci, evaluations: 0, cost: game.cost(), permutations: last.permutations, stopReason, history };
  }
  const values = stats.map((s) => s.mean);
  const ci = atCheckpoint || stopReason === 'budget' ? checkpointCi : intervals(schedule.index);
  return { values, ci, evaluations: 0, cost: game.cost(), permutations, stopReason, history };
}

/** Today's estimator: plain uniform permutations. */
export const permutationEstimator: Estimator = {
  name: 'permutation',
  label: 'Permutations',
  summary: 'Uniformly random orders, one marginal per step each (Castro et al. 2009); exactly efficient.',
  estimate: permutationShapley,
};
