import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ggufExpectedSize, ggufSizeProblem } from './gguf-check.ts';

// The tiny model shipped with the page (public/models/SOURCES.md).
const whole = new Uint8Array(readFileSync(new URL('../../public/models/stories260K.gguf', import.meta.url)));

describe('a GGUF file checked against its own header', () => {
  it('finds the shipped model whole, to the byte', () => {
    expect(ggufExpectedSize(whole, whole.length)).toBe(whole.length);
    expect(ggufSizeProblem(whole.subarray(0, 64 * 1024), whole.length, 'stories260K.gguf')).toBeNull();
  });

  it('names a file cut in its tensor data, or in its header', () => {
    expect(ggufSizeProblem(whole.subarray(0, 300_000), 300_000, 'cut.gguf')).toBe(`cut.gguf is truncated: its header describes ${whole.length} bytes, the file has 300000 (download or copy it again)`);
    expect(ggufSizeProblem(whole.subarray(0, 1000), 1000, 'cut.gguf')).toBe('cut.gguf is not a usable GGUF model file: its header is cut off at byte 1000');
    expect(ggufSizeProblem(new TextEncoder().encode('GGML not a model at all'), 23, 'x.gguf')).toMatch(/does not start with "GGUF"/);
  });

  it('says nothing when the header is longer than the bytes read', () => {
    expect(ggufSizeProblem(whole.subarray(0, 100), whole.length, 'big.gguf')).toBeNull();
  });
});
