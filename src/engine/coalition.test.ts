import { describe, expect, it } from 'vitest';
import { hasPlayer } from './coalition.ts';

/** Membership by division alone, valid for every integer mask a double holds exactly. */
function hasPlayerByDivision(mask: number, i: number): boolean {
  return Math.floor(mask / 2 ** i) % 2 === 1;
}

describe('hasPlayer', () => {
  it('agrees with plain arithmetic on masks below, at and above 2^31, for players 0 to 52', () => {
    const masks = [0, 1, 2, 5, 255, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 2 ** 32, 2 ** 32 + 7, 2 ** 40 + 2 ** 31 + 3, 2 ** 52 - 1, 2 ** 53 - 1];
    for (const mask of masks) for (let i = 0; i <= 52; i++) expect(hasPlayer(mask, i), `mask ${mask}, player ${i}`).toBe(hasPlayerByDivision(mask, i));
  });

  it('never wraps the shift: a small mask has no player 32 or above', () => {
    // `1 >> 32` is 1 in JavaScript (the count is taken mod 32).
    expect(hasPlayer(1, 32)).toBe(false);
    expect(hasPlayer(3, 33)).toBe(false);
  });

  it('reads bigint masks', () => {
    const mask = (1n << 60n) | 5n;
    expect([0, 1, 2, 59, 60, 61].map((i) => hasPlayer(mask, i))).toEqual([true, false, true, false, true, false]);
  });
});
