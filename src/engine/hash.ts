/**
 * 53-bit string hash (cyrb53 construction by bryc, public domain): two 32-bit multiply-xor
 * lanes, cross-mixed at the end. Fast, well spread, and identical in every JS engine,
 * which is what addressed noise needs: the same address gives the same draw everywhere.
 */
export function hash53(text: string, seedLo = 0, seedHi = 0): number {
  return SCRATCH.start(seedLo, seedHi).absorb(text).digest();
}

const TWO_POW_32 = 4294967296;

/** cyrb53's final avalanche: cross-mixes the two lanes into 53 bits. */
function mix53(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * hash53(a + '\0' + b + '\0' + c, seedLo, seedHi), bit for bit, without building the joined
 * string: addressed draws hash (step, key, option) on every draw, and the concatenation (and the
 * flattening of the cons-string it makes) cost more than the hashing itself.
 */
export function hash53Address(a: string, b: string, c: string, seedLo: number, seedHi: number): number {
  return SCRATCH.start(seedLo, seedHi).absorb(a).separator().absorb(b).separator().absorb(c).digest();
}

/**
 * cyrb53's two lanes, fed piece by piece. As AddressPrefix (`of`, then `suffix` per option) it
 * hashes a categorical draw's step and key once for all its options: `of(a, b, lo, hi).suffix(c)`
 * is hash53Address(a, b, c, lo, hi), bit for bit.
 */
export class AddressPrefix {
  h1 = 0;
  h2 = 0;

  start(seedLo: number, seedHi: number): this {
    this.h1 = 0xdeadbeef ^ seedLo;
    this.h2 = 0x41c6ce57 ^ seedHi;
    return this;
  }

  absorb(text: string): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  /** The separator U+0000 (h ^ 0 === h). */
  separator(): this {
    this.h1 = Math.imul(this.h1, 2654435761);
    this.h2 = Math.imul(this.h2, 1597334677);
    return this;
  }

  digest(): number {
    return mix53(this.h1, this.h2);
  }

  /** The lanes after `a`, U+0000, `b` under the seed; returns this. */
  of(a: string, b: string, seedLo: number, seedHi: number): this {
    return this.start(seedLo, seedHi).absorb(a).separator().absorb(b);
  }

  /** hash53Address(a, b, c, seedLo, seedHi) for the `a`, `b` and seed of the last `of`; the lanes stay. */
  suffix(c: string): number {
    const { h1, h2 } = this;
    const hash = this.separator().absorb(c).digest();
    this.h1 = h1;
    this.h2 = h2;
    return hash;
  }
}

/** The lanes hash53 and hash53Address use (synchronous: one object serves every call). */
const SCRATCH = new AddressPrefix();

/** The two 32-bit seed lanes hashWithSeed derives from a 53-bit seed. */
export function seedLanes(seed: number): [lo: number, hi: number] {
  return [seed >>> 0, Math.floor(seed / TWO_POW_32) >>> 0];
}

/** Hash text under a 53-bit seed (a world id). */
export function hashWithSeed(text: string, seed: number): number {
  return hash53(text, seed >>> 0, Math.floor(seed / TWO_POW_32) >>> 0);
}

/** Largest double below 1 (1 - 2^-53). */
const BELOW_ONE = 1 - 2 ** -53;

/**
 * Map a 53-bit integer to the open interval (0, 1): never exactly 0 or 1, so logs stay finite.
 * Above 2^52 the half-step no longer fits in a double and h + 0.5 rounds, so the top hash
 * 2^53 - 1 would round up to exactly 1 (a Gumbel of +Infinity); it is clamped below 1.
 */
export function unitFromHash(h: number): number {
  return Math.min((h + 0.5) / 9007199254740992, BELOW_ONE);
}
