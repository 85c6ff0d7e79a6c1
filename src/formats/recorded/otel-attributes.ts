/**
 * Attribute lists as the OTel encodings write them, folded into one flat map of plain values:
 * OTLP `[{key, value: {stringValue | intValue | ...}}]`, Jaeger `[{key, type, value}]`, plain
 * dicts (console exporter, any-agent), and AgentOps's nested objects (`{gen_ai: {usage: ...}}`).
 */
import { FormatError } from '../format-error.ts';
import { childPath, indexPath } from '../json-path.ts';
import { describeValue, expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';

/**
 * A map for attributes read from a file: no prototype, so a key `__proto__` is an ordinary key and
 * cannot make a lookup of `gen_ai.request.model` (or any other key) find a value it put there.
 */
export function attributeMap(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Deeper than any real attribute value; beyond it a file is refused instead of overflowing the stack. */
export const MAX_VALUE_DEPTH = 64;

function tooDeep(path: string): FormatError {
  return new FormatError(path, `nested more than ${MAX_VALUE_DEPTH} levels deep`);
}

/** One OTLP AnyValue as a plain value; int64 stays text when it does not fit a double exactly. */
export function anyValue(value: unknown, path: string, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw tooDeep(path);
  const v = expectObject(value, path);
  if (Object.hasOwn(v, 'stringValue')) return ownField(v, 'stringValue');
  if (Object.hasOwn(v, 'boolValue')) return ownField(v, 'boolValue');
  if (Object.hasOwn(v, 'intValue')) {
    const i = ownField(v, 'intValue');
    if (typeof i === 'string' && /^-?\d+$/.test(i)) return Number.isSafeInteger(Number(i)) ? Number(i) : i;
    if (typeof i === 'number') return i;
    throw new FormatError(childPath(path, 'intValue'), `expected an integer, ${describeValue(i)}`);
  }
  if (Object.hasOwn(v, 'doubleValue')) {
    const d = ownField(v, 'doubleValue');
    return typeof d === 'string' ? Number(d) : d;
  }
  if (Object.hasOwn(v, 'arrayValue')) {
    const inner = expectObject(ownField(v, 'arrayValue'), childPath(path, 'arrayValue'));
    const values = ownField(inner, 'values');
    if (values === undefined) return [];
    return expectArray(values, childPath(childPath(path, 'arrayValue'), 'values')).map((x, i) => anyValue(x, indexPath(childPath(childPath(path, 'arrayValue'), 'values'), i), depth + 1));
  }
  if (Object.hasOwn(v, 'kvlistValue')) {
    const inner = expectObject(ownField(v, 'kvlistValue'), childPath(path, 'kvlistValue'));
    return foldKeyValues(ownField(inner, 'values'), childPath(childPath(path, 'kvlistValue'), 'values'), depth + 1);
  }
  if (Object.hasOwn(v, 'bytesValue')) return ownField(v, 'bytesValue');
  return null;
}

/** OTLP `[{key, value}]` into a map. */
export function foldKeyValues(list: unknown, path: string, depth = 0): Record<string, unknown> {
  return foldKeyed(list, path, (kv, at) => {
    const value = ownField(kv, 'value');
    return value === undefined || value === null ? null : anyValue(value, childPath(at, 'value'), depth);
  });
}

/** Jaeger tags `[{key, type, value}]` into a map. */
export function foldJaegerTags(list: unknown, path: string): Record<string, unknown> {
  return foldKeyed(list, path, (tag) => ownField(tag, 'value') ?? null);
}

/** A list of objects with a string `key` into a map of `valueOf` each (nothing for an absent list). */
function foldKeyed(list: unknown, path: string, valueOf: (item: JsonObject, at: string) => unknown): Record<string, unknown> {
  const out = attributeMap();
  if (list === undefined || list === null) return out;
  expectArray(list, path).forEach((item, i) => {
    const at = indexPath(path, i);
    const object = expectObject(item, at);
    const key = ownField(object, 'key');
    if (typeof key !== 'string') throw new FormatError(childPath(at, 'key'), `expected a string, ${describeValue(key)}`);
    out[key] = valueOf(object, at);
  });
  return out;
}

/** A plain attribute dict, checked to be an object. */
export function plainAttributes(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) return attributeMap();
  return Object.assign(attributeMap(), expectObject(value, path));
}

/** AgentOps writes dotted keys as nested objects; flatten them back (arrays stay values). */
export function flattenNested(value: unknown, path: string, prefix = '', out: Record<string, unknown> = attributeMap(), depth = 0): Record<string, unknown> {
  if (value === undefined || value === null) return out;
  if (depth > MAX_VALUE_DEPTH) throw tooDeep(path);
  const object: JsonObject = expectObject(value, path);
  for (const [key, inner] of Object.entries(object)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isJsonObject(inner)) flattenNested(inner, childPath(path, key), name, out, depth + 1);
    else out[name] = inner;
  }
  return out;
}
