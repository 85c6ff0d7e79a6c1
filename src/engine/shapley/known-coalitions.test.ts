import { describe, expect, it } from 'vitest';
import { ESTIMATOR_NAMES, runEstimator } from './registry.ts';
import { exactShapleyFromTable } from './exact.ts';
import { TableGameAdapter } from '../table-game.ts';
import { seededRng } from '../rng.ts';
import { tableGame } from '../testing/games.ts';
import { INTERVAL_UPDATE_COST, KnownCoalitions } from './known-coalitions.ts';
import type { EstimatorOptions } from './estimator.ts';

/**
 * Two tied leaders: v(S) = 1 once planner or retriever is fixed (a symmetric OR of the first two
 * of n players), so phi = 1/2 for each of them and 0 for the rest, and no number of samples
 * separates the top two: top1 used to run to the permutation cap.
 */
function tiedGame(n: number): Float64Array {
  const values = new Float64Array(2 ** n);
  for (let mask = 0; mask < values.length; mask++) values[mask] = mask & 0b11 ? 1 : 0;
  return values;
}

const opts: EstimatorOptions = { delta: 0.05, stop: 'top1', width: 0, budget: Infinity, maxPermutations: 10_000, radius: 'betting' };

describe('sampling stops once every coalition is known', () => {
  it.each(ESTIMATOR_NAMES)('%s on a tie at the top of 8 players: exact values, at most 2^8 distinct coalitions, far fewer queries than the cap', (name) => {
    const n = 8;
    const values = tiedGame(n);
    const game = new KnownCoalitions(new TableGameAdapter(tableGame(values, n, 'tie', [0, 1])));
    const est = runEstimator(name, game, seededRng(7), opts);
    expect(est.stopReason).toBe('exact');
    expect(est.values).toEqual(exactShapleyFromTable(values, n));
    expect(est.values.slice(0, 2)).toEqual([0.5, 0.5]);
    expect(game.known).toBe(2 ** n);
    // The cap is 10 000 permutations (70 000 queries); the coupon collector over 256 coalitions needs far fewer.
    expect(est.queries).toBeLessThan(20_000);
    expect(est.ci).toEqual(est.values.map((v) => [v, v]));
  });

  it('without exactWhenKnown the estimator only samples (the tie runs to the cap)', () => {
    const n = 4;
    const est = runEstimator('permutation', new TableGameAdapter(tableGame(tiedGame(n), n, 'tie', [0, 1])), seededRng(7), { ...opts, maxPermutations: 300, exactWhenKnown: false });
    expect(est.stopReason).toBe('maxPermutations');
    expect(est.permutations).toBe(300);
  });
});

describe('sampling that would cost more than exact does not start', () => {
  // One round updates n intervals, each worth INTERVAL_UPDATE_COST values of v(S): for 8 players
  // (8 x 32 = 256 = 2^8) the exact method is no dearer than a single round, so no order is sampled.
  it.each(ESTIMATOR_NAMES)('%s on 8 players: exact values from exactly 2^8 queries and no permutation', (name) => {
    const n = 8;
    const values = new Float64Array(2 ** n);
    for (let mask = 0; mask < values.length; mask++) values[mask] = (mask & 1 ? 0.5 : 0) + (mask & 0b110 ? 0.25 : 0) + (mask >> 7 ? 0.25 : 0);
    const game = new KnownCoalitions(new TableGameAdapter(tableGame(values, n, 'small', [0, 1])));
    const est = runEstimator(name, game, seededRng(5), opts);
    expect(est.stopReason).toBe('exact');
    expect(est.permutations).toBe(0);
    expect(game.queries).toBe(2 ** n);
    expect(est.values).toEqual(exactShapleyFromTable(values, n));
    expect(est.history).toHaveLength(1);
  });

  it(`12 players (2^12 = 4096 > 12 x ${INTERVAL_UPDATE_COST}): sampling starts`, () => {
    const n = 12;
    const values = new Float64Array(2 ** n);
    for (let mask = 0; mask < values.length; mask++) values[mask] = mask & 1 ? 1 : 0;
    const est = runEstimator('permutation', new TableGameAdapter(tableGame(values, n, 'dictator', [0, 1])), seededRng(5), opts);
    expect(est.permutations).toBeGreaterThan(0);
  });
});

describe("'auto' picks exact whenever its queries are within the sampling budget", () => {
  it('compares 2^n with the queries of maxPermutations orders (n - 1 each, plus the two ends)', async () => {
    const { resolveMethod, samplingQueryBudget, AUTO_EXACT_MAX_PLAYERS } = await import('../settings.ts');
    // 2^17 = 131 072 <= 10 000 * 16 + 2 = 160 002; 2^18 = 262 144 > 170 002 (by hand).
    expect(samplingQueryBudget(17, 10_000)).toBe(160_002);
    expect(resolveMethod('auto', 17)).toBe('exact');
    expect(resolveMethod('auto', 18)).toBe('mc');
    expect(AUTO_EXACT_MAX_PLAYERS).toBe(17);
    // A smaller cap moves the line: 2^10 = 1024 > 100 * 9 + 2 = 902, 2^9 = 512 <= 802.
    expect(resolveMethod('auto', 9, 100)).toBe('exact');
    expect(resolveMethod('auto', 10, 100)).toBe('mc');
    expect(resolveMethod('mc', 3)).toBe('mc');
  });
});

describe('the tie tolerance stops top1 and ranking on a tie', () => {
  // 17 players (above the exact finish): the first two tie at 1/2 each (an OR of them), the rest 0.
  const n = 17;
  const table = () => new TableGameAdapter(tableGame(tiedGame(n), n, 'tie17', [0, 1]));
  const base: EstimatorOptions = { delta: 0.05, stop: 'top1', width: 0, budget: Infinity, maxPermutations: 3000, radius: 'betting' };

  it.each(['top1', 'ranking'] as const)('%s: without a tolerance the tie runs to the cap; with 0.1 it stops well before, values within their intervals', (stop) => {
    const off = runEstimator('permutation', table(), seededRng(3), { ...base, stop, maxPermutations: 300 });
    expect(off.stopReason).toBe('maxPermutations');
    const on = runEstimator('permutation', table(), seededRng(3), { ...base, stop, tieTolerance: 0.1 });
    expect(on.stopReason).toBe(stop);
    expect(on.permutations).toBeLessThan(3000);
    // phi = 1/2, 1/2, 0, ... (the OR of the first two, by hand).
    expect(on.ci![0][0]).toBeLessThanOrEqual(0.5);
    expect(on.ci![0][1]).toBeGreaterThanOrEqual(0.5);
    expect(Math.abs(on.values[0] - on.values[1])).toBeLessThanOrEqual(0.1);
  });

  it('tiedWithin reads the difference interval from the two intervals (by hand: [0.40-0.52, 0.50-0.45] = [-0.12, 0.05])', async () => {
    const { tiedWithin } = await import('./tied.ts');
    expect(tiedWithin([0.4, 0.5], [0.45, 0.52], 0.12)).toBe(true);
    expect(tiedWithin([0.4, 0.5], [0.45, 0.52], 0.11)).toBe(false);
    expect(tiedWithin([0.4, 0.5], [0.45, 0.52], 0)).toBe(false);
  });
});
