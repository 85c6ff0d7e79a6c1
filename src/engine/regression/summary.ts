/**
 * The regression game's results read as a regression (docs/ci.md): which failing cases are new (they
 * pass with every change reverted, v(all) at the threshold), the batch over those alone, and each
 * change's mean blame for them, the rise the gate judges.
 */
import { aggregateBatch, type BatchOptions } from '../batch.ts';
import type { BatchResult, CaseResult } from '../types.ts';
import { pairedFailureRateChange, type BlameRise, type FailureRateChange } from './verdict.ts';

export interface RegressionSummary {
  /** Case ids that fail now and passed before (the game's failures fixed by reverting every change). */
  newFailures: string[];
  /** Failing now and before: no revert helps them, they are not the change's doing. */
  stillFailing: string[];
  /** Passing now, failing before. */
  fixed: string[];
  /** Cases that could not be analysed (left out of the failure rate). */
  errors: string[];
  failureRate: FailureRateChange;
  /** The batch over the new failures only. */
  batch: BatchResult;
  /** Each changed, added or removed step: its mean blame for the new failures (before the change it had none). */
  rises: BlameRise[];
}

export function regressionSummary(
  results: readonly CaseResult[],
  /** Cases passing now that fail in the earlier version (from the reversed game). */
  fixedIds: ReadonlySet<string>,
  changes: readonly { name: string; change: string }[],
  options: BatchOptions & { threshold: number },
): RegressionSummary {
  const newFailures: CaseResult[] = [];
  const stillFailing: string[] = [];
  const fixed: string[] = [];
  const errors: string[] = [];
  const pairs: { failsBefore: boolean; failsNow: boolean }[] = [];
  for (const r of results) {
    if (r.error !== undefined) {
      errors.push(r.id);
      continue;
    }
    if (!r.failed) {
      const failsBefore = fixedIds.has(r.id);
      if (failsBefore) fixed.push(r.id);
      pairs.push({ failsBefore, failsNow: false });
      continue;
    }
    // v(all): every change reverted, which is the earlier version's run.
    const failsBefore = r.vAll < options.threshold;
    if (failsBefore) stillFailing.push(r.id);
    else newFailures.push(r);
    pairs.push({ failsBefore, failsNow: true });
  }
  const batch = aggregateBatch(newFailures, options);
  const rises = changes
    .filter((c) => c.change !== 'unchanged')
    .map((c): BlameRise => {
      const s = batch.steps.find((x) => x.step === c.name);
      return { step: c.name, change: c.change, rise: s?.meanShapley ?? 0, ci: s ? [s.ci[0], s.ci[1]] : [0, 0], share: s?.share ?? 0, fixAloneRate: s?.fixAloneRate ?? 0 };
    });
  return {
    newFailures: newFailures.map((r) => r.id),
    stillFailing,
    fixed,
    errors,
    failureRate: pairedFailureRateChange(pairs, options.delta),
    batch,
    rises,
  };
}
