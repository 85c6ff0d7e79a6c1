/**
 * How the batch reads at a glance (SHAP summary-plot conventions): steps ordered by the size of
 * their mean Shapley value, largest first, whatever its sign; steps without a value yet keep the
 * pipeline order after them. And the one-line finding the report also leads with.
 */
import type { BatchResult } from '../../engine/types.ts';
export { byMagnitude } from '../../report/byMagnitude.ts';

/** The one-line finding, built once for the workbench and the report. */
export { batchHeadline } from '../../report/headline.ts';
