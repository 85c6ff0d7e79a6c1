/**
 * Two studies side by side (recorded vs posterior, two fixes, before and after a prompt change):
 * per step the change in mean Shapley with its interval, in fix-alone rate and in rank, and the
 * cases whose blame moved most. One function, so the workbench's Compare view, its report and the
 * command's `--compare` give the same numbers (docs/compare.md).
 */
import { analysedFailures } from './case-result.ts';
import { differenceInterval } from './stats/difference-interval.ts';
import type { AttributedCaseResult, BatchResult, BatchStep, CaseResult } from './types.ts';

/** One side of a comparison: its case results and the batch aggregated from them. */
export interface StudySide {
  results: readonly CaseResult[];
  batch: BatchResult;
}

/** Where a step stood in one study. */
export interface StepStanding {
  meanShapley: number;
  ci: [number, number];
  fixAloneRate: number;
  /** 1 = most blamed (largest mean Shapley); steps with equal means share a rank. */
  rank: number;
}

export interface StepChange {
  step: string;
  /** Null when the step is not in that study. */
  before: StepStanding | null;
  after: StepStanding | null;
  /** after.meanShapley - before.meanShapley (null when the step is missing on a side). */
  shapleyChange: number | null;
  /** Interval for shapleyChange at 1 - delta (see compareStudies); null when it cannot be had. */
  ci: [number, number] | null;
  /** after.fixAloneRate - before.fixAloneRate, a difference of shares. */
  fixAloneChange: number | null;
  /** before.rank - after.rank: positive when the step moved up (more blamed after). */
  rankChange: number | null;
}

/** A failure analysed in both studies, and how far its blame moved. */
export interface CaseChange {
  id: string;
  /** Σ over steps of |φ_after - φ_before| (a step missing on a side counts as 0 there). */
  movement: number;
  /** The step whose value moved most (first in step order on a tie). */
  step: string;
  before: number;
  after: number;
}

export interface StudyComparison {
  /** The interval's confidence is 1 - delta. */
  delta: number;
  /** Whether both studies analysed the same failures (then the intervals are paired by case). */
  paired: boolean;
  before: { failures: number; analyzed: number };
  after: { failures: number; analyzed: number };
  /** Failures analysed in both studies (matched by case id). */
  shared: number;
  /** Steps of the later study in its order, then those only the earlier one has. */
  steps: StepChange[];
  /** The shared failures, the one whose blame moved most first (ties by case id). */
  cases: CaseChange[];
}

function standings(steps: readonly BatchStep[]): Map<string, StepStanding> {
  const out = new Map<string, StepStanding>();
  for (const s of steps) {
    const rank = 1 + steps.filter((o) => o.meanShapley > s.meanShapley).length;
    out.set(s.step, { meanShapley: s.meanShapley, ci: [s.ci[0], s.ci[1]], fixAloneRate: s.fixAloneRate, rank });
  }
  return out;
}

const valueOf = (r: AttributedCaseResult, step: string): number => (Object.hasOwn(r.shapley, step) ? r.shapley[step] : 0);

/**
 * Compares `after` with `before`. The interval of a step's change is the normal one of the batch
 * (z at 1 - delta/2): paired over the per-case differences when both studies analysed exactly the
 * same failures, Welch's unpaired one otherwise; with fewer than two failures on a side it is the
 * difference of the two batch intervals [lo_after - hi_before, hi_after - lo_before] (exact results
 * give a point, Monte Carlo ones a valid interval at 1 - 2·delta by the union bound).
 */
export function compareStudies(before: StudySide, after: StudySide, delta = 0.05): StudyComparison {
  const failuresBefore = analysedFailures(before.results);
  const failuresAfter = analysedFailures(after.results);
  const byIdBefore = new Map(failuresBefore.map((r) => [r.id, r]));
  const sharedAfter = failuresAfter.filter((r) => byIdBefore.has(r.id));
  const paired = sharedAfter.length === failuresAfter.length && sharedAfter.length === failuresBefore.length;
  const standBefore = standings(before.batch.steps);
  const standAfter = standings(after.batch.steps);
  const names = [...after.batch.steps.map((s) => s.step), ...before.batch.steps.map((s) => s.step).filter((s) => !standAfter.has(s))];

  const steps = names.map((step): StepChange => {
    const b = standBefore.get(step) ?? null;
    const a = standAfter.get(step) ?? null;
    if (!a || !b) return { step, before: b, after: a, shapleyChange: null, ci: null, fixAloneChange: null, rankChange: null };
    const change = a.meanShapley - b.meanShapley;
    const valuesAfter = (paired ? sharedAfter : failuresAfter).map((r) => valueOf(r, step));
    const valuesBefore = paired ? sharedAfter.map((r) => valueOf(byIdBefore.get(r.id)!, step)) : failuresBefore.map((r) => valueOf(r, step));
    const ci = differenceInterval(valuesBefore, valuesAfter, change, paired, delta) ?? [a.ci[0] - b.ci[1], a.ci[1] - b.ci[0]];
    return { step, before: b, after: a, shapleyChange: change, ci, fixAloneChange: a.fixAloneRate - b.fixAloneRate, rankChange: b.rank - a.rank };
  });

  const cases = sharedAfter
    .map((r): CaseChange => {
      const old = byIdBefore.get(r.id)!;
      let movement = 0;
      let most: CaseChange = { id: r.id, movement: 0, step: names[0] ?? '', before: 0, after: 0 };
      let largest = -1;
      for (const step of names) {
        const x = valueOf(old, step);
        const y = valueOf(r, step);
        const moved = Math.abs(y - x);
        movement += moved;
        if (moved > largest) {
          largest = moved;
          most = { ...most, step, before: x, after: y };
        }
      }
      return { ...most, movement };
    })
    .sort((x, y) => y.movement - x.movement || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));

  return {
    delta,
    paired,
    before: { failures: before.batch.failures, analyzed: before.batch.analyzed },
    after: { failures: after.batch.failures, analyzed: after.batch.analyzed },
    shared: sharedAfter.length,
    steps,
    cases,
  };
}
