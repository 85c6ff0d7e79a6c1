/**
 * Path-tracking validators for untrusted JSON. Each takes the parsed value and its path, and
 * either returns it narrowed to the expected type or throws a FormatError naming the path.
 * Nothing is cast: narrowing is done by runtime checks (type predicates), so a validated value is
 * exactly what the type says. Values are returned as parsed rather than copied, so keys such as
 * `__proto__` stay plain data and never touch a prototype.
 */
import { FormatError } from './format-error.ts';
import { childPath } from './json-path.ts';

export type JsonObject = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names a JSON value's kind for messages: "got an array", "got null", "got the string "x"". */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'it is missing';
  if (value === null) return 'got null';
  if (Array.isArray(value)) return 'got an array';
  switch (typeof value) {
    case 'object':
      return 'got an object';
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
      return `got the string ${JSON.stringify(shown)}`;
    }
    case 'number':
      return `got ${value}`;
    case 'boolean':
      return `got ${value}`;
    default:
      return `got a ${typeof value}`;
  }
}

/**
 * The detail for a value of the wrong kind: `missing (expected an object)` when absent, else
 * `expected an object, got an array`.
 */
export function mismatch(expected: string, value: unknown): string {
  return value === undefined ? `missing (expected ${expected})` : `expected ${expected}, ${describeValue(value)}`;
}

/** The own property `key` of a parsed object (never an inherited one such as `toString`). */
export function ownField(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function expectObject(value: unknown, path: string): JsonObject {
  if (!isJsonObject(value)) throw new FormatError(path, mismatch('an object', value));
  return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new FormatError(path, mismatch('an array', value));
  return value;
}

export function expectString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new FormatError(path, mismatch('a string', value));
  return value;
}

export function expectNonEmptyString(value: unknown, path: string): string {
  const text = expectString(value, path);
  if (text === '') throw new FormatError(path, 'expected a non-empty string');
  return text;
}

/** A finite number; JSON can hold `1e999`, which parses to Infinity, so finiteness is checked. */
export function expectFiniteNumber(value: unknown, path: string): number {
  if (typeof value !== 'number') throw new FormatError(path, mismatch('a number', value));
  if (!Number.isFinite(value)) throw new FormatError(path, `expected a finite number, got ${value}`);
  return value;
}

/** A safe integer (|n| <= 2^53 - 1), so it survives the round trip through JSON exactly. */
export function expectInteger(value: unknown, path: string): number {
  const number = expectFiniteNumber(value, path);
  if (!Number.isSafeInteger(number)) throw new FormatError(path, `expected an integer, got ${number}`);
  return number;
}

/**
 * Rejects properties the format does not define, so a misspelt optional field ("observd") is an
 * error rather than silently ignored.
 */
export function rejectUnknownFields(object: JsonObject, known: readonly string[], path: string): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      throw new FormatError(childPath(path, key), `unknown field (expected one of: ${known.join(', ')})`);
    }
  }
}
