/**
 * Small path-aware validators the session schema needs on top of the shared ones in
 * src/formats/validate.ts. Each narrows an untrusted JSON value by runtime checks (never a cast)
 * or throws a FormatError naming the JSON path.
 */
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import {
  describeValue,
  expectArray,
  expectFiniteNumber,
  expectObject,
  expectString,
  ownField,
  type JsonObject,
} from '../formats/validate.ts';

export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new FormatError(path, `expected true or false, ${describeValue(value)}`);
  return value;
}

/** One of a fixed set of strings; the message lists the allowed ones. */
export function expectOneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  const found = allowed.find((option) => option === value);
  if (found === undefined) {
    throw new FormatError(path, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, ${describeValue(value)}`);
  }
  return found;
}

/** A finite number >= 0 (costs, counts). */
export function expectNonNegative(value: unknown, path: string): number {
  const number = expectFiniteNumber(value, path);
  if (number < 0) throw new FormatError(path, `expected a number >= 0, got ${number}`);
  return number;
}

/** An ISO-8601 date-time string, as written by Date.prototype.toISOString. */
export function expectTimestamp(value: unknown, path: string): string {
  const text = expectString(value, path);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) || Number.isNaN(Date.parse(text))) {
    throw new FormatError(path, `expected an ISO date-time such as "2026-01-31T12:00:00.000Z", ${describeValue(text)}`);
  }
  return text;
}

/**
 * Reads field `key` of `object` through `read` when present; returns undefined when absent.
 * A present `null` is an error (the schema never uses null for "absent").
 */
export function optionalField<T>(object: JsonObject, key: string, path: string, read: (value: unknown, path: string) => T): T | undefined {
  const value = ownField(object, key);
  return value === undefined ? undefined : read(value, childPath(path, key));
}

/** Reads the required field `key` of `object` through `read`. */
export function requiredField<T>(object: JsonObject, key: string, path: string, read: (value: unknown, path: string) => T): T {
  return read(ownField(object, key), childPath(path, key));
}

/** An array whose every element passes `read`. */
export function arrayOf<T>(value: unknown, path: string, read: (item: unknown, path: string) => T): T[] {
  return expectArray(value, path).map((item, index) => read(item, indexPath(path, index)));
}

/**
 * An object used as a dictionary, every value passing `read`. Rebuilt with Object.fromEntries,
 * which defines own properties, so a key such as `__proto__` stays data.
 */
export function recordOf<T>(value: unknown, path: string, read: (item: unknown, path: string) => T): Record<string, T> {
  const object = expectObject(value, path);
  return Object.fromEntries(Object.keys(object).map((key) => [key, read(object[key], childPath(path, key))]));
}

/** An object with arbitrary JSON values (case inputs, step outputs): kept as parsed. */
export function expectDataRecord(value: unknown, path: string): Record<string, unknown> {
  return recordOf(value, path, (item) => item);
}

/**
 * A closed interval [lo, hi] with lo <= hi. An unbounded end is infinite, which JSON writes as
 * null, so null reads back as -Infinity for the low end and +Infinity for the high end.
 */
export function expectInterval(value: unknown, path: string): [number, number] {
  const items = expectArray(value, path);
  if (items.length !== 2) throw new FormatError(path, `expected [low, high], got an array of ${items.length}`);
  const low = items[0] === null ? Number.NEGATIVE_INFINITY : expectFiniteNumber(items[0], indexPath(path, 0));
  const high = items[1] === null ? Number.POSITIVE_INFINITY : expectFiniteNumber(items[1], indexPath(path, 1));
  if (low > high) throw new FormatError(path, `expected low <= high, got [${low}, ${high}]`);
  return [low, high];
}

/**
 * A number that JSON may have written as null because it was infinite (JSON.stringify turns
 * Infinity into null): null reads back as +Infinity. Used for "no limit" settings only.
 */
export function expectLimit(value: unknown, path: string): number {
  if (value === null) return Number.POSITIVE_INFINITY;
  if (value === Number.POSITIVE_INFINITY) return value;
  return expectNonNegative(value, path);
}
