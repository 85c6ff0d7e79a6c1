import { describe, expect, it } from 'vitest';
import { ensureLockdown } from './lockdown.ts';
import { copyPlainData, PlainDataError, sealGivenRecord, sealPlain, sealRecord } from './plain-data.ts';

ensureLockdown();

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.keys(value).every((k) => isDeepFrozen((value as Record<string, unknown>)[k]));
}

describe('sealPlain', () => {
  it('returns a deep-frozen copy, small or big, and leaves the original alone', () => {
    const small = { focused: true, query: 'admin console' };
    const big = { docs: Array.from({ length: 40 }, (_, i) => ({ id: i, tags: ['a', 'b'] })) };
    for (const original of [small, big]) {
      const sealed = sealPlain(original, 'output');
      expect(sealed).not.toBe(original);
      expect(sealed).toEqual(original);
      expect(isDeepFrozen(sealed)).toBe(true);
      expect(Object.isFrozen(original)).toBe(false);
    }
  });

  it('passes a sealed value through, also when it is nested in a new one', () => {
    for (const original of [{ a: 1 }, { docs: Array.from({ length: 40 }, (_, i) => i) }]) {
      const sealed = sealPlain(original, 'output');
      expect(sealPlain(sealed, 'input')).toBe(sealed);
      const outer = sealPlain({ kept: sealed, extra: [1] }, 'output') as { kept: unknown };
      expect(outer.kept).toBe(sealed);
      expect(isDeepFrozen(outer)).toBe(true);
    }
  });

  it('passes a small sealed value through however many values were sealed since', () => {
    const sealed = sealPlain({ focused: true, query: 'q' }, 'output');
    for (let i = 0; i < 1000; i++) sealPlain({ i }, 'output');
    expect(sealPlain(sealed, 'input')).toBe(sealed);
    expect(sealRecord({ rewrite: sealed }, 'input').rewrite).toBe(sealed);
  });

  it('copies a look-alike of a sealed value (a frozen copy made outside this module)', () => {
    const sealed = sealPlain({ items: [{ a: 1 }] }, 'output') as { items: { a: number }[] };
    const lookAlike = Object.freeze({ ...sealed, items: [{ a: 1 }] });
    const copy = sealPlain(lookAlike, 'input') as { items: { a: number }[] };
    expect(copy).not.toBe(lookAlike);
    expect(isDeepFrozen(copy)).toBe(true);
  });

  it('counts the full depth of a deep sealed value wrapped again and again in small new ones', () => {
    let value: unknown = 1;
    for (let i = 0; i < 190; i++) value = [value];
    let sealed = sealPlain(value, 'output');
    // Each step wraps the last output in one new level: the 11th wrap passes 200 levels.
    for (let i = 0; i < 10; i++) sealed = sealPlain({ inner: sealed }, 'output');
    expect(() => sealPlain({ inner: sealed }, 'output')).toThrow('nested more than 200 levels deep');
  });

  it('copies a frozen host value whose nested parts are not frozen', () => {
    const host = Object.freeze({ inner: { text: 'x' } });
    const sealed = sealPlain(host, 'input') as { inner: { text: string } };
    expect(sealed.inner).not.toBe(host.inner);
    expect(isDeepFrozen(sealed)).toBe(true);
  });

  it('keeps a key named __proto__ as an own property, not a prototype', () => {
    const original = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const sealed = sealPlain(original, 'output') as Record<string, unknown>;
    expect(Object.getPrototypeOf(sealed)).toBe(Object.prototype);
    expect(Object.keys(sealed)).toEqual(['__proto__', 'a']);
    expect((sealed as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each([
    [{ ok: [1, () => 2] }, 'output.ok[1] is a function'],
    [new Map(), 'output is a Map, not a plain object or array'],
    [[1, Symbol('s')], 'output[1] is a symbol'],
    [{ n: { m: 10n } }, 'output.n.m is a bigint'],
  ])('names the path of what is not plain data: %#', (value, message) => {
    expect(() => sealPlain(value, 'output')).toThrow(PlainDataError);
    expect(() => sealPlain(value, 'output')).toThrow(message);
  });

  it('names a cycle', () => {
    const o: Record<string, unknown> = { list: [] };
    (o.list as unknown[]).push(o);
    expect(() => sealPlain(o, 'output')).toThrow('output.list[0] refers back to itself');
  });
});

describe('sealRecord and copyPlainData', () => {
  it('sealRecord gives a frozen record of sealed values, naming the key of a bad one', () => {
    const record = sealRecord({ question: 'why?', doc: { text: 'x' } }, 'input');
    expect(Object.isFrozen(record)).toBe(true);
    expect(isDeepFrozen(record)).toBe(true);
    expect(() => sealRecord({ good: 1, bad: () => 1 }, 'input')).toThrow('input "bad" is a function');
  });

  it('sealGivenRecord freezes the record it is given, with its values sealed in place; a frozen or foreign record is copied', () => {
    const earlier = sealPlain({ focused: true }, 'output');
    const host = { text: 'x' };
    const given: Record<string, unknown> = { question: 'why?', rewrite: earlier, doc: host };
    const sealed = sealGivenRecord(given, 'input') as Record<string, unknown>;
    expect(sealed).toBe(given);
    expect(isDeepFrozen(sealed)).toBe(true);
    expect(sealed.rewrite).toBe(earlier);
    expect(sealed.doc).not.toBe(host);
    expect(Object.isFrozen(host)).toBe(false);
    const frozen = Object.freeze({ a: { b: 1 } });
    expect(sealGivenRecord(frozen as Record<string, unknown>, 'input')).not.toBe(frozen);
    const foreign = Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { a: 1 });
    const copy = sealGivenRecord(foreign, 'input');
    expect(copy).not.toBe(foreign);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(() => sealGivenRecord({ good: 1, bad: () => 1 }, 'input')).toThrow('input "bad" is a function');
  });

  it('copyPlainData copies without freezing and names bad paths', () => {
    const copy = copyPlainData({ a: [{ b: 1 }] }, 'cases') as { a: { b: number }[] };
    expect(copy).toEqual({ a: [{ b: 1 }] });
    expect(Object.isFrozen(copy) || Object.isFrozen(copy.a[0])).toBe(false);
    expect(() => copyPlainData([{ id: 'x', inputs: { f: () => 1 } }], 'cases')).toThrow('cases[0].inputs.f is a function');
  });
});
