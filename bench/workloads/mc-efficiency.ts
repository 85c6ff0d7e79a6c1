/**
 * Monte Carlo sample efficiency: permutations and step cost until the estimate is within a
 * target max |error| of the exact values, on weighted majority pipelines of 16 and 32 steps.
 *
 * - observed: our own loop over the engine's BlameGame, checking the error after every
 *   permutation (the first time it is within target; median over seeds);
 * - guaranteed: the engine's permutationShapley with stop 'width' (every simultaneous Bernstein
 *   radius <= target, delta 0.05), which needs no exact values to know it is done.
 */
import { BlameGame, permutationShapley, seededRng } from '../../src/engine/index.ts';
import { majorityPipeline } from '../lib/synthetic-games.ts';
import { median, timeRuns } from '../lib/measure.ts';
import { maxAbsError, type WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const MAX_PERMUTATIONS = 200_000;

function untilWithin(def: ReturnType<typeof majorityPipeline>['def'], exact: number[], target: number, seed: number) {
  const n = exact.length;
  const game = new BlameGame(def, { id: 'majority', inputs: { start: 0 } }, { mode: 'recorded', worlds: 1 });
  const rng = seededRng(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  const sums = new Float64Array(n);
  for (let t = 1; t <= MAX_PERMUTATIONS; t++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let mask = 0;
    let prev = game.value(0);
    for (const p of order) {
      mask += 2 ** p;
      const cur = game.value(mask);
      sums[p] += cur - prev;
      prev = cur;
    }
    let err = 0;
    for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(sums[i] / t - exact[i]));
    if (err <= target) return { permutations: t, cost: game.cost(), evaluations: game.evaluations };
  }
  return { permutations: Infinity, cost: game.cost(), evaluations: game.evaluations };
}

export async function mcEfficiencyWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const rows: WorkloadResult[] = [];
  const target = sizes.mcTargetError;
  for (const n of sizes.mcPlayers) {
    const { def, exact } = majorityPipeline(n);
    const observed = await timeRuns(sizes.runs, sizes.warmup, () =>
      Array.from({ length: sizes.mcSeeds }, (_, s) => untilWithin(def, exact, target, 1000 + s)),
    );
    const perms = observed.result.map((r) => r.permutations);
    rows.push({
      group: 'mc-efficiency',
      name: `n = ${n}: observed, to max|err| <= ${target} (${sizes.mcSeeds} seeds)`,
      ...observed.timing,
      cost: median(observed.result.map((r) => r.cost)),
      evaluations: median(observed.result.map((r) => r.evaluations)),
      detail: { permutationsMedian: median(perms), permutationsBySeed: perms, exactCoalitions: 2 ** n },
    });
    const guaranteed = await timeRuns(sizes.runs, sizes.warmup, () => {
      const game = new BlameGame(def, { id: 'majority', inputs: { start: 0 } }, { mode: 'recorded', worlds: 1 });
      const est = permutationShapley(game, seededRng(7), { delta: 0.05, stop: 'width', width: target, budget: Infinity, maxPermutations: MAX_PERMUTATIONS, radius: 'bernstein' });
      return { est, evaluations: game.evaluations };
    });
    const est = guaranteed.result.est;
    rows.push({
      group: 'mc-efficiency',
      name: `n = ${n}: guaranteed, every Bernstein radius <= ${target}`,
      ...guaranteed.timing,
      cost: est.cost,
      evaluations: guaranteed.result.evaluations,
      maxError: maxAbsError(est.values, exact),
      detail: { permutations: est.permutations, stopReason: est.stopReason },
    });
  }
  return rows;
}
