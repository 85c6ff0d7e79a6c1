/**
 * The rows of a case's waterfall (SHAP convention): from the outcome as run, v(empty), each step's
 * Shapley value added in turn, largest first, ending at the outcome with every fix, v(all).
 * Shapley values are efficient (they sum to v(all) - v(empty)), so the last running total is v(all)
 * for exact results; a Monte Carlo estimate may end a little off, which the chart shows as is.
 */
export interface WaterfallRow {
  step: string;
  value: number;
  from: number;
  to: number;
}

export function waterfallRows(vEmpty: number, shapley: Readonly<Record<string, number>>, players: readonly string[]): WaterfallRow[] {
  const ordered = players
    .filter((p) => Object.hasOwn(shapley, p) && Number.isFinite(shapley[p]))
    .map((step, index) => ({ step, index, value: shapley[step] }))
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || a.index - b.index);
  let total = vEmpty;
  return ordered.map(({ step, value }) => {
    const from = total;
    total += value;
    return { step, value, from, to: total };
  });
}
