/**
 * Canonical text of a step's value: JSON with sorted object keys, plus tokens for the values
 * JSON cannot hold (undefined, NaN, +-Infinity, -0). Two values get the same text exactly when
 * they are the same plain data, which is what the step cache and last-touch comparisons need.
 * Anything that is not plain data (functions, symbols, bigints, class instances, cycles) is an
 * error whose message gives the path, e.g. `.docs[2].score`.
 */
export function canonicalize(value: unknown): string {
  return write(value, '', new Set());
}

function write(value: unknown, path: string, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'undefined';
    case 'number':
      if (Number.isFinite(value)) return Object.is(value, -0) ? '-0' : String(value);
      return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
    case 'object': {
      if (value === null) return 'null';
      if (seen.has(value)) throw new TypeError(`value at ${path || '(top)'} refers to itself; steps must return plain data`);
      seen.add(value);
      let out: string;
      if (Array.isArray(value)) {
        const parts: string[] = [];
        for (let i = 0; i < value.length; i++) parts.push(write(value[i], `${path}[${i}]`, seen));
        out = `[${parts.join(',')}]`;
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`value at ${path || '(top)'} is a ${proto?.constructor?.name ?? 'non-plain'} object; steps must return plain data`);
        }
        const keys = Object.keys(value).sort();
        const parts: string[] = [];
        for (const k of keys) parts.push(`${JSON.stringify(k)}:${write((value as Record<string, unknown>)[k], `${path}.${k}`, seen)}`);
        out = `{${parts.join(',')}}`;
      }
      seen.delete(value);
      return out;
    }
    default:
      throw new TypeError(`value at ${path || '(top)'} is a ${typeof value}; steps must return plain data`);
  }
}

/** Freeze a plain value deeply, so a cached output shared by many replays cannot be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}
