/**
 * Plain data crossing the sandbox boundary in either direction: primitives (no symbols or
 * bigints, so results stay JSON and structured-clone safe), arrays and plain objects, without
 * cycles. Copies are fresh host objects; sealed copies are also hardened (deep-frozen), so user
 * code can neither mutate what the engine caches nor reach anything but frozen shared intrinsics.
 */

/** Thrown for a value that is not plain data; the message names the path, e.g. `output.items[2]`. */
export class PlainDataError extends Error {
  override name = 'PlainDataError';
}

/** Values produced by sealPlain: frozen plain data that can be handed to user code as they are. */
const sealedValues = new WeakSet<object>();
/** Sealed copies of frozen host values, by identity. */
const sealedCopies = new WeakMap<object, object>();

/** A fresh, unfrozen plain copy of `value`; throws PlainDataError naming `path` otherwise. */
export function copyPlainData(value: unknown, path: string): unknown {
  return copyValue(value, path, new Set());
}

/** A deep-frozen plain copy of `value` (or `value` itself if it is already one). */
export function sealPlain(value: unknown, path: string): unknown {
  if (value === null || typeof value !== 'object') return copyValue(value, path, new Set());
  if (sealedValues.has(value)) return value;
  // A frozen root (the engine deep-freezes case inputs once per case) cannot change its own
  // properties, so one sealed copy serves every step call that reads it.
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const cached = sealedCopies.get(value);
    if (cached !== undefined) return cached;
  }
  const copy = harden(copyValue(value, path, new Set()) as object);
  registerSealed(copy);
  if (frozen) sealedCopies.set(value, copy);
  return copy;
}

/** Mark a sealed tree and every object in it, so nested values pass through without copies too. */
function registerSealed(value: object): void {
  sealedValues.add(value);
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') registerSealed(child);
  }
}

/**
 * The record of named values a step or metric receives: a fresh frozen record whose values are
 * sealed plain data. Values the sandbox sealed before (earlier step outputs) are passed without
 * copying, so the per-call cost is one small record.
 */
export function sealRecord(record: Readonly<Record<string, unknown>>, what: string): Readonly<Record<string, unknown>> {
  const sealed: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    defineData(sealed, key, sealPlain(record[key], `${what} "${key}"`));
  }
  return harden(sealed);
}

function copyValue(value: unknown, path: string, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'function':
      throw new PlainDataError(`${path} is a function; only plain data (strings, numbers, booleans, null, arrays, objects) can be passed`);
    case 'symbol':
    case 'bigint':
      throw new PlainDataError(`${path} is a ${typeof value}; only plain data (strings, numbers, booleans, null, arrays, objects) can be passed`);
    default:
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) throw new PlainDataError(`${path} refers back to itself (a cycle); plain data must be a tree`);
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const length = object.length;
      const copy = new Array<unknown>(length);
      for (let i = 0; i < length; i++) copy[i] = copyValue(object[i], `${path}[${i}]`, ancestors);
      return copy;
    }
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      const kind = Object.prototype.toString.call(object).slice(8, -1);
      const hint = kind === 'Promise' ? ' (runs must be synchronous: no async functions)' : '';
      throw new PlainDataError(`${path} is a ${kind}, not a plain object or array${hint}`);
    }
    const copy: Record<string, unknown> = {};
    const source = object as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      defineData(copy, key, copyValue(source[key], `${path}.${key}`, ancestors));
    }
    return copy;
  } finally {
    ancestors.delete(object);
  }
}

/** Assign an own data property; a key named `__proto__` must not set the prototype instead. */
function defineData(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
