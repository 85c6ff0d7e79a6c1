import type { Game, ShapleyEstimate } from '../types.ts';
import { numberSlots, type Slots } from '../slots.ts';

/** Largest player count for which the full 2^n value table is built. */
export const MAX_EXACT_PLAYERS = 26;

/** n! for small n, exact in doubles up to 18! (< 2^53). */
function factorial(n: number): number {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return f;
}

/**
 * Exact Shapley values (Shapley 1953) from the full value table:
 *   phi_i = sum_{S not containing i} |S|! (n-|S|-1)! / n! * (v(S+i) - v(S)).
 * Marginals are first summed per coalition size s (D_s). When every D_s is an integer and
 * the weighted sum of them fits in 2^53 (0/1 metrics, n <= 18), phi_i is one correctly
 * rounded division of exact integers, so 5/12 comes out as the double nearest 5/12.
 */
export function exactShapleyFromTable(values: ArrayLike<number>, n: number): number[] {
  if (values.length !== 2 ** n) throw new RangeError(`value table has ${values.length} entries, expected 2^${n}`);
  const sizes = popcounts(n);
  const phi: number[] = [];
  const nFact = factorial(n);
  const weights: number[] = [];
  for (let s = 0; s < n; s++) weights.push(factorial(s) * factorial(n - s - 1));
  // Written by index 2^(n-1) times per player: slots (see slots.ts).
  const bySize = numberSlots(n);
  const full = 2 ** n;
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < n; s++) bySize[s] = 0;
    const bit = 2 ** i;
    if (n <= 30) {
      for (let mask = 0; mask < full; mask++) {
        if ((mask & bit) === 0) bySize[sizes[mask]] += values[mask | bit] - values[mask];
      }
    } else {
      for (let mask = 0; mask < full; mask++) {
        if (Math.floor(mask / bit) % 2 === 0) bySize[sizes[mask]] += values[mask + bit] - values[mask];
      }
    }
    phi.push(combine(bySize, weights, nFact, n));
  }
  return phi;
}

function combine(bySize: Slots<number>, weights: number[], nFact: number, n: number): number {
  if (n <= 18 && allIntegers(bySize, n)) {
    let numerator = 0;
    for (let s = 0; s < n; s++) numerator += bySize[s] * weights[s];
    if (Number.isSafeInteger(numerator)) return numerator / nFact;
  }
  // General case: weight of size s is 1 / (n * C(n-1, s)), computed without huge factorials.
  let phi = 0;
  let binom = 1; // C(n-1, s)
  for (let s = 0; s < n; s++) {
    phi += bySize[s] / (n * binom);
    binom = (binom * (n - 1 - s)) / (s + 1);
  }
  return phi;
}

function allIntegers(xs: Slots<number>, n: number): boolean {
  for (let s = 0; s < n; s++) if (!Number.isInteger(xs[s])) return false;
  return true;
}

/** Number of set bits of every mask below 2^n. */
export function popcountTable(n: number): Uint8Array {
  const t = new Uint8Array(2 ** n);
  for (let m = 1; m < t.length; m++) t[m] = t[m >>> 1] + (m & 1);
  return t;
}

/** popcountTable's counts as slots, made once per n up to 16 (this module's own: never handed out). */
const popcountsByN = new Map<number, Slots<number>>();

function popcounts(n: number): Slots<number> {
  let t = popcountsByN.get(n);
  if (t === undefined) {
    t = numberSlots(2 ** n);
    for (let m = 1; m < t.length; m++) t[m] = t[m >>> 1] + (m & 1);
    if (n <= 16) popcountsByN.set(n, t);
  }
  return t;
}

/** Evaluate every coalition of a game and compute exact Shapley values. */
export function exactShapley(game: Game): ShapleyEstimate {
  const n = game.players.length;
  if (n > MAX_EXACT_PLAYERS) throw new RangeError(`exact Shapley needs 2^${n} coalitions; use Monte Carlo above ${MAX_EXACT_PLAYERS} players`);
  const full = 2 ** n;
  const table = numberSlots(full);
  for (let mask = 0; mask < full; mask++) table[mask] = game.value(mask);
  return { values: exactShapleyFromTable(table, n), evaluations: full, queries: full, cost: game.cost(), permutations: 0, stopReason: 'exact' };
}
