/**
 * A result's coalition table packed as two typed arrays (bitmask over the result's players, and
 * v(S)), for the copies that cross a thread or go to IndexedDB. As `{ fixed: string[]; value }`
 * objects, the 256 coalitions of an 8-step case are about 94 % of the result's structured-clone
 * size and time; as typed arrays they are a flat copy (bench/README.md, "Page speed").
 * Unpacking gives back exactly the same table (same order, names, and value bits).
 */
import type { CaseResult } from './types.ts';

export interface PackedCoalitions {
  /** Bit i set: the coalition fixes players[i]. */
  masks: Uint32Array;
  values: Float64Array;
}

/** The largest table packed: masks are 32-bit, and tables are listed for at most 10 players anyway. */
const MAX_PACKED_PLAYERS = 31;

/**
 * Packs `coalitions` when unpacking gives them back exactly: players unique, each `fixed` list
 * names players in their order with none twice, each value a number. Otherwise null (keep them as they are).
 */
export function packCoalitions(players: readonly string[], coalitions: readonly { fixed: readonly string[]; value: number }[]): PackedCoalitions | null {
  if (players.length > MAX_PACKED_PLAYERS) return null;
  const indexOf = new Map<string, number>();
  players.forEach((name, i) => indexOf.set(name, i));
  if (indexOf.size !== players.length) return null;
  const masks = new Uint32Array(coalitions.length);
  const values = new Float64Array(coalitions.length);
  for (let k = 0; k < coalitions.length; k++) {
    const { fixed, value } = coalitions[k];
    if (typeof value !== 'number' || !Array.isArray(fixed)) return null;
    let mask = 0;
    let last = -1;
    for (const name of fixed) {
      const i = indexOf.get(name);
      if (i === undefined || i <= last) return null;
      mask |= 1 << i;
      last = i;
    }
    masks[k] = mask >>> 0;
    values[k] = value;
  }
  return { masks, values };
}

/** The coalition table back as objects (step names from `players`, in their order). */
export function unpackCoalitions(players: readonly string[], packed: PackedCoalitions): { fixed: string[]; value: number }[] {
  const out = new Array<{ fixed: string[]; value: number }>();
  for (let k = 0; k < packed.masks.length; k++) {
    const mask = packed.masks[k];
    const fixed: string[] = [];
    for (let i = 0; i < players.length; i++) if ((mask >>> i) & 1) fixed.push(players[i]);
    out.push({ fixed, value: packed.values[k] });
  }
  return out;
}

/** Results whose table is still packed (made by joinCoalitions and not read yet), with their table. */
const packedOf = new WeakMap<object, PackedCoalitions>();

/**
 * A result without its coalition table, and the table packed (null when it has none or cannot be
 * packed). The key stays, set to undefined, so joining puts the table back in its place in the
 * key order (a session file or report prints the same text). A result from joinCoalitions whose
 * table nobody has read is split without unpacking it.
 */
export function splitCoalitions(result: CaseResult): { result: CaseResult; coalitions: PackedCoalitions | null } {
  const still = packedOf.get(result);
  if (still !== undefined && isPacked(result)) return { result: withoutTable(result), coalitions: still };
  const table = result.coalitions;
  if (table === undefined) return { result, coalitions: null };
  const packed = packCoalitions(result.players, table);
  if (packed === null) return { result, coalitions: null };
  return { result: withoutTable(result), coalitions: packed };
}

/**
 * Puts a packed table back into its result (the inverse of splitCoalitions). The table is
 * unpacked when first read: most results reach the page's state and IndexedDB without anyone
 * reading it (only an open case's view does), and unpacking 256 coalitions of every 8-step case
 * as it arrives was a visible share of the page's main thread. Reading it (a property read,
 * spread, JSON or structured clone) gives the same plain array every time.
 */
export function joinCoalitions(result: CaseResult, coalitions: PackedCoalitions | null | undefined): CaseResult {
  if (!coalitions || result.error !== undefined || !result.failed) return result;
  // The getter is added while copying, not put over an existing key (as attachPackedTable does):
  // that puts the object in V8's dictionary mode, which slows every later read of it, and the page
  // reads each result many times (batch, list, storage).
  const joined = copyPlacingTable(result, (copy) => defineLazyTable(copy, coalitions));
  packedOf.set(joined, coalitions);
  return joined;
}

/**
 * joinCoalitions on a result its caller has just built (not shared yet), without copying it:
 * `coalitions` becomes the lazily unpacked table, in its place in the key order if the key is there.
 */
export function attachPackedTable<R extends CaseResult>(fresh: R, coalitions: PackedCoalitions): R {
  defineLazyTable(fresh, coalitions);
  packedOf.set(fresh, coalitions);
  return fresh;
}

/** `coalitions` as a getter that unpacks the table on first read and keeps it. */
function defineLazyTable(result: CaseResult, coalitions: PackedCoalitions): void {
  let table: { fixed: string[]; value: number }[] | undefined;
  Object.defineProperty(result, 'coalitions', {
    enumerable: true,
    configurable: true,
    get: () => (table ??= unpackCoalitions(result.players, coalitions)),
  });
}

/**
 * The packed table of a result made by joinCoalitions or attachPackedTable (whether or not its
 * table was read since), else undefined: readers that only need masks and values (the repairs
 * read off a table) take it instead of unpacking 2^n objects.
 */
export function packedTableOf(result: CaseResult): PackedCoalitions | undefined {
  const packed = packedOf.get(result);
  return packed !== undefined && isPacked(result) ? packed : undefined;
}

/** Whether the result's table is still the lazy one joinCoalitions put there. */
function isPacked(result: CaseResult): boolean {
  return typeof Object.getOwnPropertyDescriptor(result, 'coalitions')?.get === 'function';
}

/** A copy of `result` whose `coalitions` key is kept, set to undefined. */
function withoutTable(result: CaseResult): CaseResult {
  return copyPlacingTable(result, (copy) => ((copy as { coalitions?: unknown }).coalitions = undefined));
}

/**
 * A copy of `result`, key by key, with `coalitions` set by `place` in its place in the key order
 * (last if it had none), reading no other accessor: the table may be a getter not read yet.
 */
function copyPlacingTable(result: CaseResult, place: (copy: CaseResult) => void): CaseResult {
  const copy: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(result)) {
    if (key === 'coalitions') {
      place(copy as unknown as CaseResult);
      placed = true;
    } else copy[key] = (result as unknown as Record<string, unknown>)[key];
  }
  if (!placed) place(copy as unknown as CaseResult);
  return copy as unknown as CaseResult;
}
