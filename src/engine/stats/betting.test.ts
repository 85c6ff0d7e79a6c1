import { describe, expect, it } from 'vitest';
import { plugInBet, RegularizedMoments } from './plug-in-bet.ts';
import { BettingConfidenceSequence, BETTING_GRID } from './betting-cs.ts';
import { OneSidedBettingTest, PairedBettingTest } from './paired-betting-test.ts';
import { bernsteinRadius } from './bernstein-radius.ts';
import { seededRng } from '../rng.ts';
import type { Rng } from '../types.ts';
import { shareOfSeededRuns } from '../testing/seeded-runs.ts';

/** Hedged capital at candidate m recomputed from the data (an implementation apart from the grid's running one). */
function excludedAt(xs: readonly number[], m: number, alpha: number, c = 0.5): 'below' | 'above' | null {
  const mom = new RegularizedMoments();
  let up = 1;
  let down = 1;
  xs.forEach((x, i) => {
    const lambda = Math.min(Math.sqrt((2 * Math.log(2 / alpha)) / (mom.variance * (i + 1) * Math.log(i + 2))), c);
    up *= 1 + Math.min(lambda, c / m) * (x - m);
    down *= 1 - Math.min(lambda, c / (1 - m)) * (x - m);
    mom.push(x);
  });
  if (up / 2 >= 1 / alpha) return 'below';
  if (down / 2 >= 1 / alpha) return 'above';
  return null;
}

/** A [0, 1] variable with mean 0.3: Bernoulli(0.3) half the time, Uniform(0.1, 0.5) otherwise. */
function mixed(rng: Rng): number {
  return rng() < 0.5 ? (rng() < 0.3 ? 1 : 0) : 0.1 + 0.4 * rng();
}

describe('predictable plug-in bets (hand-computed)', () => {
  it('lambda_t = min(sqrt(2 ln(2/alpha) / (sigma2 t ln(t+1))), c)', () => {
    // 2 ln 40 = 7.377759; 0.25 * 1000 * ln 1001 = 1727.2; sqrt(7.377759 / 1727.2) = 0.0653566
    expect(plugInBet(0.05, 1000, 0.25, 0.5)).toBeCloseTo(0.065357034, 8);
    // sqrt(7.377759 / (0.01 * 50 * ln 51 = 1.965901)) = 1.93725 -> capped at c = 0.5
    expect(plugInBet(0.05, 50, 0.01, 0.5)).toBe(0.5);
    expect(plugInBet(0.05, 20, 0.05, 0.9)).toBeCloseTo(0.9, 12);
  });

  it('regularised moments start at 1/2 and 1/4 and follow their recursion', () => {
    const m = new RegularizedMoments();
    expect([m.mean, m.variance]).toEqual([0.5, 0.25]);
    m.push(1); // mean (0.5 + 1) / 2 = 0.75; variance (0.25 + 0.25^2) / 2 = 0.15625
    expect(m.mean).toBe(0.75);
    expect(m.variance).toBe(0.15625);
    m.push(0); // mean 1.5 / 3 = 0.5; variance (0.25 + 0.0625 + 0.25) / 3 = 0.1875
    expect(m.mean).toBe(0.5);
    expect(m.variance).toBeCloseTo(0.1875, 15);
  });
});

describe('betting confidence sequence', () => {
  it('its interval is the hedged-capital set recomputed from the data, to one grid step', () => {
    for (const seed of [1, 2, 3]) {
      const rng = seededRng(seed);
      const cs = new BettingConfidenceSequence(0.05);
      const xs: number[] = [];
      for (let t = 0; t < 120; t++) {
        const x = mixed(rng);
        xs.push(x);
        cs.push(x);
      }
      const step = 1 / BETTING_GRID;
      // The grid points at the ends are excluded on their sides; the points just inside are not
      // (unless excluded earlier: the running intersection only shrinks).
      if (cs.lower > 0) expect(excludedAt(xs.slice(0, 120), cs.lower, 0.05) ?? 'earlier').not.toBe('above');
      expect(excludedAt(xs, cs.lower + step, 0.05)).toBeNull();
      expect(excludedAt(xs, cs.upper - step, 0.05)).toBeNull();
      expect(cs.upper - cs.lower).toBeLessThan(0.35);
      expect(cs.lower).toBeLessThan(0.3);
      expect(cs.upper).toBeGreaterThan(0.3);
    }
  });

  it('covers the mean at every time at once in >= 1 - alpha of runs', () => {
    const alpha = 0.1;
    const missed = shareOfSeededRuns(300, (rng) => {
      const cs = new BettingConfidenceSequence(alpha);
      for (let t = 0; t < 300; t++) {
        cs.push(mixed(rng));
        if (!(cs.lower <= 0.3 && 0.3 <= cs.upper)) return true;
      }
      return false;
    });
    expect(missed).toBeLessThanOrEqual(alpha);
  });

  it('only shrinks, and is narrower than the fixed-time empirical Bernstein interval on low-variance data', () => {
    const rng = seededRng(9);
    const cs = new BettingConfidenceSequence(0.05);
    let width = 1;
    let sum = 0;
    let squares = 0;
    const t = 2000;
    for (let i = 0; i < t; i++) {
      const x = 0.5 + 0.05 * (rng() - 0.5);
      sum += x;
      squares += x * x;
      cs.push(x);
      expect(cs.upper - cs.lower).toBeLessThanOrEqual(width);
      width = cs.upper - cs.lower;
    }
    const variance = (squares - (sum * sum) / t) / (t - 1);
    // Valid at every time, and still narrower than a bound valid at this one t only.
    expect(width / 2).toBeLessThan(0.75 * bernsteinRadius(t, variance, 1, 0.05));
  });

  it('rejects observations outside [0, 1] and a bad alpha', () => {
    expect(() => new BettingConfidenceSequence(0.05).push(1.5)).toThrow(/outside \[0, 1\]/);
    expect(() => new BettingConfidenceSequence(0)).toThrow(/alpha/);
  });
});

describe('paired betting sign test', () => {
  it('decides a sign wrongly in <= alpha of runs under the null (mean exactly 1/2), however long it runs', () => {
    const alpha = 0.1;
    const decided = shareOfSeededRuns(400, (rng) => {
      const test = new PairedBettingTest(alpha);
      for (let t = 0; t < 1000 && test.sign === 0; t++) test.push(rng() < 0.5 ? 0.2 : 0.8);
      return test.sign !== 0;
    });
    expect(decided).toBeLessThanOrEqual(alpha);
  });

  it('decides the right sign quickly when the mean is away from 1/2', () => {
    for (const [p, sign] of [[0.7, 1], [0.3, -1]] as const) {
      const rng = seededRng(4);
      const test = new PairedBettingTest(0.01);
      let t = 0;
      while (test.sign === 0 && t < 500) {
        test.push(rng() < p ? 1 : 0);
        t++;
      }
      expect(test.sign).toBe(sign);
      expect(t).toBeLessThan(200);
    }
  });
});

describe('one-sided betting test (the bandit stop challenger contest)', () => {
  it('rejects in <= alpha of runs under the null (mean exactly 1/2), even with its bets warmed by misleading earlier data', () => {
    const alpha = 0.1;
    // One generator for all runs: generators seeded 1, 2, 3, ... start with correlated draws, and
    // the first draws are the ones these large early bets ride on.
    const stream = seededRng(20261205);
    let rejected = 0;
    const runs = 1000;
    for (let run = 0; run < runs; run++) {
      const test = new OneSidedBettingTest(alpha, 0.75);
      // Warm data far above 1/2 makes the first bets as large as allowed: they stay predictable.
      for (let k = 0; k < 10; k++) test.warm(0.9);
      for (let t = 0; t < 500 && !test.rejected; t++) test.push(stream() < 0.5 ? 0 : 1);
      if (test.rejected) rejected++;
    }
    expect(rejected / runs).toBeLessThanOrEqual(alpha);
    // Below 1/2 it never bets up, so it never rejects.
    const below = new OneSidedBettingTest(alpha, 0.75);
    const rng = seededRng(3);
    for (let t = 0; t < 2000; t++) below.push(rng() < 0.4 ? 1 : 0);
    expect(below.rejected).toBe(false);
  });

  it('rejects at 1/alpha, not 2/alpha: sooner than the two-sided test on the same data, sooner still when warmed', () => {
    const when = (make: () => { push(x: number): void; done(): boolean }) => {
      const rng = seededRng(11);
      const test = make();
      let t = 0;
      while (!test.done() && t < 1000) {
        test.push(rng() < 0.7 ? 0.8 : 0.4);
        t++;
      }
      return t;
    };
    const twoSided = when(() => {
      const test = new PairedBettingTest(0.01, 0.75);
      return { push: (x) => test.push(x), done: () => test.sign === 1 };
    });
    const oneSided = when(() => {
      const test = new OneSidedBettingTest(0.01, 0.75);
      return { push: (x) => test.push(x), done: () => test.rejected };
    });
    const warmed = when(() => {
      const test = new OneSidedBettingTest(0.01, 0.75);
      for (let k = 0; k < 5; k++) test.warm(0.68);
      return { push: (x) => test.push(x), done: () => test.rejected };
    });
    expect(oneSided).toBeLessThan(twoSided);
    expect(warmed).toBeLessThan(oneSided);
  });
});
