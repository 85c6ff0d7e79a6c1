import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Encode, utf8Length } from './utf8.ts';

describe('utf8Encode', () => {
  it('encodes one-, two-, three- and four-byte characters', () => {
    expect(Array.from(utf8Encode('A\u00e9\u2028\u{1f600}'))).toEqual([
      0x41, 0xc3, 0xa9, 0xe2, 0x80, 0xa8, 0xf0, 0x9f, 0x98, 0x80,
    ]);
  });

  it('replaces a lone surrogate with U+FFFD like the WHATWG encoder', () => {
    expect(Array.from(utf8Encode('a\ud800b'))).toEqual([0x61, 0xef, 0xbf, 0xbd, 0x62]);
    expect(Array.from(utf8Encode('\udc00'))).toEqual([0xef, 0xbf, 0xbd]);
  });

  it('agrees with TextEncoder on arbitrary strings, including lone surrogates', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 50 }), (a, b) => {
        const text = a + '\ud83d' + b;
        expect(Array.from(utf8Encode(text))).toEqual(Array.from(encoder.encode(text)));
        expect(utf8Length(text)).toBe(encoder.encode(text).length);
      }),
    );
  });
});
