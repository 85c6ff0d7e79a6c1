import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff-delay.ts';

describe('backoffDelay (full jitter)', () => {
  it('draws uniformly below base * 2^attempt', () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(0, () => 0.999)).toBe(499);
    expect(backoffDelay(3, () => 0.5)).toBe(2000);
  });

  it('is capped', () => {
    expect(backoffDelay(20, () => 0.5)).toBe(15_000);
    expect(backoffDelay(2, () => 0.5, 100, 300)).toBe(150);
  });
});
