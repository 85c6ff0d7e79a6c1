import type { CaseResult } from '../engine/types.ts';
import { ownNumber } from './own.ts';

/** The step with the largest Shapley value in a case, or null when the case has none. */
export function topStep(result: CaseResult): { step: string; value: number } | null {
  let best: { step: string; value: number } | null = null;
  for (const step of result.players) {
    const value = ownNumber(result.shapley, step);
    if (value === undefined || !Number.isFinite(value)) continue;
    if (!best || value > best.value) best = { step, value };
  }
  return best;
}

/**
 * Orders cases for the drill-down, most important first: cases whose analysis failed with an error
 * (they need attention and have no numbers), then analysed failures by their largest Shapley value
 * (the most-blamed first), then everything else. Ties keep the session's order.
 */
export function rankCasesForDrillDown(results: readonly CaseResult[]): CaseResult[] {
  const group = (r: CaseResult) => (r.error ? 0 : r.failed && topStep(r) ? 1 : 2);
  return results
    .map((result, index) => ({ result, index, group: group(result), top: topStep(result)?.value ?? -Infinity }))
    .sort((a, b) => a.group - b.group || b.top - a.top || a.index - b.index)
    .map((entry) => entry.result);
}
