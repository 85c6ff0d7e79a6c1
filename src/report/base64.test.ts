import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Encode } from './base64.ts';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('base64Encode', () => {
  // RFC 4648, section 10 test vectors.
  it.each([
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='],
    ['foobar', 'Zm9vYmFy'],
  ])('encodes %j as %j', (input, expected) => {
    expect(base64Encode(ascii(input))).toBe(expected);
  });

  it('uses + and / for the high indices', () => {
    expect(base64Encode(Uint8Array.of(0xfb, 0xff, 0xbf))).toBe('+/+/');
  });

  it('agrees with Buffer on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(base64Encode(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });
});
