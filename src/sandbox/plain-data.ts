/**
 * Plain data crossing the sandbox boundary in either direction: primitives (no symbols or
 * bigints, so results stay JSON and structured-clone safe), arrays and plain objects, without
 * cycles. Copies are fresh host objects; sealed copies are also deep-frozen (as harden would), so
 * user code can neither mutate what the engine caches nor reach anything but frozen shared intrinsics.
 */

import { MAX_DATA_DEPTH } from '../engine/limits.ts';

/** Thrown for a value that is not plain data; the message names the path, e.g. `output.items[2]`. */
export class PlainDataError extends Error {
  override name = 'PlainDataError';
}

/** Returns the object it is given, so a subclass's private field is added to that object. */
class Stamp {
  constructor(target: object) {
    return target;
  }
}

/**
 * The mark of a sealed value, with its depth: frozen plain data this module built (every object
 * inside it sealed too), which can be handed to user code as it is and is never copied again. A
 * private field added to each copy before it is frozen: only this module can add or read it (user
 * code cannot forge it, and no reflection shows it), testing it is a property lookup, and it costs
 * the collector nothing. (A WeakSet entry cost about 1-2 us of ephemeron work per small copy; the
 * scheme before this one, a ring of the last 32 small copies, scanned 32 slots per test and copied
 * again whatever had left the ring.)
 */
class SealedMark extends Stamp {
  #depth: number;

  private constructor(target: object, depth: number) {
    super(target);
    this.#depth = depth;
  }

  static add(value: object, depth: number): void {
    new SealedMark(value, depth);
  }

  /** The depth of a marked value (1 for an object of primitives), or -1 if it is not marked. */
  static depthOf(value: object): number {
    return #depth in value ? (value as SealedMark).#depth : -1;
  }
}

/**
 * Values sealed by sealPlainSlow (and every object inside them), which harden froze before they
 * could be marked, with their depths.
 */
const hardenedDepths = new WeakMap<object, number>();
/** Sealed copies of big frozen host values, by identity. */
const sealedCopies = new WeakMap<object, object>();

/**
 * Copies of more than this many slots (objects, array elements and properties) of deeply frozen
 * host values are remembered by identity (sealedCopies): a WeakMap entry costs about 1-2 us with
 * the garbage collector's ephemeron work, against a tenth of that to copy a small value again.
 */
const REMEMBER_ABOVE_SLOTS = 32;

/** The depth of a sealed value, or -1 if `value` is not one. */
function sealedDepth(value: object): number {
  const depth = SealedMark.depthOf(value);
  return depth >= 0 ? depth : (hardenedDepths.get(value) ?? -1);
}

/** Slots copied by the current copyFast (read right after it returns). */
let copiedSlots = 0;
/** The depth of the value the last copyFast call returned (0 for a primitive). */
let copiedDepth = 0;
/**
 * Whether every object the current copyFast read was frozen: only then can the source never
 * change, and its copy be reused (a top-level freeze alone leaves nested state mutable).
 */
let sourceAllFrozen = true;

/** A fresh, unfrozen plain copy of `value`; throws PlainDataError naming `path` otherwise. */
export function copyPlainData(value: unknown, path: string): unknown {
  try {
    return copyFast(value, false, []);
  } catch (error) {
    if (error === NOT_PLAIN) return copyValue(value, path, new Set());
    throw error;
  }
}

/**
 * A deep-frozen plain copy of `value` (or `value` itself if it is already one).
 *
 * The copy is frozen node by node as it is built instead of `harden`ed afterwards: every object
 * in it is a fresh plain object or array of this realm (or an earlier sealed value), whose
 * prototype, Object.prototype or Array.prototype, lockdown() has already hardened, so freezing
 * each node gives exactly harden's guarantee without harden's second traversal and bookkeeping.
 */
export function sealPlain(value: unknown, path: string): unknown {
  return sealAt(value, path, undefined);
}

/**
 * sealPlain, with the path given as `what` and an optional `key` (the path is then
 * `what "key"`): the path string is built only for a message, not on every call.
 */
function sealAt(value: unknown, what: string, key: string | undefined): unknown {
  if (value === null || typeof value !== 'object') {
    if (isPrimitiveData(value)) return value;
    return value === null ? null : copyValue(value, pathOf(what, key), new Set());
  }
  if (sealedDepth(value) >= 0) return value;
  // A deeply frozen value (the engine deep-freezes case inputs once per case) cannot change, so one
  // sealed copy serves every step call that reads it; only deeply frozen values are remembered.
  if (Object.isFrozen(value)) {
    const cached = sealedCopies.get(value);
    if (cached !== undefined) return cached;
  }
  let copy: object;
  copiedSlots = 0;
  sourceAllFrozen = true;
  try {
    copy = copyFast(value, true, []) as object;
  } catch (error) {
    // Not plain data: the path-tracking copy throws PlainDataError naming where.
    if (error === NOT_PLAIN) return sealPlainSlow(value, pathOf(what, key));
    throw error;
  }
  if (copiedSlots > REMEMBER_ABOVE_SLOTS && sourceAllFrozen) sealedCopies.set(value, copy);
  return copy;
}

function pathOf(what: string, key: string | undefined): string {
  return key === undefined ? what : `${what} "${key}"`;
}

/** The original two-pass seal (copy with paths, then harden); reached only for values copyFast refuses. */
function sealPlainSlow(value: object, path: string): object {
  const copy = harden(copyValue(value, path, new Set()) as object);
  registerHardened(copy);
  return copy;
}

/** Enter a hardened copy and every object in it as sealed, with their depths; returns its depth. */
function registerHardened(value: object): number {
  const known = sealedDepth(value);
  if (known >= 0) return known;
  let below = 0;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') below = Math.max(below, registerHardened(child));
  }
  hardenedDepths.set(value, below + 1);
  return below + 1;
}

/**
 * The record of named values a step or metric receives: a fresh frozen record whose values are
 * sealed plain data. Values the sandbox sealed before (earlier step outputs) are passed without
 * copying, so the per-call cost is one small record. Object.freeze is enough here: the values
 * are sealed already and the record's prototype is the hardened Object.prototype.
 */
export function sealRecord(record: Readonly<Record<string, unknown>>, what: string): Readonly<Record<string, unknown>> {
  // Sealed already (a case's inputs, sealed once per case): frozen plain data to hand over as it is.
  if (sealedDepth(record) >= 0) return record;
  const sealed: Record<string, unknown> = {};
  const keys = Object.keys(record);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    defineData(sealed, key, sealAt(record[key], what, key));
  }
  return Object.freeze(sealed);
}

/**
 * sealRecord for a record its caller gives away: the engine's fresh record of a step's inputs or
 * of the outputs the metric reads, which it never reads or changes again. Its values are sealed
 * in place (most are sealed already: earlier outputs and case inputs) and the record itself is
 * frozen and handed over, instead of a copy of it. The record must be a plain object of own data
 * properties made by the caller (as Replayer's are); one that is frozen or has another prototype
 * is copied by sealRecord.
 */
export function sealGivenRecord(record: Record<string, unknown>, what: string): Readonly<Record<string, unknown>> {
  if (Object.isFrozen(record) || Object.getPrototypeOf(record) !== Object.prototype) return sealRecord(record, what);
  const keys = Object.keys(record);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    const value = record[key];
    if (value === null || isPrimitiveData(value)) continue;
    const sealed = sealAt(value, what, key);
    if (sealed !== value) defineData(record, key, sealed);
  }
  return Object.freeze(record);
}

/** A value plain data holds as it is (null aside): it needs no copy. */
function isPrimitiveData(value: unknown): value is string | number | boolean | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return true;
    default:
      return false;
  }
}

/** Thrown by copyFast for anything that is not plain data; callers redo the copy with paths for the message. */
const NOT_PLAIN = new Error('not plain data');

/**
 * copyValue without building a path string per element (most copies succeed, and a path per
 * element cost as much as the copy). With `seal`, every copied node is frozen, and remembered
 * sealed values inside `value` are reused as they are. Arrays are filled by push:
 * after lockdown froze Array.prototype, V8 stores into the holes of `new Array(n)` on a slow path.
 */
function copyFast(value: unknown, seal: boolean, ancestors: object[]): unknown {
  if (isPrimitiveData(value)) {
    copiedDepth = 0;
    return value;
  }
  if (typeof value !== 'object') throw NOT_PLAIN;
  if (value === null) {
    copiedDepth = 0;
    return null;
  }
  const object = value as object;
  if (seal) {
    const depth = sealedDepth(object);
    if (depth >= 0) {
      // Past the limit with the reused value's own depth: the path-tracking copy names where.
      if (ancestors.length + depth > MAX_DATA_DEPTH) throw NOT_PLAIN;
      copiedDepth = depth;
      return object;
    }
  }
  if (ancestors.length >= MAX_DATA_DEPTH || ancestors.includes(object)) throw NOT_PLAIN;
  if (sourceAllFrozen && !Object.isFrozen(object)) sourceAllFrozen = false;
  ancestors.push(object);
  let copy: object;
  let below = 0;
  if (Array.isArray(object)) {
    const length = object.length;
    copiedSlots += length + 1;
    const items: unknown[] = [];
    for (let i = 0; i < length; i++) {
      items.push(copyFast(object[i], seal, ancestors));
      if (copiedDepth > below) below = copiedDepth;
    }
    copy = items;
  } else {
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
    const record: Record<string, unknown> = {};
    const source = object as Record<string, unknown>;
    const keys = Object.keys(source);
    copiedSlots += keys.length + 1;
    for (let k = 0; k < keys.length; k++) {
      defineData(record, keys[k], copyFast(source[keys[k]], seal, ancestors));
      if (copiedDepth > below) below = copiedDepth;
    }
    copy = record;
  }
  ancestors.pop();
  copiedDepth = below + 1;
  if (seal) {
    SealedMark.add(copy, copiedDepth);
    Object.freeze(copy);
  }
  return copy;
}

function copyValue(value: unknown, path: string, ancestors: Set<object>): unknown {
  if (isPrimitiveData(value)) return value;
  switch (typeof value) {
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
  if (ancestors.size >= MAX_DATA_DEPTH) throw new PlainDataError(`${path} is nested more than ${MAX_DATA_DEPTH} levels deep (at most ${MAX_DATA_DEPTH})`);
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
