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
 * analysed failure (failed, no error); a baseline missing from a case counts as 0 for that case.
 */
export function stepBaselines(results: readonly CaseResult[], stepOrder: readonly string[]): { analysed: number; steps: StepBaselines[] } {
  const analysed = analysedFailures(results);
  const steps = [...stepOrder];
  for (const r of analysed) for (const p of r.players) if (!steps.includes(p)) steps.push(p);
  const mean = (pick: (r: CaseResult) => number | undefined) =>
    analysed.length === 0 ? 0 : analysed.reduce((sum, r) => sum + finiteOr0(pick(r)), 0) / analysed.length;
  return {
    analysed: analysed.length,
    steps: steps.map((step) => ({
      step,
      shapley: mean((r) => ownNumber(r.shapley, step)),
      fixAlone: mean((r) => ownNumber(r.fixAlone, step)),
      leaveOneOut: mean((r) => ownNumber(r.leaveOneOut, step)),
      lastTouch: analysed.filter((r) => r.lastTouch === step).length,
    })),
  };
}

function finiteOr0(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) ? value : 0;
}
