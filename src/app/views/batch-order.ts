/**
 * How the batch reads at a glance (SHAP summary-plot conventions): steps ordered by the size of
 * their mean Shapley value, largest first, whatever its sign; steps without a value yet keep the
 * pipeline order after them. And the one-line finding the report also leads with.
 */
import type { BatchResult } from '../../engine/types.ts';
export { byMagnitude } from '../../report/byMagnitude.ts';
import { interval, percent, fixed3 } from '../common/format.ts';

/** "Most blamed: retrieve, 0.310 [0.270, 0.350]; fixing it alone resolves 48.0 % of failures", or null before results. */
export function batchHeadline(batch: BatchResult): string | null {
  const finite = batch.steps.filter((s) => Number.isFinite(s.meanShapley));
  if (finite.length === 0 || batch.analyzed === 0) return null;
  const top = finite.reduce((best, s) => (s.meanShapley > best.meanShapley ? s : best));
  const alone = finite.reduce((best, s) => (s.fixAloneRate > best.fixAloneRate ? s : best));
  const first = `Most blamed: ${top.step}, ${fixed3(top.meanShapley)} ${interval(top.ci)}`;
  if (!(alone.fixAloneRate > 0)) return `${first}; no single fix resolves a failure on its own`;
  const who = alone.step === top.step ? 'it' : alone.step;
  return `${first}; fixing ${who} alone resolves ${percent(alone.fixAloneRate)} of failures`;
}
