/** Lists shorter than this go the ordinary way (see withoutListedCases). */
const WORTH_READING_AS_JSON = 1_000;

/** `cases: [`, `"cases": [` or `'cases': [`, not part of a longer name or a member access. */
const CANDIDATE = /(?<![\w$.])(?:cases|"cases"|'cases')\s*:\s*\[/g;

/**
 * A case list written as JSON (as programs that generate definitions write it), found by text
 * and read with JSON.parse: 12 MB of listed cases took acorn 9 s and the sandbox 12 s more to
 * parse, compile and evaluate, JSON.parse 0.4 s. Only a candidate: the
 * caller confirms that the definition with this range replaced by `[]` parses with `[]` as the
 * exported object's `cases` (then the range is that value in the original too: the text before it
 * is the same, and JSON text is a JavaScript expression with the same value). Null when the first
 * long candidate is not a JSON array, or it holds a `__proto__` key (a JSON property, but the
 * object's prototype in JavaScript).
 */
export function jsonCaseList(source: string): { range: { start: number; end: number }; list: unknown[] } | null {
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(source); match !== null; match = CANDIDATE.exec(source)) {
    const start = match.index + match[0].length - 1;
    const end = jsonArrayEnd(source, start);
    if (end < 0) return null;
    if (end - start < WORTH_READING_AS_JSON) continue;
    let list: unknown;
    try {
      list = JSON.parse(source.slice(start, end));
    } catch {
      return null;
    }
    return Array.isArray(list) && !hasProtoKey(list) ? { range: { start, end }, list } : null;
  }
  return null;
}

/** The offset just past the `]` closing the array that opens at `start`, or -1; JSON strings skipped. */
function jsonArrayEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === 0x22) {
      // A JSON string: up to the next unescaped quote.
      for (i++; i < source.length && source.charCodeAt(i) !== 0x22; i++) if (source.charCodeAt(i) === 0x5c) i++;
    } else if (code === 0x5b || code === 0x7b) depth++;
    else if (code === 0x5d || code === 0x7d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function hasProtoKey(root: unknown): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
    for (const child of Object.values(value)) stack.push(child);
  }
  return false;
}
