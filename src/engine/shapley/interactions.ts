import type { Game, PairInteraction, Rng } from '../types.ts';
import { type Coalition, emptyCoalition, withPlayer } from '../coalition.ts';
import { BettingConfidenceSequence } from '../stats/betting-cs.ts';
import { shuffle } from './sampling.ts';

/** Players up to which interactions are exact from the full value table (2^12 = 4096 coalitions). */
export const EXACT_INTERACTION_MAX_PLAYERS = 12;

/** Random orders drawn for sampled interactions above EXACT_INTERACTION_MAX_PLAYERS. */
export const INTERACTION_PERMUTATIONS = 2000;

/** Grid of the pair intervals over [-2 span, 2 span]. */
const INTERACTION_GRID = 400;

/** Weights |S|! (n-|S|-2)! / (n-1)! by |S| = 0..n-2, computed as 1 / ((n-1) C(n-2, s)) without factorials. */
function pairWeights(n: number): number[] {
  const w: number[] = [];
  let binom = 1; // C(n-2, s)
  for (let s = 0; s <= n - 2; s++) {
    w.push(1 / ((n - 1) * binom));
    binom = (binom * (n - 2 - s)) / (s + 1);
  }
  return w;
}

/** One pair i < j (bi, bj its bits) and its terms: each S without i and j, as a bitmask, with its weight. */
interface PairTerms {
  i: number;
  j: number;
  bi: number;
  bj: number;
  terms: Iterable<readonly [number, number]>;
}

/** Every pair of n players with the terms of its index, in the order of the pairs (i, then j). */
function* pairsWithTerms(n: number): Generator<PairTerms> {
  const weights = pairWeights(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const bi = 2 ** i;
      const bj = 2 ** j;
      const terms: [number, number][] = [];
      for (let mask = 0; mask < 2 ** n; mask++) {
        if (mask & bi || mask & bj) continue;
        let size = 0;
        for (let m = mask; m; m &= m - 1) size++;
        terms.push([mask, weights[size]]);
      }
      yield { i, j, bi, bj, terms };
    }
  }
}

/**
 * Shapley interaction index of every pair (Grabisch & Roubens 1999):
 *   I_ij = sum_{S without i, j} |S|! (n-|S|-2)! / (n-1)! (v(S+i+j) - v(S+i) - v(S+j) + v(S)),
 * from the full value table. Positive: the two fixes repair more together than apart
 * (complements, "only together"); negative: either one does the other's work (substitutes).
 */
export function exactInteractionsFromTable(values: ArrayLike<number>, n: number, players: readonly string[]): PairInteraction[] {
  if (values.length !== 2 ** n) throw new RangeError(`value table has ${values.length} entries, expected 2^${n}`);
  const out: PairInteraction[] = [];
  for (const { i, j, bi, bj, terms } of pairsWithTerms(n)) {
    let sum = 0;
    for (const [mask, weight] of terms) sum += weight * (values[mask + bi + bj] - values[mask + bi] - values[mask + bj] + values[mask]);
    out.push({ steps: [players[i], players[j]], value: sum });
  }
  return out;
}

/**
 * Sure bounds on every pair's interaction from the coalitions known so far (`known`: a value, or
 * undefined for a coalition never evaluated), for games of up to EXACT_INTERACTION_MAX_PLAYERS
 * players: what a budget leaves of the exact index. In I_ij's sum each coalition appears in one
 * term with one sign, so an unknown v(T), anywhere in `range`, moves it by at most its weight times
 * the range: the bounds are sharp (some values in the range reach each), they collapse to the exact
 * value when every coalition is known, and they hold whatever the unknown values are. No sampling
 * and no assumption: `ci` is the bounds, `value` their midpoint, `bounded` says so.
 */
export function boundedInteractions(players: readonly string[], range: readonly [number, number], known: (mask: number) => number | undefined): PairInteraction[] {
  const n = players.length;
  if (n > EXACT_INTERACTION_MAX_PLAYERS) throw new RangeError(`bounds from known coalitions need at most ${EXACT_INTERACTION_MAX_PLAYERS} players, got ${n}`);
  if (n < 2) return [];
  const [lo, hi] = range;
  const table = new Float64Array(2 ** n);
  const isKnown = new Uint8Array(2 ** n);
  for (let mask = 0; mask < table.length; mask++) {
    const v = known(mask);
    if (v !== undefined) {
      table[mask] = v;
      isKnown[mask] = 1;
    }
  }
  const out: PairInteraction[] = [];
  for (const { i, j, bi, bj, terms } of pairsWithTerms(n)) {
    let low = 0;
    let high = 0;
    for (const [mask, w] of terms) {
      for (const [coalition, sign] of [[mask + bi + bj, 1], [mask + bi, -1], [mask + bj, -1], [mask, 1]] as const) {
        if (isKnown[coalition]) {
          low += sign * w * table[coalition];
          high += sign * w * table[coalition];
        } else if (sign > 0) {
          low += w * lo;
          high += w * hi;
        } else {
          low -= w * hi;
          high -= w * lo;
        }
      }
    }
    out.push({ steps: [players[i], players[j]], value: (low + high) / 2, ci: [low, high], bounded: true });
  }
  return out;
}

/**
 * Sampled pairwise interactions: in a uniform random order, given that i and j stand next to each
 * other, the players before them form S with probability |S|! (n-|S|-2)! / (n-1)! (merge the pair
 * into one player of an (n-1)-player game), so the mean of v(S+i+j) - v(S+i) - v(S+j) + v(S) over
 * the orders where they are adjacent is unbiased for I_ij. Each order gives n - 1 adjacent pairs at
 * one extra value each (v(S+j); the others lie on the order's path). `samples` says how many orders
 * had the pair adjacent (about 2 T / n).
 *
 * Intervals: the orders are i.i.d., so the terms of one pair, taken at the orders where it is
 * adjacent, are i.i.d. with mean I_ij and lie in [-2 span, 2 span]; each pair gets a betting
 * confidence sequence on them (Waudby-Smith & Ramdas 2023, as for the Shapley values) at
 * delta / (number of pairs), so all intervals hold together with probability >= 1 - delta.
 */
export function sampledInteractions(game: Game, rng: Rng, permutations: number, delta = 0.05): PairInteraction[] {
  if (!(delta > 0 && delta < 1)) throw new RangeError(`delta must be in (0, 1), got ${delta}`);
  const n = game.players.length;
  const span = game.range[1] - game.range[0];
  const sums = new Float64Array(n * n);
  const counts = new Uint32Array(n * n);
  const alpha = delta / ((n * (n - 1)) / 2);
  // A coarse grid (one step is span / 100): at 64 players there are 2016 sequences, and pair
  // intervals from about 2T/n samples each are far wider than the step anyway.
  const sequences = new Map<number, BettingConfidenceSequence>();
  const sequence = (key: number) => {
    let s = sequences.get(key);
    if (s === undefined) sequences.set(key, (s = new BettingConfidenceSequence(alpha, INTERACTION_GRID)));
    return s;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  const empty = emptyCoalition(n);
  const vEmpty = game.value(empty);
  for (let t = 0; t < permutations; t++) {
    shuffle(order, rng);
    let before: Coalition = empty;
    let vBefore = vEmpty;
    let mask = withPlayer(empty, order[0]);
    let vWithA = game.value(mask);
    for (let k = 0; k + 1 < n; k++) {
      const a = order[k];
      const b = order[k + 1];
      const both = withPlayer(mask, b);
      const vBoth = game.value(both);
      const vWithB = game.value(withPlayer(before, b));
      const [i, j] = a < b ? [a, b] : [b, a];
      const term = vBoth - vWithA - vWithB + vBefore;
      sums[i * n + j] += term;
      counts[i * n + j]++;
      sequence(i * n + j).push(Math.min(Math.max((term + 2 * span) / (4 * span), 0), 1));
      before = mask;
      vBefore = vWithA;
      mask = both;
      vWithA = vBoth;
    }
  }
  const out: PairInteraction[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const c = counts[i * n + j];
      const s = sequences.get(i * n + j);
      const ci: [number, number] = s === undefined ? [-2 * span, 2 * span] : [-2 * span + 4 * span * s.lower, -2 * span + 4 * span * s.upper];
      out.push({ steps: [game.players[i], game.players[j]], value: c ? sums[i * n + j] / c : 0, samples: c, ci });
    }
  }
  return out;
}

/** Interactions of every pair: exact from the value table up to EXACT_INTERACTION_MAX_PLAYERS players, sampled above. */
export function pairInteractions(game: Game, rng: Rng, delta = 0.05): PairInteraction[] {
  const n = game.players.length;
  if (n < 2) return [];
  if (n <= EXACT_INTERACTION_MAX_PLAYERS) {
    const table = new Float64Array(2 ** n);
    for (let mask = 0; mask < table.length; mask++) table[mask] = game.value(mask);
    return exactInteractionsFromTable(table, n, game.players);
  }
  return sampledInteractions(game, rng, INTERACTION_PERMUTATIONS, delta);
}
