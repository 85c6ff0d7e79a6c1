import type { BatchStep } from '../engine/types.ts';

/**
 * Steps in the order a batch chart reads at a glance (SHAP summary-plot convention): by the size of
 * their mean Shapley value, largest first, whatever its sign; steps without a value yet keep the
 * pipeline order after them.
 */
export function byMagnitude(steps: readonly BatchStep[]): BatchStep[] {
  const size = (s: BatchStep) => (Number.isFinite(s.meanShapley) ? Math.abs(s.meanShapley) : -1);
  return steps
    .map((step, index) => ({ step, index }))
    .sort((a, b) => size(b.step) - size(a.step) || a.index - b.index)
    .map(({ step }) => step);
}
