import type { Game, Rng } from '../types.ts';
import { type Coalition, emptyCoalition, fullCoalition, usesBigMasks } from '../coalition.ts';
import type { EstimatorOptions, EstimatorOutput } from './estimator.ts';
import { bernsteinRadius } from '../stats/bernstein-radius.ts';
import { BETTING_GRID, BettingConfidenceSequence } from '../stats/betting-cs.ts';
import { CheckpointSchedule, checkpointDelta } from '../stats/checkpoint-schedule.ts';
import { hoeffdingRadius } from '../stats/hoeffding-radius.ts';
import { RunningStats } from '../stats/welford.ts';
import { intervalsSatisfy, narrowEnough } from './stop-rules.ts';
import { pairedRankingSeparated, pairedTopSeparated, pairTests, tieCheck, type PairTests } from './paired-stop.ts';
import { INTERVAL_UPDATE_COST, KnownCoalitions, TRACK_COALITIONS_MAX_PLAYERS } from './known-coalitions.ts';
import { exactShapleyFromTable } from './exact.ts';

/** Slack when reading accumulated fractional work (sums of 2/(n - 1) fall just short of integers). */
const WORK_TOLERANCE = 1e-9;

/**
 * One round of a sampling estimator: writes one i.i.d. sample of every player's Shapley
 * estimator into `out` (each unbiased for phi_i, within [-bound, bound] (bound: the last argument
 * of sampleShapley, hi - lo unless the estimator says otherwise), and summing to
 * v(all) - v(empty) so the running means stay exactly efficient) and returns the number of
 * permutations (orders) the round used, or their equivalent in queries (n - 1 a permutation) for
 * estimators that do not sample orders.
 */
export type DrawRound = (game: Game, rng: Rng, out: Float64Array) => number;

/** Fisher-Yates shuffle of `order` in place with the injected generator. */
export function shuffle(order: number[], rng: Rng): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/**
 * The two values every order starts and ends at, asked once: v(empty) and v(all) are the same
 * in every permutation, so an estimator asks for them once rather than once per order.
 */
export class Endpoints {
  private empty: number | undefined;
  private all: number | undefined;
  vEmpty(game: Game): number {
    return (this.empty ??= game.value(emptyCoalition(game.players.length)));
  }
  vAll(game: Game): number {
    return (this.all ??= game.value(fullCoalition(game.players.length)));
  }
}

/** Add the players in `order` one by one, writing each one's marginal v(pre+i) - v(pre) into out (added to what is there when `add`). */
export function marginalsAlong(game: Game, order: readonly number[], ends: Endpoints, out: Float64Array, add = false): void {
  if (usesBigMasks(order.length)) return bigMarginalsAlong(game, order, ends, out, add);
  let mask = 0;
  let prev = ends.vEmpty(game);
  const last = order.length - 1;
  for (let k = 0; k <= last; k++) {
    const p = order[k];
    mask += 2 ** p;
    const cur = k === last ? ends.vAll(game) : game.value(mask);
    out[p] = add ? out[p] + cur - prev : cur - prev;
    prev = cur;
  }
}

/** marginalsAlong above 52 players, where coalitions are bigints (kept apart so the number path stays as fast as before). */
function bigMarginalsAlong(game: Game, order: readonly number[], ends: Endpoints, out: Float64Array, add: boolean): void {
  let mask: Coalition = 0n;
  let prev = ends.vEmpty(game);
  const last = order.length - 1;
  for (let k = 0; k <= last; k++) {
    const p = order[k];
    mask |= 1n << BigInt(p);
    const cur = k === last ? ends.vAll(game) : game.value(mask);
    out[p] = add ? out[p] + cur - prev : cur - prev;
    prev = cur;
  }
}

/**
 * The loop every sampling estimator shares: rounds of i.i.d. samples, intervals, stop rules,
 * budget and the checkpoint history. With `exactWhenKnown`, up to 16 players it also keeps every
 * value it has seen; once all 2^n coalitions are among them, or its work reaches the exact
 * method's (2^n queries, or interval updates worth as much; the rest is then asked for), it answers the exact values (stop reason `exact`), so a tie that no number of
 * samples would separate never costs more than the exact method.
 *
 * Intervals (`opts.radius`):
 * - `betting` (default): a betting confidence sequence per player at delta/n on the samples
 *   rescaled to [0, 1] (Waudby-Smith & Ramdas 2023), anytime-valid by construction, so the stop
 *   rule is checked after every round and a stop at any time (budget included) reports the current
 *   intervals. `top1` and `ranking` decide on paired differences of the players' samples from the
 *   same rounds (a sequential betting test per pair, at delta / (n - 1) for top1 and
 *   delta / (n(n-1)/2) for ranking: see pairTests), not on disjoint
 *   intervals: phi_top - phi_j is estimated with far less noise than either value alone.
 * - `hoeffding`, `bernstein`: fixed-t radii on a geometric checkpoint schedule with a union over
 *   checkpoints, delta_k = delta / (n k (k+1)) (the rules as before: checked at checkpoints; a
 *   budget stop between them reports the last checkpoint's estimate and interval).
 */
export function sampleShapley(outer: Game, rng: Rng, opts: EstimatorOptions, draw: DrawRound, bound = outer.range[1] - outer.range[0]): EstimatorOutput {
  const n = outer.players.length;
  // Once every coalition has been asked for, the exact values are known: sampling stops there.
  const known = opts.exactWhenKnown === true && n <= TRACK_COALITIONS_MAX_PLAYERS ? new KnownCoalitions(outer) : null;
  const game: Game = known ?? outer;
  if (!(opts.delta > 0 && opts.delta < 1)) throw new RangeError(`delta must be in (0, 1), got ${opts.delta}`);
  if (!(Number.isInteger(opts.maxPermutations) && opts.maxPermutations >= 1)) {
    throw new RangeError(`maxPermutations must be a positive integer, got ${opts.maxPermutations}`);
  }
  if (typeof opts.budget !== 'number' || !(opts.budget >= 0)) throw new RangeError(`budget must be a number >= 0 (Infinity for none), got ${opts.budget}`);
  const [lo, hi] = game.range;
  const span = hi - lo;
  if (!(bound >= span)) throw new RangeError(`sample bound must be at least the value span ${span}, got ${bound}`);
  const sampleRange = 2 * bound;
  const betting = opts.radius === 'betting';
  const stats = Array.from({ length: n }, () => new RunningStats());
  // Samples wider than [-span, span] get a finer grid, so one grid step stays span / BETTING_GRID.
  const grid = Math.ceil((BETTING_GRID * bound) / span);
  // Every value lies within [-span, span], a part of the samples' [-bound, bound]: candidates outside are never updated.
  const within: [number, number] = [(bound - span) / sampleRange, (bound + span) / sampleRange];
  // Made at the first round: a game that goes exact before sampling never pays for their grids.
  let sequences: BettingConfidenceSequence[] = [];
  const paired = betting && (opts.stop === 'top1' || opts.stop === 'ranking') && n > 1;
  const pairs: PairTests = paired ? pairTests(n, opts.delta, opts.stop === 'top1' ? n - 1 : (n * (n - 1)) / 2) : [];
  const schedule = new CheckpointSchedule();
  const history: NonNullable<EstimatorOutput['history']> = [];
  const sample = new Float64Array(n);
  let rounds = 0;
  // Permutations used, or their equivalent in queries (fractional for estimators without orders).
  let work = 0;
  // Fractional rounds (2/3 of a permutation, fifteen of them) sum to just under a whole number:
  // the cap and the count both read the work with this tolerance.
  const workDone = () => work + WORK_TOLERANCE;
  const permutations = () => Math.floor(workDone());
  let stopReason: EstimatorOutput['stopReason'] = 'maxPermutations';
  let checkpointCi: [number, number][] = stats.map(() => [-span, span]);
  let atCheckpoint = false;

  const bettingIntervals = (): [number, number][] =>
    sequences.length === 0 ? stats.map((): [number, number] => [-span, span]) : sequences.map((s) => [Math.max(-bound + sampleRange * s.lower, -span), Math.min(-bound + sampleRange * s.upper, span)]);
  const radiusIntervals = (k: number): [number, number][] => {
    const d = checkpointDelta(opts.delta, n, k);
    return stats.map((s) => {
      const r = opts.radius === 'hoeffding' ? hoeffdingRadius(s.count, sampleRange, d) : bernsteinRadius(s.count, s.variance, sampleRange, d);
      // A Shapley value lies within [-(hi-lo), hi-lo]; clipping keeps the interval honest and finite.
      return [Math.max(s.mean - r, -span), Math.min(s.mean + r, span)];
    });
  };
  const means = () => stats.map((s) => s.mean);

  // Once the sampling would have done the exact method's work (asked for its 2^n values, or updated
  // n intervals a round for as long as 2^n values take), the coalitions not seen yet are asked for
  // instead: what is left of exact costs less than sampling on. Checked before each round with
  // that round counted, so a game whose 2^n values cost less than one round of interval updates
  // (8 players: 256 values against 8 updates of ~32 values each) goes exact without sampling.
  const exactIsCheaper = () => known !== null && !known.complete && (known.queries >= known.table.length || (rounds + 1) * n * INTERVAL_UPDATE_COST >= known.table.length);
  const exactAnswer = (): EstimatorOutput => {
    // The convergence shows the sampled estimate where sampling stopped, then the exact values.
    if (betting && rounds > 0 && history[history.length - 1]?.permutations !== permutations()) history.push({ permutations: permutations(), cost: game.cost(), values: means(), ci: bettingIntervals() });
    const values = exactShapleyFromTable(known!.table, n);
    const ci = values.map((v): [number, number] => [v, v]);
    history.push({ permutations: permutations(), cost: game.cost(), values, ci });
    return { values, ci, evaluations: 0, cost: game.cost(), permutations: permutations(), stopReason: 'exact', history };
  };

  // The budget is checked before every coalition a round asks for, not once a round: a round of a
  // large game (a permutation of 52 players asks for 51 coalitions, each maybe a chain of model
  // requests) can cost far more than the budget. Once it is spent the round in progress is dropped
  // (a part of a permutation would bias the estimate), so the spending passes the budget by at
  // most one coalition's cost; with no round done, nothing is known (intervals the whole range).
  const spending: Game = Number.isFinite(opts.budget)
    ? {
        players: game.players,
        range: game.range,
        cost: () => game.cost(),
        value: (mask) => {
          if (game.cost() >= opts.budget) throw BUDGET_SPENT;
          return game.value(mask);
        },
      }
    : game;
  while (workDone() < opts.maxPermutations) {
    if (game.cost() >= opts.budget) {
      stopReason = 'budget';
      break;
    }
    // Asking for every coalition left could spend any amount: under a budget it is not done (the
    // sampling still ends exact if its rounds happen to see them all).
    if (!Number.isFinite(opts.budget) && exactIsCheaper()) known!.fill();
    if (known?.complete) return exactAnswer();
    try {
      work += draw(spending, rng, sample);
    } catch (e) {
      if (e !== BUDGET_SPENT) throw e;
      stopReason = 'budget';
      break;
    }
    rounds++;
    if (betting && sequences.length === 0) sequences = Array.from({ length: n }, () => new BettingConfidenceSequence(opts.delta / n, grid, undefined, within));
    for (let i = 0; i < n; i++) {
      stats[i].push(sample[i]);
      if (betting) sequences[i].push(clamp01((sample[i] + bound) / sampleRange));
    }
    if (paired) {
      const pairRange = 2 * sampleRange;
      for (const p of pairs) if (p.test.sign === 0) p.test.push(clamp01((sample[p.i] - sample[p.j] + sampleRange) / pairRange));
    }
    // A round that happened to see the last unseen coalition ends the sampling too.
    if (known?.complete) return exactAnswer();
    if (betting) {
      const reached = schedule.reached(rounds);
      const values = means();
      const ci = bettingIntervals();
      if (reached) history.push({ permutations: permutations(), cost: game.cost(), values, ci });
      if (satisfiedNow(opts, values, ci, pairs)) {
        stopReason = opts.stop;
        if (!reached) history.push({ permutations: permutations(), cost: game.cost(), values, ci });
        break;
      }
    } else if (schedule.reached(rounds)) {
      const ci = radiusIntervals(schedule.index - 1);
      const values = means();
      history.push({ permutations: permutations(), cost: game.cost(), values, ci });
      checkpointCi = ci;
      atCheckpoint = true;
      if (intervalsSatisfy(opts.stop, values, ci, opts.width, opts.tieTolerance ?? 0)) {
        stopReason = opts.stop;
        break;
      }
    } else {
      atCheckpoint = false;
    }
  }
  if (rounds === 0) {
    // The budget was spent before a whole round: no sample. Each player gets an equal share of
    // v(all) - v(empty) (defined and efficient; these two the analysis has asked for already),
    // with intervals the whole range: nothing is known beyond that.
    const ends = new Endpoints();
    const share = (ends.vAll(game) - ends.vEmpty(game)) / Math.max(n, 1);
    return { values: stats.map(() => share), ci: stats.map((): [number, number] => [-span, span]), evaluations: 0, cost: game.cost(), permutations: 0, stopReason, history };
  }
  if (betting) return { values: means(), ci: bettingIntervals(), evaluations: 0, cost: game.cost(), permutations: permutations(), stopReason, history };
  const last = history[history.length - 1];
  if (stopReason === 'budget' && !atCheckpoint && last) {
    // A budget stop depends on the data through the cost, so only checkpoint intervals are
    // covered by the union bound: report the last checkpoint's estimate with its interval (the
    // two stay consistent and exactly efficient); the cost still counts everything spent.
    return { values: last.values, ci: last.ci, evaluations: 0, cost: game.cost(), permutations: last.permutations, stopReason, history };
  }
  // A stop at the cap (a fixed time) between checkpoints reports the next checkpoint's confidence.
  const ci = atCheckpoint || stopReason === 'budget' ? checkpointCi : radiusIntervals(schedule.index);
  return { values: means(), ci, evaluations: 0, cost: game.cost(), permutations: permutations(), stopReason, history };
}

/** Thrown by the spending game once the budget is spent (caught by the loop, never seen outside). */
const BUDGET_SPENT = Symbol('budget spent');

/** Rounding can put a rescaled sample a hair outside [0, 1]. */
function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}


function satisfiedNow(opts: EstimatorOptions, values: readonly number[], ci: readonly (readonly [number, number])[], pairs: PairTests): boolean {
  switch (opts.stop) {
    case 'width':
      return narrowEnough(ci, opts.width);
    case 'top1':
      return pairs.length === 0 ? values.length < 2 : pairedTopSeparated(values, pairs, tieCheck(ci, opts.tieTolerance));
    case 'ranking':
      return pairs.length === 0 ? values.length < 2 : pairedRankingSeparated(values, pairs, tieCheck(ci, opts.tieTolerance));
    case 'budget':
      return false;
  }
}
