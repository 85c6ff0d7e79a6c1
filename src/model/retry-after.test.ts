import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.ts';

const now = Date.parse('2026-11-30T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads seconds', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('1.5', now)).toBe(1500);
  });

  it('reads an HTTP date; a past date is now', () => {
    expect(retryAfterMs('Mon, 30 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('is capped', () => {
    expect(retryAfterMs('86400', now)).toBe(60_000);
    expect(retryAfterMs('86400', now, 5000)).toBe(5000);
  });

  it('is null when absent or not understood', () => {
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('-5', now)).toBeNull();
    expect(retryAfterMs('', now)).toBeNull();
  });
});
