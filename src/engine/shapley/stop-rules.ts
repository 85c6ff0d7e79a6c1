import type { StopRule } from '../types.ts';
import { tiedWithin } from './tied.ts';

export type Interval = readonly [number, number];

/** top1: the largest estimate's interval lies strictly above every other interval (or is tied with it within `tie`). */
export function topSeparated(values: readonly number[], ci: readonly Interval[], tie = 0): boolean {
  if (values.length < 2) return true;
  let top = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[top]) top = i;
  for (let i = 0; i < values.length; i++) if (i !== top && !(ci[top][0] > ci[i][1]) && !tiedWithin(ci[top], ci[i], tie)) return false;
  return true;
}

/** ranking: sorted by estimate, every adjacent pair of intervals is disjoint (or tied within `tie`). */
export function rankingSeparated(values: readonly number[], ci: readonly Interval[], tie = 0): boolean {
  const order = values.map((_, i) => i).sort((a, b) => values[b] - values[a]);
  for (let k = 0; k + 1 < order.length; k++) if (!(ci[order[k]][0] > ci[order[k + 1]][1]) && !tiedWithin(ci[order[k]], ci[order[k + 1]], tie)) return false;
  return true;
}

/** width: every radius (half-width) is at most w. */
export function narrowEnough(ci: readonly Interval[], w: number): boolean {
  return ci.every(([lo, hi]) => (hi - lo) / 2 <= w);
}

/** Whether a checkpoint's intervals satisfy the stop rule (budget is checked on cost, not here). */
export function intervalsSatisfy(rule: StopRule, values: readonly number[], ci: readonly Interval[], width: number, tie = 0): boolean {
  switch (rule) {
    case 'top1':
      return topSeparated(values, ci, tie);
    case 'ranking':
      return rankingSeparated(values, ci, tie);
    case 'width':
      return narrowEnough(ci, width);
    case 'budget':
      return false;
  }
}
