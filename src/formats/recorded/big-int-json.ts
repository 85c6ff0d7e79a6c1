import { FormatError } from '../format-error.ts';
import { childPath, indexPath } from '../json-path.ts';
import { parseJson, stripByteOrderMark } from '../parse-json.ts';

/**
 * Parses JSON keeping integers beyond 2^53 as their decimal text, so 64/128-bit ids written as
 * numbers (any-agent) and nanosecond times (Tempo) lose no digits (FORMATS.md trap 1). Only
 * files with a run of 16+ digits pay for the extra scan; syntax errors are reported by parseJson
 * with line and column.
 */
export function parseJsonKeepingBigInts(text: string, where = ''): unknown {
  const body = stripByteOrderMark(text);
  const value = /\d{16}/.test(body) ? parseJson(quoteBigIntegers(body), where) : parseJson(body, where);
  checkNesting(value, where);
  return value;
}

/**
 * Deeper than any real trace's values (prompts, tool arguments, metadata): a value nested past it
 * is refused, since every later recursive reader (structured cloning to a worker, JSON.stringify
 * for the raw view) would overflow the stack on it.
 */
export const MAX_JSON_DEPTH = 256;

/** Throws a FormatError naming the first value nested deeper than MAX_JSON_DEPTH; iterative, one pass. */
export function checkNesting(value: unknown, where = ''): void {
  interface Frame {
    value: unknown;
    depth: number;
    parent: Frame | null;
    key: string | number;
  }
  const stack: Frame[] = [{ value, depth: 0, parent: null, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.value === null || typeof frame.value !== 'object') continue;
    if (frame.depth >= MAX_JSON_DEPTH) {
      let path = '';
      const keys: (string | number)[] = [];
      for (let f: Frame | null = frame; f !== null && f.parent !== null; f = f.parent) keys.push(f.key);
      for (let i = keys.length - 1; i >= 0 && keys.length - i <= 8; i--) path = typeof keys[i] === 'number' ? indexPath(path, keys[i] as number) : childPath(path, keys[i] as string);
      const shown = keys.length > 8 ? `${path}...` : path;
      throw new FormatError(where === '' ? shown : shown.startsWith('[') ? `${where}${shown}` : `${where}.${shown}`, `nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    if (Array.isArray(frame.value)) frame.value.forEach((item, i) => stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: i }));
    else for (const [key, item] of Object.entries(frame.value)) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key });
  }
}

/** Rewrites unsafe integer literals outside strings as JSON strings; everything else is kept. */
export function quoteBigIntegers(text: string): string {
  const out: string[] = [];
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++;
        else break;
      }
      const token = text.slice(start, i);
      if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out.push(text.slice(copied, start), '"', token, '"');
        copied = i;
      }
      continue;
    }
    i++;
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}
