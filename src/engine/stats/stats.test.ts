import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hoeffdingRadius } from './hoeffding-radius.ts';
import { bernsteinRadius } from './bernstein-radius.ts';
import { normalCdf, normalQuantile } from './normal-quantile.ts';
import { RunningStats } from './welford.ts';
import { CheckpointSchedule, checkpointDelta } from './checkpoint-schedule.ts';
import { mean, variance } from '../testing/statistics.ts';

describe('interval radii (hand-computed values)', () => {
  it('Hoeffding: R sqrt(ln(2/delta) / (2t))', () => {
    // 2 * sqrt(ln(40) / 200) = 2 * sqrt(3.688879454 / 200) = 0.271620303
    expect(hoeffdingRadius(100, 2, 0.05)).toBeCloseTo(0.2716203031481239, 12);
    // sqrt(ln(200) / 20) = sqrt(5.298317367 / 20) = 0.514699785
    expect(hoeffdingRadius(10, 1, 0.01)).toBeCloseTo(0.5146997846583985, 12);
    expect(hoeffdingRadius(0, 1, 0.05)).toBe(Infinity);
  });

  it('empirical Bernstein: sqrt(2 V ln(4/delta) / t) + 7 R ln(4/delta) / (3 (t - 1))', () => {
    // l = ln(400) = 5.991464547; sqrt(2 * 0.09 * l / 50) = 0.146864; 7 * 2 * l / 147 = 0.570616
    expect(bernsteinRadius(50, 0.09, 2, 0.01)).toBeCloseTo(0.7174804809939901, 12);
    // Zero variance leaves the range term: 7 * ln(80) / 27 = 1.136081
    expect(bernsteinRadius(10, 0, 1, 0.05)).toBeCloseTo(1.1360809793598952, 12);
    expect(bernsteinRadius(1, 0.5, 1, 0.05)).toBe(Infinity);
    // A rounding-negative variance is treated as 0.
    expect(bernsteinRadius(10, -1e-18, 1, 0.05)).toBe(bernsteinRadius(10, 0, 1, 0.05));
  });

  it('radii shrink with more samples and grow with confidence', () => {
    expect(hoeffdingRadius(400, 2, 0.05)).toBeCloseTo(hoeffdingRadius(100, 2, 0.05) / 2, 12);
    expect(bernsteinRadius(100, 0.1, 2, 0.01)).toBeGreaterThan(bernsteinRadius(100, 0.1, 2, 0.05));
  });
});

describe('normal distribution', () => {
  it('quantiles match reference values to 1e-6', () => {
    expect(Math.abs(normalQuantile(0.975) - 1.959963984540054)).toBeLessThan(1e-6);
    expect(Math.abs(normalQuantile(0.995) - 2.5758293035489)).toBeLessThan(1e-6);
    expect(Math.abs(normalQuantile(0.9) - 1.2815515655446008)).toBeLessThan(1e-6);
    expect(Math.abs(normalQuantile(0.5))).toBeLessThan(1e-6);
  });

  it('quantile is antisymmetric and inverts the CDF', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), (p) => {
        expect(Math.abs(normalQuantile(p) + normalQuantile(1 - p))).toBeLessThan(1e-6);
        expect(Math.abs(normalCdf(normalQuantile(p)) - p)).toBeLessThan(1e-7);
      }),
      { numRuns: 100 },
    );
  });

  it('CDF matches reference values', () => {
    expect(Math.abs(normalCdf(1) - 0.8413447460685429)).toBeLessThan(2e-7);
    expect(Math.abs(normalCdf(-2.5) - 0.006209665325776159)).toBeLessThan(2e-7);
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
  });

  it('rejects p outside (0, 1)', () => {
    for (const p of [0, 1, -0.1, NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});

describe('Welford running statistics', () => {
  it('matches the two-pass mean and unbiased variance', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 2, maxLength: 200 }), (xs) => {
        const s = new RunningStats();
        xs.forEach((x) => s.push(x));
        expect(s.count).toBe(xs.length);
        expect(Math.abs(s.mean - mean(xs))).toBeLessThan(1e-9);
        expect(Math.abs(s.variance - variance(xs))).toBeLessThan(1e-7 * Math.max(1, variance(xs)));
      }),
      { numRuns: 200 },
    );
  });

  it('stays accurate with a large offset (where the naive sum-of-squares formula fails)', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => 1e9 + (i % 7) * 0.1);
    const s = new RunningStats();
    xs.forEach((x) => s.push(x));
    expect(s.variance).toBeCloseTo(variance(xs.map((x) => x - 1e9)), 9);
  });

  it('has variance 0 for fewer than two samples', () => {
    const s = new RunningStats();
    expect(s.variance).toBe(0);
    s.push(3);
    expect(s.variance).toBe(0);
    expect(s.mean).toBe(3);
  });
});

describe('checkpoint schedule', () => {
  it('falls at t_1 = 2, t_{k+1} = max(t_k + 1, ceil(1.25 t_k))', () => {
    const expected: number[] = [2];
    while (expected.length < 40) {
      const t = expected[expected.length - 1];
      expected.push(Math.max(t + 1, Math.ceil(1.25 * t)));
    }
    expect(expected.slice(0, 12)).toEqual([2, 3, 4, 5, 7, 9, 12, 15, 19, 24, 30, 38]);
    const s = new CheckpointSchedule();
    const reached: number[] = [];
    for (let t = 1; t <= expected[39]; t++) {
      if (s.reached(t)) {
        reached.push(t);
        expect(s.index - 1).toBe(reached.length);
      }
    }
    expect(reached).toEqual(expected);
  });

  it('spends at most delta / n per quantity over all checkpoints', () => {
    for (const [delta, n] of [[0.05, 4], [0.1, 1], [0.01, 52]] as const) {
      let total = 0;
      for (let k = 1; k <= 100_000; k++) total += checkpointDelta(delta, n, k);
      expect(total).toBeLessThanOrEqual(delta / n);
      // The telescoping sum is delta/n * (1 - 1/(K+1)).
      expect(total).toBeCloseTo((delta / n) * (1 - 1 / 100_001), 12);
    }
    expect(checkpointDelta(0.05, 4, 1)).toBe(0.05 / 8);
  });
});
