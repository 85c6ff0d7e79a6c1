import { makeSandboxDate } from './utc-dates.ts';
/**
 * A fresh SES Compartment for one compiled definition, plus the intrinsics that the evaluated
 * wrapper binds as function parameters. Inside a compartment every free global name is looked up
 * through SES's scope proxy, about 30x slower than a local; binding the common intrinsics as
 * parameters makes `Math.max` in a hot loop a plain local read.
 */
export interface SandboxRealm {
  compartment: Compartment;
  /** Parameter names of the wrapper, in order. */
  localNames: readonly string[];
  /** Their values, the compartment's own (hardened, shared) intrinsics. */
  localValues: readonly unknown[];
}

/** Globals worth binding as locals; names absent from a compartment are skipped. */
const LOCAL_INTRINSICS = [
  'Math', 'JSON', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Map', 'Set',
  'WeakMap', 'WeakSet', 'Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError',
  'URIError', 'AggregateError', 'RegExp', 'Reflect', 'Proxy', 'Promise', 'Date', 'parseInt', 'parseFloat',
  'isNaN', 'isFinite', 'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'harden',
] as const;

/**
 * Globals a definition does not get: the memory of an ArrayBuffer lies outside the JavaScript heap,
 * so a worker's heap limit does not bound it (a definition could take gigabytes of it). Without
 * these names user code has no way to make one (TextEncoder would hand out a Uint8Array).
 */
const OFF_HEAP_NAMES = [
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Float64Array', 'Float32Array', 'Float16Array', 'Int8Array',
  'Int16Array', 'Int32Array', 'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'BigInt64Array',
  'BigUint64Array', 'TextEncoder', 'TextDecoder', 'Atomics', 'WebAssembly',
] as const;

export const OFF_HEAP_MESSAGE =
  'is not available in a pipeline definition: its memory is outside the worker\'s memory limit; use plain arrays and strings';

/** A stand-in for an unavailable constructor that says why, whether called or constructed. */
function unavailable(name: string): () => never {
  return harden(function unavailableGlobal(): never {
    throw new TypeError(`${name} ${OFF_HEAP_MESSAGE}`);
  });
}

export const MATH_RANDOM_MESSAGE =
  'Math.random is not available in a pipeline definition: draw from noise (e.g. noise.uniform("key")) so every replay shares the randomness';

/** Math without `random`: the one piece of ambient randomness, which would break common random numbers. */
function makeSandboxMath(base: Math): Math {
  const math: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(base)) {
    if (key === 'random') continue;
    Object.defineProperty(math, key, Object.getOwnPropertyDescriptor(base, key)!);
  }
  Object.defineProperty(math, 'random', {
    value: function random(): never {
      throw new Error(MATH_RANDOM_MESSAGE);
    },
    enumerable: false,
  });
  return harden(math) as unknown as Math;
}

/** The compartments' Date, made once per realm (compartments share their tamed Date). */
let sandboxDate: DateConstructor | undefined;

/** Must be called after lockdown(). */
export function makeSandboxRealm(): SandboxRealm {
  const sandboxMath = makeSandboxMath(Math);
  // Only our tamed Math (and stand-ins for off-heap memory) is added: no console, timers, fetch or anything else of the host.
  const hidden = Object.fromEntries(OFF_HEAP_NAMES.map((name) => [name, unavailable(name)]));
  sandboxDate ??= makeSandboxDate(
    (new Compartment({ __options__: true } as unknown as ConstructorParameters<typeof Compartment>[0]).globalThis as unknown as { Date: DateConstructor }).Date,
  );
  const compartment = new Compartment({
    globals: { Math: sandboxMath, Date: sandboxDate, ...hidden },
    __options__: true,
  } as unknown as ConstructorParameters<typeof Compartment>[0]);
  // Frozen globals: user code cannot keep state on globalThis, so re-running the definition's top
  // level (PreparedPipeline.instantiate) gives a fully independent instance.
  const global = harden(compartment.globalThis);
  const localNames = LOCAL_INTRINSICS.filter((name) => name in global);
  const localValues = localNames.map((name) => global[name]);
  return { compartment, localNames, localValues };
}
