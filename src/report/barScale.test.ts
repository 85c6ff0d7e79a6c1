import { describe, expect, it } from 'vitest';
import { barScale } from './barScale.ts';

describe('barScale', () => {
  it('starts at zero for positive values and ends on a nice tick', () => {
    const scale = barScale([0.417, 0.083, 0.45]);
    expect(scale.min).toBe(0);
    expect(scale.max).toBeCloseTo(0.5);
    expect(scale.ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(scale.at(0.25)).toBeCloseTo(0.5);
  });
  it('holds negative values (a fix that makes things worse) with zero inside the axis', () => {
    const scale = barScale([-0.12, 0.53]);
    expect(scale.min).toBeCloseTo(-0.2);
    expect(scale.max).toBeCloseTo(0.6);
    expect(scale.ticks).toContain(0);
    expect(scale.at(0)).toBeCloseTo(0.25);
  });
  it('gives an axis even when every value is zero', () => {
    const scale = barScale([0, 0]);
    expect(scale.max).toBeGreaterThan(scale.min);
    expect(scale.at(0)).toBe(0);
  });
});
