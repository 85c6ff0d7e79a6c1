import { BatchStopper, studyBatchOptions } from '../engine/batch.ts';
import type { BatchBound, CaseResult } from '../engine/types.ts';
import type { BatchStopRule } from '../engine/setting-choices.ts';

/**
 * Where the batch stop ends a study whose results are already known (a reopened session): its
 * results fed in item order, as runStudy feeds them, up to the first item without one. The stop
 * is decided by the results alone, so it falls where the run that saved them stopped. Returns how
 * many items (from the first) the batch counts, or undefined when the known results do not stop.
 */
export function knownStop(
  known: readonly (CaseResult | undefined)[],
  rangeFrom: { range?: readonly [number, number]; threshold?: number },
  delta: number,
  bound: BatchBound,
  rule: BatchStopRule = 'top',
): number | undefined {
  const stopper = new BatchStopper(studyBatchOptions(rangeFrom, delta, bound, rule));
  for (let index = 0; index < known.length; index++) {
    const result = known[index];
    if (result === undefined) return undefined;
    if (stopper.push(result)) return index + 1;
  }
  return undefined;
}
