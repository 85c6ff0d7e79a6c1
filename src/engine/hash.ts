/**
 * 53-bit string hash (cyrb53 construction by bryc, public domain): two 32-bit multiply-xor
 * lanes, cross-mixed at the end. Fast, well spread, and identical in every JS engine,
 * which is what addressed noise needs: the same address gives the same draw everywhere.
 */
export function hash53(text: string, seedLo = 0, seedHi = 0): number {
  let h1 = 0xdeadbeef ^ seedLo;
  let h2 = 0x41c6ce57 ^ seedHi;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return mix53(h1, h2);
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
  let h1 = 0xdeadbeef ^ seedLo;
  let h2 = 0x41c6ce57 ^ seedHi;
  for (let part = 0; part < 3; part++) {
    const text = part === 0 ? a : part === 1 ? b : c;
    if (part > 0) {
      // The separator is U+0000: h ^ 0 === h.
      h1 = Math.imul(h1, 2654435761);
      h2 = Math.imul(h2, 1597334677);
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
  }
  return mix53(h1, h2);
}

/**
 * hash53Address in two parts, for several options drawn under one (step, key): the lanes after
 * `a`, U+0000, `b` (addressPrefix), then the rest for each option (hash53Suffix), bit for bit
 * hash53Address(a, b, c, seedLo, seedHi). A categorical draw hashes its step and key once instead
 * of once per option.
 */
export class AddressPrefix {
  h1 = 0;
  h2 = 0;

  /** Set to the lanes after `a` + U+0000 + `b` under the seed; returns this. */
  of(a: string, b: string, seedLo: number, seedHi: number): this {
    let h1 = 0xdeadbeef ^ seedLo;
    let h2 = 0x41c6ce57 ^ seedHi;
    for (let i = 0; i < a.length; i++) {
      const ch = a.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1, 2654435761);
    h2 = Math.imul(h2, 1597334677);
    for (let i = 0; i < b.length; i++) {
      const ch = b.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  /** hash53Address(a, b, c, seedLo, seedHi) for the `a`, `b` and seed of the last `of`. */
  suffix(c: string): number {
    let h1 = Math.imul(this.h1, 2654435761);
    let h2 = Math.imul(this.h2, 1597334677);
    for (let i = 0; i < c.length; i++) {
      const ch = c.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    return mix53(h1, h2);
  }
}

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
