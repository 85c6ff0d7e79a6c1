import { describe, expect, it } from 'vitest';
import { duration, fixed3, interval, percent } from './format.ts';

describe('view number formats', () => {
  it('prints Shapley values with three decimals and no negative zero', () => {
    expect(fixed3(5 / 12)).toBe('0.417');
    expect(fixed3(-1 / 12)).toBe('-0.083');
    expect(fixed3(-0.0001)).toBe('0.000');
    expect(fixed3(undefined)).toBe('–');
  });
  it('prints rates, intervals and durations', () => {
    expect(percent(0.26)).toBe('26.0 %');
    expect(interval([0.269, 0.369])).toBe('[0.269, 0.369]');
    expect(duration(null)).toBe('estimating…');
    expect(duration(42.4)).toBe('42 s');
    expect(duration(600)).toBe('10 min');
  });
});
