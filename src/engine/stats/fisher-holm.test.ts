import { describe, expect, it } from 'vitest';
import { fisherOneSided } from './fisher-one-sided.ts';
import { holmAdjust } from './holm.ts';

describe('fisherOneSided', () => {
  // Reference values: python3, the hypergeometric upper tail with math.comb,
  //   sum(comb(K,x)*comb(N-K,n1-x) for x in range(k1, min(n1,K)+1)) / comb(N,n1), K = k1+k0, N = n1+n0.
  const cases: [number, number, number, number, number][] = [
    [10, 10, 0, 10, 5.412544112234515e-6], // runtape's documented case: 10 of 10 against 0 of 10, "p = 5e-6"
    [9, 40, 0, 40, 0.001179122594069707], // runtape's llama3.2 refund case: 9 of 40 against 0 of 40, "p = 0.001"
    [9, 10, 1, 10, 0.000546666955335686],
    [9, 10, 3, 10, 0.009883305548940223],
    [18, 20, 6, 20, 0.00012218087857687412],
    [3, 5, 1, 5, 0.2619047619047619],
    [5, 10, 5, 10, 0.6718591006516703],
    [2, 2, 0, 2, 0.16666666666666666],
    [9, 10, 7, 10, 0.29102167182662536],
    [7, 12, 2, 9, 0.11290783519885687],
    [0, 10, 0, 10, 1],
    [10, 10, 10, 10, 1],
  ];
  for (const [k1, n1, k0, n0, p] of cases) {
    it(`${k1}/${n1} against ${k0}/${n0} gives ${p}`, () => {
      expect(fisherOneSided(k1, n1, k0, n0)).toBeCloseTo(p, 12);
      expect(Math.abs(fisherOneSided(k1, n1, k0, n0) - p) / p).toBeLessThan(1e-9);
    });
  }

  it('is one-sided: a rate that rises without the piece is no evidence', () => {
    expect(fisherOneSided(0, 10, 10, 10)).toBe(1);
  });

  it('refuses counts that are not counts', () => {
    expect(() => fisherOneSided(11, 10, 0, 10)).toThrow(/exceed/);
    expect(() => fisherOneSided(1.5, 10, 0, 10)).toThrow(/k1/);
    expect(() => fisherOneSided(1, 10, -1, 10)).toThrow(/k0/);
  });
});

describe('holmAdjust', () => {
  it('matches the step-down values computed by hand', () => {
    // python3: order by p, running max of min(1, (m - rank) * p) -> [0.04, 0.09, 0.09, 0.025, 0.5]
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005, 0.5]);
    [0.04, 0.09, 0.09, 0.025, 0.5].forEach((want, i) => expect(adjusted[i]).toBeCloseTo(want, 12));
  });

  it('caps at 1 and keeps a single test as it is', () => {
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
    expect(holmAdjust([0.03])).toEqual([0.03]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('refuses values that are not probabilities', () => {
    expect(() => holmAdjust([0.1, Number.NaN])).toThrow(/p-value 1/);
  });
});
