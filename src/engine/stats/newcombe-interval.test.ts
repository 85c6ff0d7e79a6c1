import { describe, expect, it } from 'vitest';
import { newcombeInterval } from './newcombe-interval.ts';

// Reference values: Newcombe (1998), Table II, method 10 (56/70 - 48/80: 0.0524 to 0.3339;
// 9/10 - 3/10: 0.1705 to 0.8090; 5/56 - 0/29: -0.0381 to 0.1926), and the rest computed with
// python3 from the same formula over Wilson intervals at z = 1.959964, to six decimals.
describe('newcombeInterval', () => {
  const cases: [number, number, number, number, number, number][] = [
    [56, 70, 48, 80, 0.052431, 0.333873],
    [9, 10, 3, 10, 0.170523, 0.809018],
    [6, 7, 2, 7, 0.058228, 0.80625],
    [5, 56, 0, 29, -0.038137, 0.19256],
    [0, 10, 0, 20, -0.161125, 0.277533],
    [10, 10, 0, 10, 0.607509, 1],
  ];
  it.each(cases)('%i/%i - %i/%i', (x1, n1, x2, n2, lo, hi) => {
    const [l, u] = newcombeInterval(x1, n1, x2, n2);
    expect(l).toBeCloseTo(lo, 6);
    expect(u).toBeCloseTo(hi, 6);
  });
  it('is the mirror image when the sides swap', () => {
    const [l, u] = newcombeInterval(56, 70, 48, 80);
    const [l2, u2] = newcombeInterval(48, 80, 56, 70);
    expect(l2).toBeCloseTo(-u, 12);
    expect(u2).toBeCloseTo(-l, 12);
  });
});
