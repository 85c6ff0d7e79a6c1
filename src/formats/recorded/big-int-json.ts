import { parseJson, stripByteOrderMark } from '../parse-json.ts';

/**
 * Parses JSON keeping integers beyond 2^53 as their decimal text, so 64/128-bit ids written as
 * numbers (any-agent) and nanosecond times (Tempo) lose no digits (FORMATS.md trap 1). Only
 * files with a run of 16+ digits pay for the extra scan; syntax errors are reported by parseJson
 * with line and column.
 */
export function parseJsonKeepingBigInts(text: string, where = ''): unknown {
  const body = stripByteOrderMark(text);
  if (!/\d{16}/.test(body)) return parseJson(body, where);
  return parseJson(quoteBigIntegers(body), where);
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
