import { describe, expect, it } from 'vitest';
import { ESTIMATOR_NAMES, DEFAULT_ESTIMATOR, estimatorByName, isEstimatorName, listEstimators, runEstimator } from './registry.ts';
import { TableGameAdapter } from '../table-game.ts';
import { seededRng } from '../rng.ts';
import { randomTable, tableGame } from '../testing/games.ts';
import { analyzeTableGame } from '../table-game.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import type { EstimatorOptions } from './estimator.ts';

const opts: EstimatorOptions = { delta: 0.05, stop: 'budget', width: 0.05, budget: Infinity, maxPermutations: 37, radius: 'bernstein' };

describe('estimator registry', () => {
  it('lists every estimator once, with a label and a summary, and the default among them', () => {
    expect(new Set(ESTIMATOR_NAMES).size).toBe(ESTIMATOR_NAMES.length);
    expect(ESTIMATOR_NAMES).toContain('permutation');
    expect(ESTIMATOR_NAMES).toContain(DEFAULT_ESTIMATOR);
    for (const e of listEstimators()) {
      expect(ESTIMATOR_NAMES).toContain(e.name);
      expect(e.label.length).toBeGreaterThan(0);
      expect(e.summary.length).toBeGreaterThan(0);
      expect(estimatorByName(e.name)).toBe(e);
    }
  });

  it('refuses unknown names, inherited keys included', () => {
    expect(() => estimatorByName('kernel-magic')).toThrow(/unknown estimator "kernel-magic" \(known: permutation/);
    expect(isEstimatorName('toString')).toBe(false);
    expect(isEstimatorName('__proto__')).toBe(false);
    expect(isEstimatorName(3)).toBe(false);
  });

  it('counts queries, repeats included: permutation asks v(empty) and v(all) once and n - 1 values per permutation', () => {
    const n = 5;
    const game = new TableGameAdapter(tableGame(randomTable(n, seededRng(3)), n));
    const est = runEstimator('permutation', game, seededRng(1), { ...opts, exactWhenKnown: false });
    expect(est.permutations).toBe(37);
    expect(est.queries).toBe(2 + (n - 1) * 37);
    // Distinct coalitions are far fewer than the queries on a 5-player game.
    expect(game.evaluations).toBeLessThanOrEqual(2 ** n);
    expect(est.queries).toBeGreaterThan(game.evaluations);
  });

  it('results name the estimator and report queries (Monte Carlo), and exact results report 2^n queries', () => {
    // 17 players: above the 16 up to which sampling stops with the exact values once it has done their work.
    const n = 17;
    const table = tableGame(randomTable(n, seededRng(5)), n);
    const mc = analyzeTableGame(table, { ...DEFAULT_SETTINGS, method: 'mc', stop: 'budget', maxPermutations: 10 });
    expect(mc.estimator).toBe(DEFAULT_ESTIMATOR);
    expect(mc.queries).toBe(2 + (n - 1) * 10);
    const small = tableGame(randomTable(4, seededRng(5)), 4);
    const exact = analyzeTableGame(small, { ...DEFAULT_SETTINGS, method: 'exact' });
    expect(exact.estimator).toBeUndefined();
    expect(exact.queries).toBe(2 ** 4);
  });
});
