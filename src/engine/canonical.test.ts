import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalize, deepFreeze } from './canonical.ts';
import { analyzeTableGame, TableGameAdapter } from './table-game.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { tableGame } from './testing/games.ts';

function hasNegativeZero(v: unknown): boolean {
  if (Object.is(v, -0)) return true;
  return v !== null && typeof v === 'object' && Object.values(v).some(hasNegativeZero);
}

describe('canonicalize', () => {
  it('equal plain data gives equal text whatever the key order', () => {
    expect(canonicalize({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(canonicalize({ a: [1, { c: 3, d: 2 }], b: 1 }));
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // JSON turns -0 into 0, a value canonicalize keeps apart on purpose.
        fc.pre(!hasNegativeZero(v));
        expect(canonicalize(v)).toBe(canonicalize(JSON.parse(JSON.stringify(v))));
      }),
      { numRuns: 100 },
    );
  });

  it('distinguishes values JSON would merge', () => {
    const texts = [0, -0, NaN, Infinity, -Infinity, null, undefined, '0', 'null', [undefined], [null], {}].map(canonicalize);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('names the path of a non-plain value', () => {
    expect(() => canonicalize({ docs: [{ at: new Date(0) }] })).toThrow(/\.docs\[0\]\.at is a Date object/);
    expect(() => canonicalize({ f: () => 0 })).toThrow(/\.f is a function/);
    expect(() => canonicalize(Symbol('s'))).toThrow(/\(top\) is a symbol/);
    const shared = { x: 1 };
    // The same object twice is fine (not a cycle).
    expect(canonicalize({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('deepFreeze freezes nested values', () => {
    const v = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(v.a.b[1])).toBe(true);
  });
});

describe('table games', () => {
  it('rejects a table of the wrong size, naming the game', () => {
    expect(() => new TableGameAdapter(tableGame(new Float64Array(5), 2, 'g-bad'))).toThrow(/game "g-bad": 5 values for 2 players/);
  });

  it('infers the range from the values when none is given, and uses the given one otherwise', () => {
    expect(new TableGameAdapter(tableGame(Float64Array.from([2, 5, -1, 3]), 2)).range).toEqual([-1, 5]);
    expect(new TableGameAdapter(tableGame(Float64Array.from([1, 1, 1, 1]), 2)).range).toEqual([1, 2]);
    expect(new TableGameAdapter(tableGame(Float64Array.from([0, 1, 1, 1]), 2, 'g', [0, 10])).range).toEqual([0, 10]);
  });

  it('reports evaluations, coalitions, failure and fixability', () => {
    const r = analyzeTableGame(tableGame(Float64Array.from([0, 1, 0.5, 1]), 2, 'two'), { ...DEFAULT_SETTINGS, method: 'exact' });
    expect(r.failed).toBe(true);
    expect(r.fixable).toBe(true);
    expect(r.evaluations).toBe(4);
    expect(r.coalitions).toEqual([
      { fixed: [], value: 0 },
      { fixed: ['p0'], value: 1 },
      { fixed: ['p1'], value: 0.5 },
      { fixed: ['p0', 'p1'], value: 1 },
    ]);
    // phi_0 = (1 + (1 - 0.5)) / 2, phi_1 = (0.5 + 0) / 2
    expect(r.shapley).toEqual({ p0: 0.75, p1: 0.25 });
  });
});
