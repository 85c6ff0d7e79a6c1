import type { CaseResult } from '../engine/types.ts';
import { analysedFailures } from '../engine/case-result.ts';
import { ownNumber } from './own.ts';

export interface StepBaselines {
  step: string;
  /** Mean over analysed failures of the step's Shapley value. */
  shapley: number;
  /** Mean of v({i}) - v(empty): the fix-alone gain. */
  fixAlone: number;
  /** Mean of v(all) - v(all - i): the leave-one-out gain. */
  leaveOneOut: number;
  /** Number of analysed failures whose last-touch step is this one. */
  lastTouch: number;
}

/**
 * Shapley and the three baselines (docs/method.md, "Baselines": fix-alone, leave-one-out, last-step-to-touch) averaged
 * over the analysed failures, so they can be compared side by side. A case counts when it is an
 * analysed failure (failed, no error); a step missing from a case's values counts as 0 for that
 * case. A baseline a budget left out of a case (docs/method.md, "Budget") is averaged over the
 * cases that have it (`withFixAlone`, `withLeaveOneOut`), and is 0 when none has.
 */
export function stepBaselines(results: readonly CaseResult[], stepOrder: readonly string[]): { analysed: number; withFixAlone: number; withLeaveOneOut: number; steps: StepBaselines[] } {
  const analysed = analysedFailures(results);
  const steps = [...stepOrder];
  for (const r of analysed) for (const p of r.players) if (!steps.includes(p)) steps.push(p);
  const mean = (over: readonly CaseResult[], pick: (r: CaseResult) => number | undefined) =>
    over.length === 0 ? 0 : over.reduce((sum, r) => sum + finiteOr0(pick(r)), 0) / over.length;
  const withFixAlone = analysed.filter((r) => r.fixAlone !== undefined);
  const withLeaveOneOut = analysed.filter((r) => r.leaveOneOut !== undefined);
  return {
    analysed: analysed.length,
    withFixAlone: withFixAlone.length,
    withLeaveOneOut: withLeaveOneOut.length,
    steps: steps.map((step) => ({
      step,
      shapley: mean(analysed, (r) => ownNumber(r.shapley, step)),
      fixAlone: mean(withFixAlone, (r) => ownNumber(r.fixAlone, step)),
      leaveOneOut: mean(withLeaveOneOut, (r) => ownNumber(r.leaveOneOut, step)),
      lastTouch: analysed.filter((r) => r.lastTouch === step).length,
    })),
  };
}

function finiteOr0(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) ? value : 0;
}
