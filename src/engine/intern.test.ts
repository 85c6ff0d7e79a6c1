import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonical.ts';
import { ValueInterner } from './intern.ts';

/** Plain values with the cases canonicalize singles out: -0, NaN, +-Infinity, undefined, key order. */
const plainValue = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.constantFrom(0, -0, NaN, Infinity, -Infinity, undefined, null, true, false, '', '__proto__', 'constructor'),
    fc.double(),
    fc.integer({ min: -3, max: 3 }),
    fc.string({ maxLength: 3 }),
  ),
  value: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'B', '__proto__', 'constructor', '10', '2'), tie('value'), { maxKeys: 4 }),
})).value;

describe('ValueInterner', () => {
  it('gives equal ids exactly when canonical texts are equal', () => {
    fc.assert(
      fc.property(fc.array(plainValue, { minLength: 2, maxLength: 6 }), (values) => {
        const interner = new ValueInterner();
        const ids = values.map((v) => interner.id(v));
        for (let i = 0; i < values.length; i++) {
          for (let j = 0; j < values.length; j++) {
            expect(ids[i] === ids[j]).toBe(canonicalize(values[i]) === canonicalize(values[j]));
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('tells apart what a text-free numbering could confuse', () => {
    const interner = new ValueInterner();
    const distinct = [0, -0, '0', [0], { 0: 0 }, [], {}, [[]], [undefined], [null], { a: undefined }, { a: null }, ['a', 1], { a: 1 }, [1, 'a']];
    const ids = distinct.map((v) => interner.id(v));
    expect(new Set(ids).size).toBe(distinct.length);
    expect(interner.id({ b: 1, a: [2, { c: 3 }] })).toBe(interner.id({ a: [2, { c: 3 }], b: 1 }));
    expect(interner.id(NaN)).toBe(interner.id(Number.NaN));
  });

  it("throws canonicalize's error, path included, for values that are not plain data", () => {
    const interner = new ValueInterner();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const bad of [{ docs: [1, () => 2] }, new Map(), cyclic, [Symbol('s')], { n: 10n }]) {
      let expected = '';
      try {
        canonicalize(bad);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(expected).not.toBe('');
      expect(() => interner.id(bad)).toThrow(expected);
    }
    // A failure leaves the interner usable.
    expect(interner.id({ ok: [1] })).toBe(interner.id({ ok: [1] }));
  });
});
