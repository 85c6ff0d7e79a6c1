/**
 * Estimators and bounds: queries (v(S) values asked for, repeats included) and step
 * cost until a guaranteed width of 0.02 and until top-1 separation, on weighted majority games as
 * value tables and as pipelines, for every registered estimator with betting confidence sequences
 * beside today's baseline (`permutation` with empirical Bernstein radii on checkpoints). One seed
 * per row (the counts are deterministic; coverage is tested in src/engine/shapley/coverage.test.ts).
 *
 * Width: the game of mc-efficiency (weights 1..5, quota just above half). Top-1: the same with
 * voter 0's weight set to 7 (2 above the largest), so one step leads (with weights 1..5 alone several steps tie for
 * the top and no rule may ever separate them). At n = 64 coalitions are bigints (coalition.ts).
 */
import { BlameGame, ESTIMATOR_NAMES, runEstimator, seededRng } from '../../src/engine/index.ts';
import type { Coalition, EstimatorOptions, Game, Radius, StopRule } from '../../src/engine/index.ts';
import { majorityShapley, majorityWeights, weightedMajorityPipeline } from '../lib/synthetic-games.ts';
import { timeRuns } from '../lib/measure.ts';
import { maxAbsError, type WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const TARGET_WIDTH = 0.02;

/** The weighted majority game v(S) = [w(S) >= q] as a value function (no table: 2^32 would not fit). */
function majorityGame(weights: readonly number[], quota: number): Game {
  const n = weights.length;
  return {
    players: weights.map((_, i) => `voter${i}`),
    range: [0, 1],
    cost: () => 0,
    value(mask: Coalition): number {
      let w = 0;
      if (typeof mask === 'bigint') {
        let m = mask;
        for (let i = 0; i < n && m > 0n; i++, m >>= 1n) if ((m & 1n) === 1n) w += weights[i];
      } else {
        let m = mask;
        for (let i = 0; i < n && m > 0; i++) {
          if (m % 2 === 1) w += weights[i];
          m = Math.floor(m / 2);
        }
      }
      return w >= quota ? 1 : 0;
    },
  };
}

function gameFor(kind: 'table' | 'pipeline', weights: number[], quota: number): Game {
  if (kind === 'table') return majorityGame(weights, quota);
  return new BlameGame(weightedMajorityPipeline(weights, quota), { id: 'majority', inputs: { start: 0 } }, { mode: 'recorded', worlds: 1 });
}

/** `log` hears each row as it is measured: the whole group runs for tens of minutes at n = 64. */
export async function estimatorsWorkload(sizes: SuiteSizes, log: (line: string) => void = () => {}): Promise<WorkloadResult[]> {
  const rows: WorkloadResult[] = [];
  const configs: { estimator: string; radius: Radius }[] = [{ estimator: 'permutation', radius: 'bernstein' }, ...ESTIMATOR_NAMES.map((estimator) => ({ estimator, radius: 'betting' as Radius }))];
  const sizesByKind = [
    ...sizes.estimatorTablePlayers.map((n) => ['table', n] as const),
    ...sizes.estimatorPipelinePlayers.map((n) => ['pipeline', n] as const),
  ];
  for (const [kind, n] of sizesByKind) {
    for (const stop of ['width', 'top1'] as StopRule[]) {
      const base = majorityWeights(n);
      const weights = stop === 'top1' ? base.weights.map((w, i) => (i === 0 ? Math.max(...base.weights) + 2 : w)) : base.weights;
      const quota = stop === 'top1' ? Math.floor(weights.reduce((a, b) => a + b, 0) / 2) + 1 : base.quota;
      const exact = majorityShapley(weights, quota);
      let baselineQueries = 0;
      for (const { estimator, radius } of configs) {
        const opts: EstimatorOptions = { delta: 0.05, stop, width: TARGET_WIDTH, budget: Infinity, maxPermutations: sizes.estimatorMaxPermutations, radius };
        const { timing, result: est } = await timeRuns(1, 0, () => runEstimator(estimator, gameFor(kind, weights, quota), seededRng(7), opts));
        if (estimator === 'permutation' && radius === 'bernstein') baselineQueries = est.queries;
        const top = est.values.indexOf(Math.max(...est.values));
        rows.push({
          group: 'estimators',
          name: `n = ${n} ${kind}, ${stop === 'width' ? `width ${TARGET_WIDTH}` : 'top-1'}: ${estimator} + ${radius}`,
          ...timing,
          cost: est.cost,
          maxError: maxAbsError(est.values, exact),
          detail: {
            queries: est.queries,
            permutations: est.permutations,
            stopReason: est.stopReason,
            reachedGoal: est.stopReason === stop,
            fewerQueriesThanBaseline: baselineQueries / est.queries,
            ...(stop === 'top1' ? { topIsRight: top === exact.indexOf(Math.max(...exact)) } : {}),
          },
        });
        log(`  ${rows[rows.length - 1].name}: ${est.queries} queries, cost ${est.cost}, stopped: ${est.stopReason}`);
      }
    }
  }
  return rows;
}
