import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressPrefix, hash53, hash53Address, hashWithSeed, seedLanes } from './hash.ts';
import { drawHash } from './world.ts';

describe('hash53Address', () => {
  it('equals hash53 of the three parts joined by U+0000, for any parts and seed', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (a, b, c, seed) => {
        const [lo, hi] = seedLanes(seed);
        expect(hash53Address(a, b, c, lo, hi)).toBe(hash53(`${a}\u0000${b}\u0000${c}`, lo, hi));
        expect(drawHash(seed, a, b, c)).toBe(hashWithSeed(`${a}\u0000${b}\u0000${c}`, seed));
      }),
      { numRuns: 300 },
    );
  });

  it('equals AddressPrefix.of(a, b).suffix(c), for any parts and seed', () => {
    const prefix = new AddressPrefix();
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (a, b, options, seed) => {
        const [lo, hi] = seedLanes(seed);
        prefix.of(a, b, lo, hi);
        for (const c of options) expect(prefix.suffix(c)).toBe(hash53Address(a, b, c, lo, hi));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the addresses of the shipped draws (a fixed value)', () => {
    expect(drawHash(5000, 'rewrite', 'query', 'focused')).toBe(hashWithSeed('rewrite\u0000query\u0000focused', 5000));
    expect(hash53Address('', '', '', 0, 0)).toBe(hash53('\u0000\u0000'));
  });
});
