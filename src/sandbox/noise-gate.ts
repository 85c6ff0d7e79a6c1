import type { Noise } from '../engine/types.ts';

/**
 * The one noise object a compiled definition ever sees: a hardened facade with exactly the draws
 * of docs/formats.md ("Pipeline definitions"), forwarding to whichever engine Noise belongs to the step call in progress.
 * User code never touches the engine's Noise itself (nor anything reachable from it), and
 * arguments are checked and copied before they reach the engine.
 */
export interface NoiseGate {
  /** The facade handed to user runs. */
  readonly facade: Noise;
  /** Route the facade to `noise` for one step call; returns what to restore afterwards. */
  enter(noise: Noise): Noise | null;
  exit(previous: Noise | null): void;
}

export function makeNoiseGate(): NoiseGate {
  let current: Noise | null = null;

  const active = (): Noise => {
    if (current === null) {
      throw new Error('noise is only available while a step runs (not at the top level of the definition, nor in the metric)');
    }
    return current;
  };

  const facade: Noise = harden({
    uniform: (key?: string) => active().uniform(optionalKey(key)),
    normal: (key?: string) => active().normal(optionalKey(key)),
    gumbel: (key: string, option: string) => active().gumbel(addressPart(key, 'gumbel key'), requiredString(option, 'gumbel option')),
    categorical: (logits: Readonly<Record<string, number>>, key?: string) =>
      active().categorical(copyLogits(logits), optionalKey(key)),
    bernoulli: (p: number, key?: string) => active().bernoulli(requiredNumber(p, 'bernoulli p'), optionalKey(key)),
    int: (n: number, key?: string) => active().int(requiredNumber(n, 'int n'), optionalKey(key)),
    // The engine picks from a copy; the chosen element is the caller's own value.
    choice: <T>(items: readonly T[], key?: string): T => active().choice(copyItems(items), optionalKey(key)),
  });

  return {
    facade,
    enter(noise) {
      const previous = current;
      current = noise;
      return previous;
    },
    exit(previous) {
      current = previous;
    },
  };
}

function optionalKey(key: unknown): string | undefined {
  if (key === undefined) return undefined;
  return addressPart(key, 'noise key');
}

/**
 * A noise key: draws are addressed by step, key and option joined with NUL, so a NUL inside a key
 * could give two different draws one address (the option comes last and may contain anything).
 */
function addressPart(value: unknown, what: string): string {
  const text = requiredString(value, what);
  if (text.includes('\u0000')) throw new TypeError(`${what} must not contain the NUL character (U+0000)`);
  return text;
}

function requiredString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${describeType(value)}`);
  return value;
}

function requiredNumber(value: unknown, what: string): number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number, got ${describeType(value)}`);
  return value;
}

/** Names an assignment to a fresh `{}` would resolve on Object.prototype (a Set lookup is cheaper than `in`). */
const PROTOTYPE_NAMES = new Set<string>([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

function copyLogits(logits: unknown): Record<string, number> {
  if (logits === null || typeof logits !== 'object' || Array.isArray(logits)) {
    throw new TypeError(`categorical logits must be an object { option: logit }, got ${describeType(logits)}`);
  }
  // A plain object rather than Object.create(null): V8 keeps null-prototype objects in dictionary
  // mode, which made the engine's Object.keys and spreads of every logits object several times
  // slower. Names that exist on Object.prototype ("__proto__", "constructor", ...) are defined as
  // own properties, so they never reach (or trip over) the frozen prototype's members.
  const copy: Record<string, number> = {};
  for (const option of Object.keys(logits)) {
    const logit = requiredNumber((logits as Record<string, unknown>)[option], `logit of "${option}"`);
    if (PROTOTYPE_NAMES.has(option)) Object.defineProperty(copy, option, { value: logit, enumerable: true, writable: true, configurable: true });
    else copy[option] = logit;
  }
  return copy;
}

function copyItems<T>(items: unknown): T[] {
  if (!Array.isArray(items)) throw new TypeError(`choice needs an array, got ${describeType(items)}`);
  return Array.prototype.slice.call(items) as T[];
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
