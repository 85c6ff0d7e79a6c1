import { describe, expect, it } from 'vitest';
import { numberSlots, slots } from './slots.ts';

describe('slots', () => {
  it('hold what is written by index, keep their length, and have no prototype (no frozen prototype on the store path)', () => {
    const s = slots<string | undefined>(4, undefined);
    expect(Object.getPrototypeOf(s)).toBeNull();
    expect(s.length).toBe(4);
    s[2] = 'x';
    expect([s[0], s[1], s[2], s[3]]).toEqual([undefined, undefined, 'x', undefined]);
    const n = numberSlots(3);
    expect(Object.getPrototypeOf(n)).toBeNull();
    n[1] += 0.1;
    n[1] += 0.2;
    expect([n.length, n[0], n[1], n[2]]).toEqual([3, 0, 0.1 + 0.2, 0]);
  });
});
