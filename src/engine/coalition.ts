/**
 * A coalition as a bitmask, bit i set when players[i] is in it: a number up to
 * NUMBER_MASK_MAX_PLAYERS players (a double holds integers exactly up to 2^53), a bigint above.
 * One game uses one kind throughout (the helpers below pick it from n), so memo keys never mix
 * 0 and 0n. Hot loops that build masks branch once on the kind and keep plain number arithmetic
 * for small games, so games of up to 52 players pay nothing for the wider kind.
 */
export type Coalition = number | bigint;

/** Largest number of players whose coalitions are numbers. */
export const NUMBER_MASK_MAX_PLAYERS = 52;

/** Whether coalitions of n players are bigints. */
export function usesBigMasks(n: number): boolean {
  return n > NUMBER_MASK_MAX_PLAYERS;
}

/** The empty coalition of n players. */
export function emptyCoalition(n: number): Coalition {
  return usesBigMasks(n) ? 0n : 0;
}

/** The grand coalition of n players. */
export function fullCoalition(n: number): Coalition {
  return usesBigMasks(n) ? (1n << BigInt(n)) - 1n : 2 ** n - 1;
}

/** The coalition of player i alone, among n players. */
export function singletonCoalition(n: number, i: number): Coalition {
  return usesBigMasks(n) ? 1n << BigInt(i) : 2 ** i;
}

/** `mask` with player i added (i must not be in it). */
export function withPlayer(mask: Coalition, i: number): Coalition {
  return typeof mask === 'bigint' ? mask | (1n << BigInt(i)) : mask + 2 ** i;
}

/** The players of n not in `mask`. */
export function complementOf(mask: Coalition, n: number): Coalition {
  return typeof mask === 'bigint' ? ((1n << BigInt(n)) - 1n) ^ mask : 2 ** n - 1 - mask;
}

/**
 * Whether player i is in `mask`. Number masks may exceed 32 bits, so they take arithmetic, except
 * below 2^31 where a shift gives the same answer several times faster (result tables read every
 * bit of every coalition; `>>` reads its count mod 32, hence the check on i).
 */
export function hasPlayer(mask: Coalition, i: number): boolean {
  if (typeof mask === 'bigint') return ((mask >> BigInt(i)) & 1n) === 1n;
  if (mask < 0x80000000) return i < 31 && ((mask >> i) & 1) === 1;
  return Math.floor(mask / 2 ** i) % 2 === 1;
}

/** Whether `mask` is empty, of either kind. */
export function isEmptyCoalition(mask: Coalition): boolean {
  return mask === 0 || mask === 0n;
}

/** The players of `mask`, as a 0/1 flag per player. */
export function membersOf(mask: Coalition, n: number): Uint8Array {
  const out = new Uint8Array(n);
  if (typeof mask === 'bigint') {
    let rest = mask;
    for (let i = 0; i < n && rest !== 0n; i++, rest >>= 1n) out[i] = Number(rest & 1n);
  } else {
    let rest = mask;
    for (let i = 0; i < n && rest > 0; i++) {
      out[i] = rest % 2;
      rest = (rest - out[i]) / 2;
    }
  }
  return out;
}

/** Increasing order of masks of one kind. */
export function compareCoalitions(a: Coalition, b: Coalition): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
