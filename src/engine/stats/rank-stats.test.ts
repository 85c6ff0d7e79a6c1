import { describe, expect, it } from 'vitest';
import { averageRanks } from './average-ranks.ts';
import { spearman } from './spearman.ts';
import { median } from './median.ts';
import { quantileSorted } from './quantile.ts';
import { bootstrapMedianInterval } from './bootstrap-median.ts';
import { shuffled } from './shuffle.ts';
import { fewestTrialsReaching, wilsonInterval } from './wilson-interval.ts';
import { seededRng } from '../rng.ts';

describe('average ranks and Spearman (reference values from python3, standard library: mid-ranks, then Pearson of the ranks)', () => {
  it('ties share the mean of their ranks', () => {
    expect(averageRanks([3, 1, 4, 1, 5, 9, 2, 6])).toEqual([4, 1.5, 5, 1.5, 6, 8, 3, 7]);
    expect(averageRanks([])).toEqual([]);
    expect(averageRanks([2, 2, 2])).toEqual([2, 2, 2]);
  });

  it('matches the reference with and without ties', () => {
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(0.9486832980505138, 12);
    expect(spearman([0.5, 0, 0, 0], [0.4, 0.3, 0.2, 0.1])).toBeCloseTo(0.7745966692414834, 12);
    expect(spearman([10, 20, 20, 30, 30, 30], [1, 2, 3, 3, 2, 1])).toBeCloseTo(0.19364916731037085, 12);
  });

  it('is +-1 for monotone lists and undefined for constant or short ones', () => {
    expect(spearman([1, 2, 3], [10, 20, 300])).toBe(1);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2, 3], [0, 0, 0])).toBeNull();
    expect(spearman([1], [1])).toBeNull();
    expect(() => spearman([1, 2], [1])).toThrow(RangeError);
  });
});

describe('median, quantile, bootstrap, shuffle', () => {
  it('median and type-7 quantiles (python3 statistics.median and statistics.quantiles(method="inclusive"))', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    expect([0.25, 0.5, 0.75].map((p) => quantileSorted([1, 2, 3, 4, 10], p))).toEqual([2, 3, 4]);
  });

  it('the bootstrap interval is seeded, brackets the median and collapses for constant data', () => {
    const xs = [0.1, 0.4, 0.35, 0.8, 0.2, 0.5, 0.45, 0.3, 0.6, 0.25];
    const a = bootstrapMedianInterval(xs, seededRng(7), 2000)!;
    const b = bootstrapMedianInterval(xs, seededRng(7), 2000)!;
    expect(a).toEqual(b);
    expect(a[0]).toBeLessThanOrEqual(median(xs));
    expect(a[1]).toBeGreaterThanOrEqual(median(xs));
    expect(a[0]).toBeGreaterThanOrEqual(0.1);
    expect(a[1]).toBeLessThanOrEqual(0.8);
    expect(bootstrapMedianInterval([0.3, 0.3, 0.3], seededRng(1), 100)).toEqual([0.3, 0.3]);
    expect(bootstrapMedianInterval([], seededRng(1))).toBeNull();
  });

  it('the bootstrap interval covers the true median about 95% of the time (normal samples of 41)', () => {
    const rng = seededRng(11);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    let covered = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const ci = bootstrapMedianInterval(Array.from({ length: 41 }, normal), rng, 500)!;
      if (ci[0] <= 0 && 0 <= ci[1]) covered++;
    }
    // Percentile intervals of a median run a little under or over; 200 trials give about +-3%.
    expect(covered / trials).toBeGreaterThan(0.88);
    expect(covered / trials).toBeLessThan(0.995);
  });

  it('a shuffle is a permutation, seeded, and every order of three comes up about equally often', () => {
    expect(shuffled([1, 2, 3, 4, 5], seededRng(3)).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(shuffled([1, 2, 3, 4, 5], seededRng(3))).toEqual(shuffled([1, 2, 3, 4, 5], seededRng(3)));
    const rng = seededRng(5);
    const counts = new Map<string, number>();
    for (let k = 0; k < 6000; k++) {
      const key = shuffled(['a', 'b', 'c'], rng).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    // Each order has probability 1/6: 1000 expected, sd about 29.
    for (const c of counts.values()) expect(Math.abs(c - 1000)).toBeLessThan(150);
  });
});

describe('Wilson interval', () => {
  it('matches the credit-assignment audit\'s printed intervals and python3', () => {
    // The audit prints 267/527 as [46.4, 54.9] and 84/139 as [52.1, 68.2]; python3 gives the digits.
    const [lo, hi] = wilsonInterval(267, 527);
    expect(lo).toBeCloseTo(0.4640630842062987, 9);
    expect(hi).toBeCloseTo(0.5491235271310144, 9);
    const [lo2, hi2] = wilsonInterval(84, 139);
    expect(lo2).toBeCloseTo(0.5212708081863546, 9);
    expect(hi2).toBeCloseTo(0.6817514811904262, 9);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBe(1);
  });

  it('fewestTrialsReaching: the fewest n whose n of n puts the lower bound at the level (python3: 34/34 0.89849, 35/35 0.90110; 18/18 0.82412, 19/19 0.83182)', () => {
    expect(fewestTrialsReaching(0.9)).toBe(35);
    expect(fewestTrialsReaching(0.83)).toBe(19);
    expect(() => fewestTrialsReaching(1)).toThrow(/level/);
  });
});
