import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { permutationShapley, type PermutationOptions } from './permutation.ts';
import { rankingSeparated } from './stop-rules.ts';
import { TableGameAdapter } from '../table-game.ts';
import { seededRng } from '../rng.ts';
import type { Radius } from '../types.ts';
import type { EstimatorOutput } from './estimator.ts';
import { MeteredTableGame, randomGame, randomTable, tableGame, tableOf, ValueCostGame } from '../testing/games.ts';

const base: PermutationOptions = { delta: 0.05, stop: 'top1', width: 0.05, budget: Infinity, maxPermutations: 500, radius: 'bernstein' };

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function run(values: Float64Array, n: number, seed: number, opts: Partial<PermutationOptions> = {}, range?: [number, number]): EstimatorOutput {
  return permutationShapley(new TableGameAdapter(tableGame(values, n, 'g', range)), seededRng(seed), { ...base, ...opts });
}

describe('Monte Carlo permutation Shapley', () => {
  it('every estimate, and every checkpoint in the history, is exactly efficient', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 60 }), (n, seed, cap) => {
        const values = randomTable(n, seededRng(seed + 1));
        const target = values[2 ** n - 1] - values[0];
        const est = run(values, n, seed, { stop: 'budget', maxPermutations: cap });
        expect(est.permutations).toBe(cap);
        expect(est.stopReason).toBe('maxPermutations');
        expect(Math.abs(sum(est.values) - target)).toBeLessThan(1e-9);
        for (const h of est.history!) expect(Math.abs(sum(h.values) - target)).toBeLessThan(1e-9);
      }),
      { numRuns: 60 },
    );
  });

  it('converges to the exact values', () => {
    const n = 5;
    const { values, exact } = randomGame(n, 3);
    const est = run(values, n, 4, { stop: 'budget', maxPermutations: 20_000 });
    est.values.forEach((v, i) => expect(Math.abs(v - exact[i])).toBeLessThan(0.02));
  });

  for (const radius of ['bernstein', 'hoeffding'] as Radius[]) {
    for (const stop of ['top1', 'width'] as const) {
      it(`simultaneous ${radius} intervals cover the exact values in >= 1 - delta of runs (stop ${stop})`, () => {
        const n = 4;
        const delta = 0.1;
        // A random game: marginals with real variance, values in [0, 1].
        const { values, exact } = randomGame(n, 2024);
        let covered = 0;
        const runs = 200;
        for (let seed = 1; seed <= runs; seed++) {
          const est = run(values, n, seed, { radius, stop, delta, width: 0.15, maxPermutations: 400 }, [0, 1]);
          // The simultaneous claim covers the final intervals and those of every checkpoint.
          const all = [...est.history!.map((h) => h.ci), est.ci!];
          if (all.every((ci) => ci.every(([lo, hi], i) => lo <= exact[i] && exact[i] <= hi))) covered++;
        }
        expect(covered / runs).toBeGreaterThanOrEqual(1 - delta);
      });
    }
  }

  it('intervals at every checkpoint cover the exact values in >= 1 - delta of runs, also under budget stops', () => {
    const n = 5;
    const delta = 0.1;
    const runs = 200;
    const { values, exact } = randomGame(n, 17);
    let covered = 0;
    for (let seed = 1; seed <= runs; seed++) {
      const budget = 20 + 13 * seed;
      const est = permutationShapley(new ValueCostGame(values, n), seededRng(seed), { ...base, delta, stop: 'budget', budget, maxPermutations: 10_000 });
      expect(est.stopReason).toBe('budget');
      const all = [...est.history!.map((h) => h.ci), est.ci!];
      if (all.every((ci) => ci.every(([lo, hi], i) => lo <= exact[i] && exact[i] <= hi))) covered++;
    }
    expect(covered / runs).toBeGreaterThanOrEqual(1 - delta);
  });

  it('budget: stops once the cost reaches the budget, overshooting by at most one coalition', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 100 }), (n, seed, budget) => {
        const game = new MeteredTableGame(randomTable(n, seededRng(seed)), n);
        const est = permutationShapley(game, seededRng(seed), { ...base, stop: 'budget', budget, maxPermutations: 10_000 });
        // Unless every coalition got seen (cost 2^n, below the budget), the budget stops it.
        if (game.cost() < 2 ** n) expect(est.stopReason).toBe('budget');
        if (est.stopReason === 'budget') {
          expect(est.cost).toBeGreaterThanOrEqual(budget);
          // The budget is checked before every coalition: the last one asked for was asked below it
          // (cost 1 each here); with no round done, the equal split asks for v(empty) and v(all) too.
          expect(est.cost).toBeLessThanOrEqual(budget + (est.permutations === 0 ? 2 : 1));
        }
        expect(est.permutations).toBeGreaterThanOrEqual(0);
        // A budget stop between checkpoints reports the last checkpoint's (valid) intervals.
        const last = est.history!.at(-1);
        if (est.stopReason === 'budget') {
          if (last) expect(est.ci).toEqual(last.ci);
          else est.ci!.forEach((c) => expect(c).toEqual([-1, 1]));
        }
      }),
      { numRuns: 80 },
    );
  });

  it('budget: a budget already spent gives no permutation; values are an equal split (defined and efficient), intervals the whole range', () => {
    const n = 4;
    const values = randomTable(n, seededRng(8));
    const game = new MeteredTableGame(values, n);
    game.value(0);
    const est = permutationShapley(game, seededRng(1), { ...base, stop: 'budget', budget: 0 });
    expect(est.permutations).toBe(0);
    expect(est.stopReason).toBe('budget');
    expect(Math.abs(sum(est.values) - (values[15] - values[0]))).toBeLessThan(1e-12);
    est.ci!.forEach((c) => expect(c).toEqual([-1, 1]));
  });

  it('width: every radius is at most w at the stop', () => {
    for (const radius of ['bernstein', 'hoeffding'] as Radius[]) {
      for (const seed of [1, 2, 3]) {
        const est = run(randomTable(4, seededRng(seed)), 4, seed, { stop: 'width', width: 0.2, radius, maxPermutations: 100_000 }, [0, 1]);
        expect(est.stopReason).toBe('width');
        for (const [lo, hi] of est.ci!) expect((hi - lo) / 2).toBeLessThanOrEqual(0.2);
        // It did not stop at an earlier checkpoint that was already narrow enough.
        const earlier = est.history!.slice(0, -1);
        for (const h of earlier) expect(h.ci.some(([lo, hi]) => (hi - lo) / 2 > 0.2)).toBe(true);
      }
    }
  });

  it('top1: at the stop the top interval is disjoint from every other', () => {
    const weights = [0.6, 0.1, 0.15, 0.05];
    const values = tableOf(4, (m) => m.reduce((a, i) => a + weights[i], 0));
    for (const radius of ['bernstein', 'hoeffding'] as Radius[]) {
      const est = run(values, 4, 5, { stop: 'top1', radius, maxPermutations: 100_000 }, [0, 1]);
      expect(est.stopReason).toBe('top1');
      const top = est.values.indexOf(Math.max(...est.values));
      expect(top).toBe(0);
      est.ci!.forEach(([, hi], i) => i !== top && expect(est.ci![top][0]).toBeGreaterThan(hi));
      // The values of an additive game are exact from the first permutation (zero variance).
      est.values.forEach((v, i) => expect(v).toBeCloseTo(weights[i], 12));
    }
  });

  it('ranking: tied players never separate, so it runs to the cap', () => {
    // Players 1 and 2 are interchangeable (a symmetric game); player 0 dominates.
    const values = tableOf(3, (m) => 0.6 * +m.includes(0) + 0.2 * +(m.includes(1) || m.includes(2)) + 0.1 * +(m.includes(1) && m.includes(2)));
    for (const radius of ['bernstein', 'hoeffding'] as Radius[]) {
      const est = run(values, 3, 11, { stop: 'ranking', radius, maxPermutations: 3000 }, [0, 1]);
      expect(est.stopReason).toBe('maxPermutations');
      expect(est.permutations).toBe(3000);
      for (const h of est.history!) expect(rankingSeparated(h.values, h.ci)).toBe(false);
    }
  });

  it('ranking: distinct values separate and stop', () => {
    const weights = [0.5, 0.3, 0.1];
    const values = tableOf(3, (m) => m.reduce((a, i) => a + weights[i], 0));
    const est = run(values, 3, 2, { stop: 'ranking', maxPermutations: 100_000 }, [0, 1]);
    expect(est.stopReason).toBe('ranking');
    expect(rankingSeparated(est.values, est.ci!)).toBe(true);
  });

  it('intervals stay inside [-(hi - lo), hi - lo] and are deterministic given the seed', () => {
    const values = randomTable(5, seededRng(1));
    const a = run(values, 5, 9, { maxPermutations: 30, stop: 'budget' }, [0, 1]);
    const b = run(values, 5, 9, { maxPermutations: 30, stop: 'budget' }, [0, 1]);
    expect(a).toEqual(b);
    for (const [lo, hi] of a.ci!) {
      expect(lo).toBeGreaterThanOrEqual(-1);
      expect(hi).toBeLessThanOrEqual(1);
    }
    expect(run(values, 5, 10, { maxPermutations: 30, stop: 'budget' }, [0, 1]).values).not.toEqual(a.values);
  });

  it('rejects bad options', () => {
    const values = randomTable(3, seededRng(1));
    expect(() => run(values, 3, 1, { delta: 0 })).toThrow(/delta/);
    expect(() => run(values, 3, 1, { maxPermutations: 0 })).toThrow(/maxPermutations/);
    expect(() => run(values, 3, 1, { maxPermutations: Infinity })).toThrow(/maxPermutations/);
    expect(() => run(values, 3, 1, { budget: NaN })).toThrow(/budget/);
    // A budget that went through JSON (Infinity becomes null) must not silently mean 0.
    expect(() => run(values, 3, 1, { budget: null as unknown as number })).toThrow(/budget/);
  });
});
