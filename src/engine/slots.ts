/**
 * Tables the engine writes by index in its hot loops, kept on V8's fast path under SES lockdown.
 *
 * lockdown() freezes Object.prototype, Array.prototype and %TypedArray%.prototype. V8 then stores
 * into an element of any array or typed array whose prototype chain reaches a frozen prototype
 * through a slow path: in Node 20, `a[i] = x` costs about 10 times more on an array and 40 times
 * more on a typed array (`push` is not affected, nor are reads). An array or typed array without a
 * prototype keeps the fast path (bench/README.md, "Speed round 5"). These tables have no methods
 * (no push, fill, slice or iteration: loop over indices) and never leave the module that made
 * them: results and messages carry ordinary arrays and typed arrays.
 */

/** Index-written slots: reads, writes and `length`, nothing else. */
export interface Slots<T> {
  [index: number]: T;
  readonly length: number;
}

/** `length` slots holding `value`, without a prototype. */
export function slots<T>(length: number, value: T): Slots<T> {
  // fill is a builtin (no store by index from here), three times faster than push; but V8 makes
  // `new Array(n)` a dictionary above about 100 000 elements, where push keeps fast elements.
  let out: T[];
  if (length <= FILL_AT_MOST) out = new Array<T>(length).fill(value);
  else {
    out = [];
    for (let i = 0; i < length; i++) out.push(value);
  }
  return Object.setPrototypeOf(out, null) as Slots<T>;
}

const FILL_AT_MOST = 32_768;

/**
 * `length` zeros, for numbers written by index: an array of doubles (a typed array without a
 * prototype would lose its `length`, a getter of %TypedArray%.prototype).
 */
export function numberSlots(length: number): Slots<number> {
  return slots(length, 0);
}
