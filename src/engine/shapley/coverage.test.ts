import { describe, expect, it } from 'vitest';
import { ESTIMATOR_NAMES, runEstimator } from './registry.ts';
import { exactShapleyFromTable } from './exact.ts';
import { TableGameAdapter } from '../table-game.ts';
import { seededRng } from '../rng.ts';
import type { Radius } from '../types.ts';
import { randomGame, randomTable, tableGame, tableOf } from '../testing/games.ts';
import type { EstimatorOptions } from './estimator.ts';

const RADII: Radius[] = ['betting', 'bernstein', 'hoeffding'];
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe('coverage of every estimator under every bound', () => {
  const n = 4;
  const delta = 0.1;
  const runs = 150;
  // A random game with values in [0, 1]: marginals with real variance.
  const { values, exact } = randomGame(n, 2024);
  for (const name of ESTIMATOR_NAMES) {
    for (const radius of RADII) {
      for (const stop of ['width', 'top1'] as const) {
        it(`${name}, ${radius}, stop ${stop}: intervals cover all players at every recorded time in >= 1 - delta of runs`, () => {
          const opts: EstimatorOptions = { delta, stop, width: 0.15, budget: Infinity, maxPermutations: 400, radius, exactWhenKnown: false };
          let covered = 0;
          for (let seed = 1; seed <= runs; seed++) {
            const est = runEstimator(name, new TableGameAdapter(tableGame(values, n, 'g', [0, 1])), seededRng(seed), opts);
            expect(Math.abs(sum(est.values) - (values[2 ** n - 1] - values[0]))).toBeLessThan(1e-9);
            const all = [...est.history!.map((h) => h.ci), est.ci!];
            if (radius === 'betting') {
              // A running intersection: each interval lies inside the one before, so covering at the
              // end means covering at every time, also between the recorded checkpoints.
              for (let k = 1; k < all.length; k++) all[k].forEach(([lo, hi], i) => expect(lo >= all[k - 1][i][0] - 1e-12 && hi <= all[k - 1][i][1] + 1e-12).toBe(true));
            }
            if (all.every((ci) => ci.every(([lo, hi], i) => lo <= exact[i] && exact[i] <= hi))) covered++;
          }
          expect(covered / runs).toBeGreaterThanOrEqual(1 - delta);
        });
      }
    }
  }
});

describe('paired stop rules (betting)', () => {
  it('top1 names the wrong top step in <= delta of runs when the top two are close', () => {
    // Additive with interaction noise: phi = 0.30 and 0.27 at the top, then 0.1 and 0.05.
    const base = [0.3, 0.27, 0.1, 0.05];
    const noise = randomTable(4, seededRng(77));
    const values = tableOf(4, (m) => m.reduce((a, i) => a + base[i], 0));
    values.forEach((_, mask) => (values[mask] = values[mask] * 0.8 + 0.2 * noise[mask]));
    const exact = exactShapleyFromTable(values, 4);
    const top = exact.indexOf(Math.max(...exact));
    const delta = 0.1;
    let wrong = 0;
    let stopped = 0;
    const runs = 100;
    for (let seed = 1; seed <= runs; seed++) {
      for (const name of ESTIMATOR_NAMES) {
        const est = runEstimator(name, new TableGameAdapter(tableGame(values, 4, 'g', [0, 1])), seededRng(seed), { delta, stop: 'top1', width: 0, budget: Infinity, maxPermutations: 2000, radius: 'betting', exactWhenKnown: false });
        if (est.stopReason !== 'top1') continue;
        stopped++;
        if (est.values.indexOf(Math.max(...est.values)) !== top) wrong++;
      }
    }
    expect(stopped).toBeGreaterThan(0);
    expect(wrong / (runs * ESTIMATOR_NAMES.length)).toBeLessThanOrEqual(delta);
  });

  it('top1 and ranking on paired differences stop sooner than disjoint Bernstein intervals', () => {
    const weights = [0.35, 0.25, 0.2, 0.1, 0.05, 0.05];
    const noise = randomTable(6, seededRng(5));
    const values = tableOf(6, (m) => m.reduce((a, i) => a + weights[i], 0) * 0.9);
    values.forEach((_, mask) => (values[mask] += 0.1 * noise[mask]));
    for (const stop of ['top1', 'ranking'] as const) {
      const opts = (radius: Radius): EstimatorOptions => ({ delta: 0.05, stop, width: 0, budget: Infinity, maxPermutations: 50_000, radius, exactWhenKnown: false });
      const paired = runEstimator('permutation', new TableGameAdapter(tableGame(values, 6, 'g', [0, 1])), seededRng(3), opts('betting'));
      const disjoint = runEstimator('permutation', new TableGameAdapter(tableGame(values, 6, 'g', [0, 1])), seededRng(3), opts('bernstein'));
      expect(paired.stopReason).toBe(stop);
      expect(paired.queries).toBeLessThan(disjoint.queries / 2);
    }
  });

  it('ranking never stops on tied players', () => {
    const values = tableOf(3, (m) => 0.6 * +m.includes(0) + 0.2 * +(m.includes(1) || m.includes(2)) + 0.1 * +(m.includes(1) && m.includes(2)));
    const est = runEstimator('permutation', new TableGameAdapter(tableGame(values, 3, 'g', [0, 1])), seededRng(11), { delta: 0.05, stop: 'ranking', width: 0, budget: Infinity, maxPermutations: 3000, radius: 'betting', exactWhenKnown: false });
    expect(est.stopReason).toBe('maxPermutations');
  });

  it('a budget stop with betting intervals reports the current estimate and its (anytime-valid) interval', () => {
    const values = randomTable(5, seededRng(12));
    const est = runEstimator('permutation', new TableGameAdapter(tableGame(values, 5, 'g', [0, 1])), seededRng(1), { delta: 0.05, stop: 'budget', width: 0, budget: Infinity, maxPermutations: 33, radius: 'betting', exactWhenKnown: false });
    expect(est.permutations).toBe(33);
    expect(est.ci!.every(([lo, hi], i) => lo <= est.values[i] + 1 && hi >= lo)).toBe(true);
  });
});
