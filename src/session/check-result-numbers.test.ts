import { describe, expect, it } from 'vitest';
import { testResult } from '../engine/testing/results.ts';
import { checkResultNumbers } from './check-result-numbers.ts';

const players = ['a', 'b', 'c', 'd'];

describe('checkResultNumbers', () => {
  it('accepts values that add up to v(all) - v(empty) within rounding, and refuses a sum off by more', () => {
    // 0.1 + 0.2 + 0.3 + 0.4 is 1.0000000000000002 in doubles: rounding, not a forgery.
    const ok = testResult({ id: 'c', players, shapley: { a: 0.1, b: 0.2, c: 0.3, d: 0.4 } });
    expect(() => checkResultNumbers(ok, 'results[0]', [0, 1])).not.toThrow();
    const off = testResult({ id: 'c', players, shapley: { a: 0.1, b: 0.2, c: 0.3, d: 0.4 + 1e-6 } });
    expect(() => checkResultNumbers(off, 'results[0]', [0, 1])).toThrow(/^results\[0\]\.shapley: the values add up to 1\.000001, not v\(all\) - v\(none\) = 1/);
    // Without a known range the sum is still checked.
    expect(() => checkResultNumbers(off, 'results[0]')).toThrow(/add up to/);
  });

  it("refuses values outside the metric's range, naming the field", () => {
    expect(() => checkResultNumbers(testResult({ id: 'c', players, vEmpty: -0.5, vAll: 0.5, shapley: { a: 1, b: 0, c: 0, d: 0 } }), 'r', [0, 1])).toThrow(/^r\.vEmpty: -0\.5 is outside the metric's range \[0, 1\]/);
    const coalition = testResult({ id: 'c', players, shapley: { a: 1, b: 0, c: 0, d: 0 }, coalitions: [{ fixed: [], value: 0 }, { fixed: ['a'], value: 7 }] });
    expect(() => checkResultNumbers(coalition, 'r', [0, 1])).toThrow(/^r\.coalitions\[1\]\.value: 7 is outside/);
    // An exact value is a weighted mean of marginals, each within the range's width.
    const wide = testResult({ id: 'c', players, shapley: { a: 1.5, b: -0.5, c: 0, d: 0 } });
    expect(() => checkResultNumbers(wide, 'r', [0, 1])).toThrow(/^r\.shapley\.a: 1\.5 is outside what the metric's range \[0, 1\] allows \(-1 to 1\)/);
    expect(() => checkResultNumbers(testResult({ id: 'c', players, shapley: { a: 1, b: 0, c: 0, d: 0 }, fixAlone: { a: 2 } }), 'r', [0, 1])).toThrow(/^r\.fixAlone\.a: 2 is outside/);
  });

  it("allows KernelSHAP estimates their wider bound, (v(all) - v(empty))/n +- H(n-1) (n-1)/n 2 span", () => {
    // n = 4, span 1: H(3) * 3/4 * 2 = 2.75 (python3: (1+1/2+1/3)*3/4*2), around 1/4.
    const kernel = (a: number) => testResult({ id: 'c', players, method: 'mc', estimator: 'kernel', stopReason: 'top1', shapley: { a, b: 1 - a, c: 0, d: 0 } });
    expect(() => checkResultNumbers(kernel(1.5), 'r', [0, 1])).not.toThrow();
    expect(() => checkResultNumbers(kernel(2.95), 'r', [0, 1])).not.toThrow();
    expect(() => checkResultNumbers(kernel(3.05), 'r', [0, 1])).toThrow(/^r\.shapley\.a: 3\.05 is outside what the metric's range \[0, 1\] allows \(-2\.5 to 3\)/);
  });

  it('passes a case that could not be analysed (it has no values)', () => {
    expect(() => checkResultNumbers(testResult({ id: 'c', players, error: 'x', vEmpty: Number.NaN, vAll: Number.NaN }), 'r', [0, 1])).not.toThrow();
  });
});
