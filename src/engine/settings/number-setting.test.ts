import { describe, expect, it } from 'vitest';
import { expectedText, numberFromText, withinBounds, type NumberBounds } from './number-setting.ts';

const WORLDS: NumberBounds = { min: 1, max: 100_000, integer: true };
const DELTA: NumberBounds = { min: 0, minExclusive: true, max: 1, maxExclusive: true, integer: false };
const BUDGET: NumberBounds = { min: 0, minExclusive: true, max: Infinity, integer: false, none: true };
const SEED: NumberBounds = { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true };

describe('a number setting\'s bounds', () => {
  it('words each shape of bound', () => {
    expect(expectedText(WORLDS)).toBe('a whole number from 1 to 100000');
    expect(expectedText(DELTA)).toBe('a number strictly between 0 and 1');
    expect(expectedText(BUDGET)).toBe('a number greater than 0, or none');
    expect(expectedText(SEED)).toBe('a whole number from 0 to 2^53 - 1');
    expect(expectedText({ min: 1, max: Infinity, integer: true })).toBe('a whole number of at least 1');
    expect(expectedText({ min: 0, max: 1, maxExclusive: true, integer: false })).toBe('a number of at least 0 and less than 1');
  });

  it('holds the ends as the bounds say, and Infinity only as none', () => {
    expect([1, 100_000, 0, 100_001, 2.5].map((x) => withinBounds(WORLDS, x))).toEqual([true, true, false, false, false]);
    expect([0, 1, 0.5, Number.MIN_VALUE].map((x) => withinBounds(DELTA, x))).toEqual([false, false, true, true]);
    expect([Infinity, -Infinity, Number.NaN, 0, 1e-9].map((x) => withinBounds(BUDGET, x))).toEqual([true, false, false, false, true]);
    expect(withinBounds(WORLDS, Infinity)).toBe(false);
  });

  it('reads text: trimmed numbers, none where allowed; anything else is refused with the text quoted', () => {
    expect(numberFromText(WORLDS, ' 16 ')).toEqual({ value: 16 });
    expect(numberFromText(BUDGET, 'none')).toEqual({ value: Infinity });
    expect(numberFromText(WORLDS, 'none')).toEqual({ problem: 'expected a whole number from 1 to 100000, got "none"' });
    expect(numberFromText(WORLDS, '')).toEqual({ problem: 'expected a whole number from 1 to 100000, got ""' });
    expect(numberFromText(DELTA, '1')).toEqual({ problem: 'expected a number strictly between 0 and 1, got "1"' });
    expect(numberFromText(SEED, '9007199254740992')).toEqual({ problem: 'expected a whole number from 0 to 2^53 - 1, got "9007199254740992"' });
  });
});
