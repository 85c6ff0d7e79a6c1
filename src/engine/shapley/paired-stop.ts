import { PairedBettingTest } from '../stats/paired-betting-test.ts';
import { tiedWithin } from './tied.ts';

/** The sequential sign tests of phi_i - phi_j for every pair i < j. */
export type PairTests = { i: number; j: number; test: PairedBettingTest }[];

/** +1 when phi_a > phi_b has been shown, -1 when phi_a < phi_b, 0 while undecided. */
function order(pairs: PairTests, n: number, a: number, b: number): number {
  // Pairs are listed for i < j in row order: index of (i, j) = i (2n - i - 1) / 2 + (j - i - 1).
  const [i, j, flip] = a < b ? [a, b, 1] : [b, a, -1];
  return flip * pairs[(i * (2 * n - i - 1)) / 2 + (j - i - 1)].test.sign;
}

/** A tie check for a pair of players, when a tie tolerance is set. */
export type TieCheck = ((a: number, b: number) => boolean) | null;

/** The tie check on the players' simultaneous intervals, or null when `tolerance` is 0 or absent. */
export function tieCheck(ci: readonly (readonly [number, number])[], tolerance: number | undefined): TieCheck {
  return tolerance !== undefined && tolerance > 0 ? (a, b) => tiedWithin(ci[a], ci[b], tolerance) : null;
}

/** top1 on paired differences: the leading estimate is shown above (or tied with) every other player. */
export function pairedTopSeparated(values: readonly number[], pairs: PairTests, tied: TieCheck = null): boolean {
  const n = values.length;
  let top = 0;
  for (let i = 1; i < n; i++) if (values[i] > values[top]) top = i;
  for (let i = 0; i < n; i++) if (i !== top && order(pairs, n, top, i) !== 1 && !tied?.(top, i)) return false;
  return true;
}

/** ranking on paired differences: sorted by estimate, each player is shown above the next. */
export function pairedRankingSeparated(values: readonly number[], pairs: PairTests, tied: TieCheck = null): boolean {
  const n = values.length;
  const sorted = values.map((_, i) => i).sort((a, b) => values[b] - values[a]);
  for (let k = 0; k + 1 < n; k++) if (order(pairs, n, sorted[k], sorted[k + 1]) !== 1 && !tied?.(sorted[k], sorted[k + 1])) return false;
  return true;
}

/**
 * One sequential sign test per unordered pair, each at delta / `union`: the number of pairs whose
 * errors can make the claim wrong. A ranking is wrong if any pair is decided wrongly (n(n-1)/2).
 * A top-1 claim ("i is above every other") can only be wrong through a pair holding a true top
 * step T: claiming i != T needs the test (i, T) to decide wrongly, and claiming T itself is wrong
 * only if some j ties with T and (T, j) decided. So n - 1 pairs, and each test may spend
 * delta / (n - 1) (the same union bound, fewer events; the pairs not involving T may err freely).
 */
export function pairTests(n: number, delta: number, union: number, betFraction?: number): PairTests {
  const alpha = delta / union;
  const out: PairTests = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push({ i, j, test: new PairedBettingTest(alpha, betFraction) });
  return out;
}
