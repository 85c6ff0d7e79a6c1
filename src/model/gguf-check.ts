/**
 * A GGUF file's own account of its size: the header (metadata and tensor list) says where the
 * tensor data starts and how long each tensor is, so a truncated download or copy is found before
 * any engine loads it (wllama loads a truncated file and fails, or answers, later). Pure: the page
 * checks the first megabytes of a picked file, the command those of --model-file.
 */

/** Bytes per block and elements per block of the ggml tensor types (ggml.h), for the common ones. */
const TYPE_SIZES: Record<number, [bytes: number, elements: number]> = {
  0: [4, 1], 1: [2, 1], 2: [18, 32], 3: [20, 32], 6: [22, 32], 7: [24, 32], 8: [34, 32], 9: [36, 32],
  10: [84, 256], 11: [110, 256], 12: [144, 256], 13: [176, 256], 14: [210, 256], 15: [292, 256],
  24: [1, 1], 25: [2, 1], 26: [4, 1], 27: [8, 1], 28: [8, 1], 30: [2, 1],
};

/** Value types of GGUF metadata (gguf.h): their sizes, 0 for strings and arrays. */
const VALUE_SIZES = [1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8];
const STRING = 8;
const ARRAY = 9;

export class GgufHeaderTooLong extends Error {}

/**
 * The bytes the file must hold (end of its last tensor), from its first bytes (`head`); throws
 * naming what is wrong when the header itself is cut or malformed, and GgufHeaderTooLong when the
 * header goes past `head` (then nothing can be said).
 */
export function ggufExpectedSize(head: Uint8Array, fileSize: number): number {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let at = 0;
  const need = (n: number) => {
    if (at + n > head.byteLength) {
      if (head.byteLength >= fileSize) throw new RangeError(`its header is cut off at byte ${fileSize}`);
      throw new GgufHeaderTooLong();
    }
  };
  const u32 = () => (need(4), (at += 4), view.getUint32(at - 4, true));
  const u64 = () => {
    need(8);
    at += 8;
    const value = view.getBigUint64(at - 8, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`a count in its header is ${value}, too large`);
    return Number(value);
  };
  const text = () => {
    const length = u64();
    need(length);
    const s = new TextDecoder().decode(head.subarray(at, at + length));
    at += length;
    return s;
  };
  const skipValue = (type: number): number | null => {
    if (type === STRING) {
      text();
      return null;
    }
    if (type === ARRAY) {
      const inner = u32();
      const count = u64();
      if (inner === STRING || inner === ARRAY) for (let k = 0; k < count; k++) skipValue(inner);
      else {
        const size = VALUE_SIZES[inner];
        if (size === undefined) throw new RangeError(`its metadata has an array of unknown type ${inner}`);
        need(size * count);
        at += size * count;
      }
      return null;
    }
    const size = VALUE_SIZES[type];
    if (size === undefined) throw new RangeError(`its metadata has a value of unknown type ${type}`);
    need(size);
    const value = size === 4 ? view.getUint32(at, true) : null;
    at += size;
    return value;
  };
  if (u32() !== 0x46554747) throw new RangeError('it does not start with "GGUF"');
  const version = u32();
  if (version < 2 || version > 3) throw new RangeError(`it is GGUF version ${version} (versions 2 and 3 are read)`);
  const tensors = u64();
  const kvs = u64();
  let alignment = 32;
  for (let k = 0; k < kvs; k++) {
    const key = text();
    const value = skipValue(u32());
    if (key === 'general.alignment' && value !== null && value > 0) alignment = value;
  }
  let end = 0;
  for (let k = 0; k < tensors; k++) {
    text();
    const dims = u32();
    let elements = 1;
    for (let d = 0; d < dims; d++) elements *= u64();
    const type = u32();
    const offset = u64();
    const size = TYPE_SIZES[type];
    end = Math.max(end, offset + (size ? Math.ceil(elements / size[1]) * size[0] : 0));
  }
  const dataStart = Math.ceil(at / alignment) * alignment;
  return dataStart + end;
}

/** Why a GGUF file cannot be whole (named `name`), or null when its size is what its header says. */
export function ggufSizeProblem(head: Uint8Array, fileSize: number, name: string): string | null {
  try {
    const expected = ggufExpectedSize(head, fileSize);
    return fileSize < expected ? `${name} is truncated: its header describes ${expected} bytes, the file has ${fileSize} (download or copy it again)` : null;
  } catch (error) {
    if (error instanceof GgufHeaderTooLong) return null;
    return `${name} is not a usable GGUF model file: ${error instanceof Error ? error.message : String(error)}`;
  }
}
