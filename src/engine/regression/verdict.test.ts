import { describe, expect, it } from 'vitest';
import { newcombePairedInterval } from '../stats/newcombe-paired.ts';
import { wilsonInterval } from '../stats/wilson-interval.ts';
import { gateVerdict, pairedFailureRateChange, unpairedFailureRateChange, verdictLine, type BlameRise } from './verdict.ts';

const z = 1.959963984540054;

describe("Newcombe's paired interval", () => {
  it('is the hybrid score interval with the corrected correlation, by hand', () => {
    // a = 36 fail on both sides, b = 12 only on the first, c = 2 only on the second, d = 0 (n = 50).
    const [l1, u1] = wilsonInterval(48, 50, z);
    const [l2, u2] = wilsonInterval(38, 50, z);
    const p1 = 48 / 50;
    const p2 = 38 / 50;
    // ad - bc = -24 < 0 stays as it is; margins 48 * 2 * 38 * 12.
    const phi = -24 / Math.sqrt(48 * 2 * 38 * 12);
    const lower = 0.2 - Math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2);
    const upper = 0.2 + Math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2);
    const [lo, hi] = newcombePairedInterval(36, 12, 2, 0, z);
    expect(lo).toBeCloseTo(lower, 14);
    expect(hi).toBeCloseTo(upper, 14);
    expect(lo).toBeGreaterThan(0);
  });

  it('moves a positive ad - bc n/2 towards 0 before it counts', () => {
    // ad - bc = 10 * 10 - 0 = 100 > n/2 = 10: phi = 90 / sqrt(10 * 10 * 10 * 10).
    const phi = 90 / 100;
    const [l, u] = wilsonInterval(10, 20, z);
    const half = Math.sqrt(2 * (0.5 - l) ** 2 - 2 * phi * (0.5 - l) * (u - 0.5));
    const [lo, hi] = newcombePairedInterval(10, 0, 0, 10, z);
    expect(lo).toBeCloseTo(-half, 14);
    expect(hi).toBeCloseTo(half, 14);
  });
});

describe('the gate', () => {
  const rise = (step: string, value: number, ci: [number, number]): BlameRise => ({ step, change: 'changed', rise: value, ci });
  const flat = pairedFailureRateChange(Array.from({ length: 20 }, (_, i) => ({ failsBefore: i < 2, failsNow: i < 2 })), 0.05);

  it('fails when the failure rate rose with its interval above 0, naming the largest rise as the cause', () => {
    const worse = pairedFailureRateChange(Array.from({ length: 40 }, (_, i) => ({ failsBefore: false, failsNow: i < 12 })), 0.05);
    expect(worse.ci[0]).toBeGreaterThan(0);
    const v = gateVerdict(worse, [rise('a', 0.05, [0, 0.1]), rise('b', 0.08, [0.01, 0.15])], 0.1);
    expect(v.regression).toBe(true);
    expect(v.risen).toEqual([]);
    expect(v.cause?.step).toBe('b');
    expect(verdictLine(v, (n) => n)).toMatch(/^regression: \+12 failing cases \[\+\d+\.\d, \+\d+\.\d\] of 40 \(12 new failures, 0 fixed\); caused by b \(\+0\.08 \[\+0\.01, \+0\.15\]\)$/);
  });

  it('fails when a step rose by more than the threshold with its interval above it, and passes when the interval reaches below', () => {
    expect(gateVerdict(flat, [rise('a', 0.4, [0.2, 0.6])], 0.1).regression).toBe(true);
    expect(gateVerdict(flat, [rise('a', 0.4, [0.05, 0.75])], 0.1).regression).toBe(false);
    expect(gateVerdict(flat, [rise('a', 0.4, [0.2, 0.6])], 0.3).regression).toBe(false);
    const v = gateVerdict(flat, [rise('a', 0.05, [0.01, 0.09])], 0.1);
    expect(verdictLine(v, (n) => n)).toBe(`no regression: +0 failing cases [${(v.failureRate.ci[0] * 20).toFixed(1)}, +${(v.failureRate.ci[1] * 20).toFixed(1)}] of 20 (0 new failures, 0 fixed); no step's blame rose by more than 0.1 with its interval above it`);
  });

  it('compares failure rates of different cases unpaired', () => {
    const f = unpairedFailureRateChange({ failures: 2, cases: 20 }, { failures: 10, cases: 25 }, 0.05);
    expect(f.change).toBeCloseTo(0.4 - 0.1, 14);
    expect(f.paired).toBe(false);
    expect(verdictLine(gateVerdict(f, [], 0.1), (n) => n)).toMatch(/^regression: failure rate 0\.10 -> 0\.40, \+0\.30 \[\+0\.\d\d, \+0\.\d\d\]; no step/);
  });
});
