import type { Game } from '../types.ts';
import { type Coalition, emptyCoalition, withPlayer } from '../coalition.ts';

/** One minimal repair: a set of fixes that reaches success while none of its proper subsets does. */
export interface Repair {
  /** Indices of the fixed players, increasing. */
  players: number[];
  /** v of the repaired coalition. */
  value: number;
  /** The sum of the fixes' costs (its size when no costs are given). */
  cost: number;
}

export interface RepairSearch {
  /** Minimal repairs, smallest first, then cheapest, then in player order. */
  repairs: Repair[];
  /** Largest set size searched; equal to the number of players when the search is complete. */
  maxSize: number;
  /** Whether every set was searched, so the list is every minimal repair of the game. */
  complete: boolean;
  /** Coalitions the search asked the game for (each at most once). */
  lookups: number;
}

/**
 * Every minimal repair of a failing case (CausalFlow's "minimal counterfactual repairs"): the fix
 * sets S with v(S) >= success while v(T) < success for every proper subset T of S. Sets are
 * visited by increasing size, so when S is reached all its proper subsets have been judged; a set
 * containing a repair already found is minimal for no one and is skipped without a lookup, and no
 * coalition is asked for twice. With `maxSize` below the player count the search is bounded (for
 * sampled analyses, where each lookup may replay steps); on a complete value table pass the
 * player count and the answer is exact. `mayAsk` is asked before each lookup (a budget): once it
 * says no the search ends, and `maxSize` is the largest size searched whole.
 */
export function minimalRepairs(game: Pick<Game, 'players' | 'value'>, success: number, maxSize: number, costs?: readonly number[], mayAsk: (mask: Coalition) => boolean = () => true): RepairSearch {
  const n = game.players.length;
  const limit = Math.max(0, Math.min(n, Math.floor(maxSize)));
  const costOf = (members: readonly number[]) => (costs ? members.reduce((s, i) => s + costs[i], 0) : members.length);
  const empty = emptyCoalition(n);
  let lookups = 1;
  const v0 = game.value(empty);
  // A case already at success needs nothing: the empty set is its one minimal repair.
  if (v0 >= success) return { repairs: [{ players: [], value: v0, cost: 0 }], maxSize: limit, complete: true, lookups };
  const found: Repair[] = [];
  // Found repairs as membership flags, for the superset test.
  const foundFlags: Uint8Array[] = [];
  const flags = new Uint8Array(n);
  const combo: number[] = [];
  const containsFound = () => foundFlags.some((f) => f.every((x, i) => x === 0 || flags[i] === 1));
  // The largest size searched whole: a size cut short by `mayAsk` (a spent budget) does not count.
  let searched = 0;
  let stopped = false;
  for (let size = 1; size <= limit && !stopped; size++) {
    const before = found.length;
    // Combinations of `size` players in lexicographic order.
    const visit = (start: number, mask: Coalition): void => {
      if (stopped) return;
      if (combo.length === size) {
        if (containsFound()) return;
        if (!mayAsk(mask)) {
          stopped = true;
          return;
        }
        lookups++;
        const v = game.value(mask);
        if (v >= success) found.push({ players: [...combo], value: v, cost: costOf(combo) });
        return;
      }
      for (let i = start; i <= n - (size - combo.length); i++) {
        combo.push(i);
        flags[i] = 1;
        visit(i + 1, withPlayer(mask, i));
        flags[i] = 0;
        combo.pop();
      }
    };
    visit(0, empty);
    if (!stopped) searched = size;
    // Repairs of this size cannot contain each other, so they join the superset test only now.
    for (const r of found.slice(before)) {
      const f = new Uint8Array(n);
      for (const i of r.players) f[i] = 1;
      foundFlags.push(f);
    }
  }
  found.sort((a, b) => a.players.length - b.players.length || a.cost - b.cost || comparePlayers(a.players, b.players));
  return { repairs: found, maxSize: searched, complete: searched === n, lookups };
}

/** Player lists in lexicographic order (the last tie-break of the repairs' order). */
export function comparePlayers(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k] - b[k];
  return a.length - b.length;
}
