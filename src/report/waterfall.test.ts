import { describe, expect, it } from 'vitest';
import { waterfallRows } from './waterfall.ts';

describe('waterfallRows', () => {
  it('adds the steps to v(empty) largest first, ending at v(empty) + the sum of the values', () => {
    const rows = waterfallRows(0.2, { a: 0.1, b: -0.3, c: 0.8, constructor: 5 }, ['a', 'b', 'c']);
    expect(rows.map((r) => r.step)).toEqual(['c', 'b', 'a']);
    expect(rows[0]).toEqual({ step: 'c', value: 0.8, from: 0.2, to: 1 });
    expect(rows[2].to).toBeCloseTo(0.8);
  });
  it('skips steps without a finite value (never reads inherited properties)', () => {
    expect(waterfallRows(0, { a: Number.NaN }, ['a', 'toString'])).toEqual([]);
  });
});
