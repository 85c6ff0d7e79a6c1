/**
 * Attribute lists as the OTel encodings write them, folded into one flat map of plain values:
 * OTLP `[{key, value: {stringValue | intValue | ...}}]`, Jaeger `[{key, type, value}]`, plain
 * dicts (console exporter, any-agent), and AgentOps's nested objects (`{gen_ai: {usage: ...}}`).
 */
import { FormatError } from '../format-error.ts';
import { childPath, indexPath } from '../json-path.ts';
import { describeValue, expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';

/** One OTLP AnyValue as a plain value; int64 stays text when it does not fit a double exactly. */
export function anyValue(value: unknown, path: string): unknown {
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
    return expectArray(values, childPath(path, 'arrayValue.values')).map((x, i) => anyValue(x, indexPath(childPath(path, 'arrayValue.values'), i)));
  }
  if (Object.hasOwn(v, 'kvlistValue')) {
    const inner = expectObject(ownField(v, 'kvlistValue'), childPath(path, 'kvlistValue'));
    return foldKeyValues(ownField(inner, 'values'), childPath(path, 'kvlistValue.values'));
  }
  if (Object.hasOwn(v, 'bytesValue')) return ownField(v, 'bytesValue');
  return null;
}

/** OTLP `[{key, value}]` into a map. */
export function foldKeyValues(list: unknown, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (list === undefined || list === null) return out;
  expectArray(list, path).forEach((item, i) => {
    const at = indexPath(path, i);
    const kv = expectObject(item, at);
    const key = ownField(kv, 'key');
    if (typeof key !== 'string') throw new FormatError(childPath(at, 'key'), `expected a string, ${describeValue(key)}`);
    const value = ownField(kv, 'value');
    out[key] = value === undefined || value === null ? null : anyValue(value, childPath(at, 'value'));
  });
  return out;
}

/** Jaeger tags `[{key, type, value}]` into a map. */
export function foldJaegerTags(list: unknown, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (list === undefined || list === null) return out;
  expectArray(list, path).forEach((item, i) => {
    const at = indexPath(path, i);
    const tag = expectObject(item, at);
    const key = ownField(tag, 'key');
    if (typeof key !== 'string') throw new FormatError(childPath(at, 'key'), `expected a string, ${describeValue(key)}`);
    out[key] = ownField(tag, 'value') ?? null;
  });
  return out;
}

/** A plain attribute dict, checked to be an object. */
export function plainAttributes(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  return { ...expectObject(value, path) };
}

/** AgentOps writes dotted keys as nested objects; flatten them back (arrays stay values). */
export function flattenNested(value: unknown, path: string, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value === undefined || value === null) return out;
  const object: JsonObject = expectObject(value, path);
  for (const [key, inner] of Object.entries(object)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isJsonObject(inner)) flattenNested(inner, childPath(path, key), name, out);
    else out[name] = inner;
  }
  return out;
}
