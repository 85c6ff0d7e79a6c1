import { describe, expect, it } from 'vitest';
import { ESTIMATOR_NAMES, runEstimator } from './registry.ts';
import { TableGameAdapter } from '../table-game.ts';
import { seededRng } from '../rng.ts';
import type { Game } from '../types.ts';
import { playerNames, randomGame, randomTable, tableGame } from '../testing/games.ts';
import type { EstimatorOptions } from './estimator.ts';

/** A table game whose every lookup costs 1, so the cost a budget stop sees is the number of queries. */
class QueryCostGame implements Game {
  readonly players: readonly string[];
  readonly range: readonly [number, number] = [0, 1];
  private spent = 0;
  constructor(private readonly values: Float64Array, n: number) {
    this.players = playerNames(n);
  }
  value(mask: number): number {
    this.spent++;
    return this.values[mask];
  }
  cost(): number {
    return this.spent;
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const budgetOpts = (budget: number): EstimatorOptions => ({ delta: 0.05, stop: 'budget', width: 0, budget, maxPermutations: 1e9, radius: 'betting', exactWhenKnown: false });

// shapiq's checks for every approximator: the budget is spent and not overspent, the values are
// efficient, and they agree with the exact computer.
describe.each(ESTIMATOR_NAMES)('estimator %s', (name) => {
  it('spends the budget: checked before every coalition, so it is passed by at most one coalition (cost 1 here)', () => {
    for (const n of [3, 6, 9]) {
      const values = randomTable(n, seededRng(n));
      for (const budget of [1, 50, 333, 1000]) {
        const est = runEstimator(name, new QueryCostGame(values, n), seededRng(budget), budgetOpts(budget));
        expect(est.stopReason).toBe('budget');
        expect(est.queries).toBe(est.cost);
        expect(est.cost).toBeGreaterThanOrEqual(budget);
        // Each query costs 1 here; with no round done the equal split asks for v(empty) and v(all)
        // too (a real case has both already: the analysis asks for them first).
        expect(est.cost).toBeLessThanOrEqual(budget + (est.permutations === 0 ? 2 : 1));
        expect(Math.abs(est.values.reduce((a, b) => a + b, 0) - (values[2 ** n - 1] - values[0]))).toBeLessThan(1e-9);
      }
    }
  });

  it('is exactly efficient at every recorded time, and for one player gives v(all) - v(empty)', () => {
    for (const n of [2, 5, 8]) {
      const values = randomTable(n, seededRng(40 + n));
      const target = values[2 ** n - 1] - values[0];
      const est = runEstimator(name, new TableGameAdapter(tableGame(values, n)), seededRng(n), { ...budgetOpts(Infinity), maxPermutations: 300 });
      expect(Math.abs(sum(est.values) - target)).toBeLessThan(1e-9);
      for (const h of est.history!) expect(Math.abs(sum(h.values) - target)).toBeLessThan(1e-9);
    }
    const one = runEstimator(name, new TableGameAdapter(tableGame(Float64Array.from([0.2, 0.9]), 1)), seededRng(1), { ...budgetOpts(Infinity), maxPermutations: 5 });
    expect(one.values[0]).toBeCloseTo(0.7, 12);
  });

  it('agrees with the exact values, inside its intervals', () => {
    // delta = 0.001: one fixed seed per game, so a miss would be a one-in-a-thousand event, not bad luck at 5%.
    for (const n of [4, 7, 10]) {
      const { values, exact } = randomGame(n, 100 + n);
      const est = runEstimator(name, new TableGameAdapter(tableGame(values, n, 'g', [0, 1])), seededRng(9), { ...budgetOpts(Infinity), delta: 0.001, maxPermutations: 5000 });
      est.values.forEach((v, i) => {
        expect(Math.abs(v - exact[i])).toBeLessThan(0.03);
        expect(est.ci![i][0]).toBeLessThanOrEqual(exact[i]);
        expect(est.ci![i][1]).toBeGreaterThanOrEqual(exact[i]);
      });
    }
  });
});
