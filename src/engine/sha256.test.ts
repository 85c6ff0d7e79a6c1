import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from './sha256.ts';
import { utf8Encode } from '../report/utf8.ts';

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('sha256', () => {
  // Vectors from FIPS 180-4 examples / NIST CSHS (SHA256ShortMsg) and the classic million-'a' test.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
  ])('hashes %j to the published digest', (message, digest) => {
    expect(hex(sha256(ascii(message)))).toBe(digest);
  });

  it('hashes one million "a" to the published digest', () => {
    expect(hex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('handles every length around the 55/56/64-byte padding boundaries', () => {
    for (let length = 0; length <= 130; length++) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
      expect(hex(sha256(message)), `length ${length}`).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });

  it('agrees with node:crypto on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const bytes = utf8Encode(text);
        expect(hex(sha256(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
      }),
    );
  });
});
