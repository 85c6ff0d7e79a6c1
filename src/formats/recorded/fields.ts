/**
 * Field readers for recorded-run files: each reads one field of an untrusted object and either
 * returns it (undefined when absent or null) or throws a FormatError naming its JSON path.
 */
import { FormatError } from '../format-error.ts';
import { childPath } from '../json-path.ts';
import { describeValue, expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';

export { expectArray, expectObject, isJsonObject, ownField, childPath, type JsonObject };

export function optString(object: JsonObject, key: string, path: string): string | undefined {
  const value = ownField(object, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new FormatError(childPath(path, key), `expected a string, ${describeValue(value)}`);
  return value;
}

export function requireString(object: JsonObject, key: string, path: string): string {
  const value = optString(object, key, path);
  if (value === undefined) throw new FormatError(childPath(path, key), 'missing (expected a string)');
  return value;
}

/** A string or a number (ids and counts are written both ways), as text. */
export function optStringOrNumber(object: JsonObject, key: string, path: string): string | undefined {
  const value = ownField(object, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FormatError(childPath(path, key), `expected a string or a number, ${describeValue(value)}`);
}

export function optObject(object: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = ownField(object, key);
  if (value === undefined || value === null) return undefined;
  return expectObject(value, childPath(path, key));
}

export function optArray(object: JsonObject, key: string, path: string): unknown[] | undefined {
  const value = ownField(object, key);
  if (value === undefined || value === null) return undefined;
  return expectArray(value, childPath(path, key));
}

/** A token count or similar: a non-negative number, or a string of digits (OTLP intValue). */
export function toCount(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  throw new FormatError(path, `expected a non-negative number, ${describeValue(value)}`);
}

export function optNumber(object: JsonObject, key: string, path: string): number | undefined {
  const value = ownField(object, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new FormatError(childPath(path, key), `expected a number, ${describeValue(value)}`);
}
