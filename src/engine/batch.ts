import type { BatchBound, BatchResult, BatchStep, CaseResult } from './types.ts';
import type { BatchStopRule } from './setting-choices.ts';
import { ownValue } from './named-record.ts';
import { bernsteinRadius } from './stats/bernstein-radius.ts';
import { BettingConfidenceSequence } from './stats/betting-cs.ts';
import { pairedTopSeparated, pairTests, type PairTests } from './shapley/paired-stop.ts';
import { CheckpointSchedule, checkpointDelta } from './stats/checkpoint-schedule.ts';
import { OneSidedBettingTest } from './stats/paired-betting-test.ts';
import { normalQuantile } from './stats/normal-quantile.ts';
import { RunningStats } from './stats/welford.ts';
import { topSeparated } from './shapley/stop-rules.ts';
import { analysedFailures, isAnalysedFailure, knowsFixAlone, resolvesAlone } from './case-result.ts';

export interface BatchOptions {
  delta: number;
  bound: BatchBound;
  /** Range of the metric (default [0, 1]); a Shapley value then lies in [-(hi-lo), hi-lo]. */
  range?: readonly [number, number];
  /** A case fails below this (default 1); used for results saved without `resolvedAlone`. */
  threshold?: number;
  /** How BatchStopper decides (default 'top'); 'bandit' always tests on paired differences by betting, with BANDIT_BET_FRACTION. */
  rule?: BatchStopRule;
}

/**
 * The largest fraction of capital the bandit stop's pair tests bet: 3/4, the larger of the two
 * values Waudby-Smith & Ramdas suggest (the plain stop keeps 1/2). Any fraction below 1 keeps each
 * test's capital a nonnegative supermartingale under its null, so the stop stays valid; a larger
 * one lets the capital grow faster when the top step's lead is clear in most cases (the bet, the
 * approximate growth-optimal one, is capped there: docs/estimators.md, "The bandit batch stop").
 */
export const BANDIT_BET_FRACTION = 0.75;

/**
 * Analysed failures in a row the same step must lead (by mean) before the bandit stop names it the
 * challenger and starts its one-sided tests on the failures after (see BatchStopper).
 */
export const BANDIT_LEAD_RUN = 3;

/**
 * The share of delta the bandit stop gives its challenger contest; the all-pairs rule keeps the
 * rest. The contest decides whenever the early leader is the top step, the common case; when it is
 * not, the all-pairs rule at a fifth of delta with the bolder bets is about as fast as the plain stop.
 */
export const BANDIT_CONTEST_SHARE = 0.8;

/**
 * The batch options of a study, from its definition (or game table) and the settings: one rule,
 * so the page and the command aggregate the same results to the same batch.
 */
export function studyBatchOptions(study: { range?: readonly [number, number]; threshold?: number }, delta: number, bound: BatchBound, rule: BatchStopRule = 'top'): BatchOptions {
  return {
    delta,
    bound,
    ...(study.range !== undefined && { range: study.range }),
    ...(study.threshold !== undefined && { threshold: study.threshold }),
    ...(rule !== 'top' && { rule }),
  };
}


/** Index of the checkpoint that covers m samples on the default schedule (the next one if m is between checkpoints). */
export function anytimeIndex(m: number): number {
  const s = new CheckpointSchedule();
  let k = 0;
  let exact = false;
  for (let t = 1; t <= m; t++) {
    exact = s.reached(t);
    if (exact) k++;
  }
  return exact ? k : k + 1;
}

/**
 * Betting confidence sequence (Waudby-Smith & Ramdas 2023) at delta/n for the mean of one step's
 * per-case values, fed in case order and rescaled from [-span, span] to [0, 1]: valid at every
 * number of cases at once, so also after a data-dependent stop.
 */
function bettingInterval(values: readonly number[], nSteps: number, delta: number, span: number): [number, number] {
  const cs = new BettingConfidenceSequence(delta / nSteps);
  for (const x of values) cs.push(clamp01((x + span) / (2 * span)));
  return [-span + 2 * span * cs.lower, -span + 2 * span * cs.upper];
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** Interval for the mean of m per-case values under the normal or Bernstein bound. */
function meanInterval(stats: RunningStats, nSteps: number, opts: BatchOptions): [number, number] {
  const [lo, hi] = opts.range ?? [0, 1];
  const span = hi - lo;
  const m = stats.count;
  let r: number;
  if (opts.bound === 'normal') {
    r = m < 2 ? Infinity : (normalQuantile(1 - opts.delta / 2) * Math.sqrt(stats.variance)) / Math.sqrt(m);
  } else {
    r = bernsteinRadius(m, stats.variance, 2 * span, opts.delta / nSteps);
  }
  return [Math.max(stats.mean - r, -span), Math.min(stats.mean + r, span)];
}

/**
 * The interval of the mean of one step's per-case values pooled from several studies (trends,
 * docs/trends.md), by the batch's rule: the normal or Bernstein radius, or the betting sequence
 * over the values in the order given. One value is a point (a pooled period keeps no per-case
 * interval), none is [0, 0].
 */
export function pooledMeanInterval(values: readonly number[], nSteps: number, opts: BatchOptions): [number, number] {
  if (values.length === 0) return [0, 0];
  if (values.length === 1) return [values[0], values[0]];
  if (opts.bound === 'anytime') {
    const [lo, hi] = opts.range ?? [0, 1];
    return bettingInterval(values, nSteps, opts.delta, hi - lo);
  }
  const stats = new RunningStats();
  for (const x of values) stats.push(x);
  return meanInterval(stats, nSteps, opts);
}

/**
 * Aggregate the failing cases of a batch (docs/method.md, "Batch"): per step the share of
 * analysed failures its fix alone repairs (of those whose fix-alone baseline a budget did not leave out), the mean fix-alone gain, mean Shapley with a CI across cases, the share of the total repairable failure mass
 * (sum of the step's Shapley over sum of v(all) - v(empty)), and last-touch counts. Cases no
 * coalition repairs are counted apart (they stay in the means, contributing their values).
 */
export function aggregateBatch(results: readonly CaseResult[], opts: BatchOptions): BatchResult {
  const failures = results.filter((r) => r.failed && r.error === undefined);
  const analyzed = analysedFailures(results);
  const players = analyzed[0]?.players ?? failures[0]?.players ?? results[0]?.players ?? [];
  const shapley = players.map(() => new RunningStats());
  const threshold = opts.threshold ?? 1;
  const resolved = players.map(() => 0);
  const columns: number[][] = players.map(() => []);
  const alone = players.map(() => 0);
  // Cases whose fix-alone baseline is known (a budget may have left it out): its rate and mean are over these.
  let knowAlone = 0;
  const touches = players.map(() => 0);
  let mass = 0;
  let cost = 0;
  for (const r of results) cost += r.cost;
  for (const r of analyzed) {
    const knows = knowsFixAlone(r);
    if (knows) knowAlone++;
    players.forEach((p, i) => {
      const value = ownValue(r.shapley, p) ?? 0;
      shapley[i].push(value);
      columns[i].push(value);
      alone[i] += ownValue(r.fixAlone, p) ?? 0;
      if (knows && resolvesAlone(r, p, threshold)) resolved[i]++;
      if (r.lastTouch === p) touches[i]++;
    });
    mass += r.vAll - r.vEmpty;
  }
  const m = analyzed.length;
  const steps: BatchStep[] = players.map((step, i) => {
    const mean = shapley[i].mean;
    let ci: [number, number];
    if (m === 1) {
      // One case: the batch mean is that case's value, known exactly or to its own interval.
      ci = ownValue(analyzed[0].ci, step) ?? [mean, mean];
    } else if (m === 0) {
      ci = [0, 0];
    } else if (opts.bound === 'anytime') {
      const [lo, hi] = opts.range ?? [0, 1];
      ci = bettingInterval(columns[i], players.length, opts.delta, hi - lo);
    } else {
      ci = meanInterval(shapley[i], players.length, opts);
    }
    return {
      step,
      fixAloneRate: knowAlone ? resolved[i] / knowAlone : 0,
      meanFixAlone: knowAlone ? alone[i] / knowAlone : 0,
      meanShapley: m ? mean : 0,
      ci,
      share: mass !== 0 ? (mean * m) / mass : 0,
      lastTouch: touches[i],
    };
  });
  return {
    failures: failures.length,
    analyzed: m,
    ...(knowAlone < m && { fixAloneKnown: knowAlone }),
    unfixable: analyzed.filter((r) => r.fixable === false).length,
    cost,
    steps,
  };
}

/**
 * Bound on |phi_i - phi_j| for one case. For exact values it is the metric's span: phi_i - phi_j =
 * sum over S without i and j of |S|! (n-|S|-2)! / (n-1)! (v(S+i) - v(S+j)), weights that sum to 1
 * over differences of two values in [lo, hi]. A Monte Carlo estimate is a mean of marginals, whose
 * difference within one permutation can reach twice that. The method is fixed by the settings and
 * the step count before the case is analysed, so the bound is known in advance, as the bet needs.
 */
function pairDifferenceBound(result: CaseResult, span: number): number {
  return result.method === 'exact' ? span : 2 * span;
}

/**
 * Fewest analysed failures before the normal rule may stop: its interval rests on the central
 * limit theorem, and with a handful of cases (often with zero sample variance, as when a step's
 * value is the same in every case so far) it would shrink to nothing and stop on noise.
 */
export const NORMAL_STOP_MIN_CASES = 30;

/**
 * Optional early stop for a stream of failing cases, fed in case order:
 * - `anytime`: after every analysed failure, stop once the leading step (by mean Shapley) is shown
 *   above every other on the paired per-case differences phi_top - phi_j (a sequential betting
 *   test per pair of steps at delta / (n - 1), Waudby-Smith & Ramdas 2023: only the n - 1 pairs
 *   holding the true top step can make the claim wrong, see pairTests), valid under this
 *   data-dependent stop;
 * - `bernstein`: on the geometric checkpoint schedule, stop once the top step's Bernstein interval
 *   at delta_k = delta/(n k (k+1)) is disjoint from all others (valid, but much slower);
 * - `normal`: the same with normal intervals, an asymptotic heuristic that may stop only from
 *   NORMAL_STOP_MIN_CASES failures on.
 * With `rule: 'bandit'` (docs/estimators.md, "The bandit batch stop") it stops on either of two
 * rules, whatever the bound, every bet up to BANDIT_BET_FRACTION of the capital, delta split between
 * them (BANDIT_CONTEST_SHARE to the second):
 * - the `anytime` rule above (all pairs, each at delta (1 - share) / (n - 1));
 * - a challenger's contest: once one step has led for BANDIT_LEAD_RUN failures in a row (a stopping
 *   time), it is the challenger L, fixed from then on. On the failures after, one one-sided test per
 *   other step j of "mean phi_L > mean phi_j", each at delta share (not divided: L was chosen before
 *   the data these tests bet on, and "L is above every other" is wrong only if some j's null holds,
 *   whose test then rejects with probability <= delta share, an intersection-union test). Their bets
 *   are warmed with the earlier failures' differences (predictable, so still valid). It stops once
 *   every test has rejected and L leads.
 * (The study run also shares step runs across cases then.)
 */
export class BatchStopper {
  private readonly schedule = new CheckpointSchedule();
  private readonly stats: RunningStats[] = [];
  private pairs: PairTests = [];
  private count = 0;
  /** The bandit rule: every analysed failure's values and pair reach, kept to warm the challenger's bets. */
  private readonly seen: { values: number[]; reach: number }[] = [];
  private leader = -1;
  private leadRun = 0;
  private challenger = -1;
  private challenges: (OneSidedBettingTest | null)[] = [];

  constructor(private readonly opts: BatchOptions) {}

  /** The bandit rule's challenger contest (see the class comment): true once the challenger is shown above every other step. */
  private challenge(values: number[], reach: number, means: readonly number[]): boolean {
    const n = values.length;
    let top = 0;
    for (let i = 1; i < n; i++) if (means[i] > means[top]) top = i;
    if (this.challenger < 0) {
      this.seen.push({ values, reach });
      this.leadRun = top === this.leader ? this.leadRun + 1 : 1;
      this.leader = top;
      if (this.leadRun < BANDIT_LEAD_RUN) return false;
      // Chosen from the failures so far: the tests bet only on the failures after this one.
      this.challenger = top;
      this.challenges = values.map((_, j) => (j === top ? null : new OneSidedBettingTest(this.opts.delta * BANDIT_CONTEST_SHARE, BANDIT_BET_FRACTION)));
      for (const earlier of this.seen) this.feed(earlier.values, earlier.reach, 'warm');
      this.seen.length = 0;
      return false;
    }
    this.feed(values, reach, 'push');
    return top === this.challenger && this.challenges.every((t) => t === null || t.rejected);
  }

  private feed(values: readonly number[], reach: number, how: 'warm' | 'push'): void {
    const L = this.challenger;
    this.challenges.forEach((t, j) => t?.[how](clamp01((values[L] - values[j] + reach) / (2 * reach))));
  }

  /** Decided by sequential betting tests on paired differences (the anytime bound, and always the bandit rule). */
  private get paired(): boolean {
    return this.opts.bound === 'anytime' || this.opts.rule === 'bandit';
  }

  /** Feed the next result in case order; true when the top step has separated. */
  push(result: CaseResult): boolean {
    if (!isAnalysedFailure(result)) return false;
    const players = result.players;
    const n = players.length;
    const [lo, hi] = this.opts.range ?? [0, 1];
    const span = hi - lo;
    if (this.stats.length === 0) {
      players.forEach(() => this.stats.push(new RunningStats()));
      if (this.paired && n > 1) {
        this.pairs = this.opts.rule === 'bandit' ? pairTests(n, this.opts.delta * (1 - BANDIT_CONTEST_SHARE), n - 1, BANDIT_BET_FRACTION) : pairTests(n, this.opts.delta, n - 1);
      }
    }
    const values = players.map((p) => ownValue(result.shapley, p) ?? 0);
    values.forEach((x, i) => this.stats[i].push(x));
    this.count++;
    if (this.paired) {
      const reach = pairDifferenceBound(result, span);
      for (const p of this.pairs) if (p.test.sign === 0) p.test.push(clamp01((values[p.i] - values[p.j] + reach) / (2 * reach)));
      const means = this.stats.map((s) => s.mean);
      if (n < 2 || pairedTopSeparated(means, this.pairs)) return true;
      return this.opts.rule === 'bandit' && this.challenge(values, reach, means);
    }
    if (!this.schedule.reached(this.count)) return false;
    if (this.opts.bound === 'normal' && this.count < NORMAL_STOP_MIN_CASES) return false;
    const k = this.schedule.index - 1;
    const ci = this.stats.map((s): [number, number] => {
      let r: number;
      if (this.opts.bound === 'normal') r = s.count < 2 ? Infinity : (normalQuantile(1 - this.opts.delta / 2) * Math.sqrt(s.variance)) / Math.sqrt(s.count);
      else r = bernsteinRadius(s.count, s.variance, 2 * span, checkpointDelta(this.opts.delta, n, k));
      return [s.mean - r, s.mean + r];
    });
    return topSeparated(this.stats.map((s) => s.mean), ci);
  }
}
