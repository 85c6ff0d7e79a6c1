import type { Rng } from '../types.ts';
import { spearman } from '../stats/spearman.ts';
import { median } from '../stats/median.ts';
import { bootstrapMedianInterval } from '../stats/bootstrap-median.ts';
import { shuffled } from '../stats/shuffle.ts';
import { wilsonInterval } from '../stats/wilson-interval.ts';
import { pivotalHit } from './pivotal-hit.ts';
import { signAgreement } from './sign-agreement.ts';

/** One case as the audit sees one signal: its ground truth per step and the signal's scores, aligned. */
export interface AuditCase {
  id: string;
  /** Ground-truth credit per step (the replay's Shapley values). */
  truth: readonly number[];
  /** The signal's score per step, or null when the signal does not score every step of the case. */
  scores: readonly number[] | null;
}

export type AuditVerdict = 'above control' | 'below control' | 'indistinguishable' | 'too few cases' | 'undefined';

/**
 * Fewest cases with a defined correlation before the audit gives a verdict. A 95 % interval for a
 * median needs at least 6 values even without assumptions: the smallest and largest of n values
 * hold the median with probability 1 - 2 (1/2)^n, 0.9375 at 5 and 0.969 at 6. Below that the
 * percentile bootstrap is narrower than the data allow (one case: a point), so intervals that do
 * not overlap say nothing.
 */
export const MIN_VERDICT_CASES = 6;

export interface RankFidelity {
  /** Median within-case Spearman (null with no case used). */
  median: number | null;
  ci: [number, number] | null;
}

export interface SignalAudit {
  /** Cases the signal was asked about. */
  cases: number;
  /** Cases with a defined Spearman correlation. */
  used: number;
  /** Cases whose scores or values are constant (or incomplete): counted, left out of the median. */
  undefined: number;
  fidelity: RankFidelity;
  control: RankFidelity;
  /** Top-1 agreement at the pivotal step over the cases that have one, with a Wilson 95% interval. */
  pivotal: { hits: number; n: number; rate: number; ci: [number, number] };
  /** Steps on the same side of the case median in score and ground truth, with a Wilson 95% interval. */
  sign: { agree: number; n: number; rate: number; ci: [number, number] };
  verdict: AuditVerdict;
}

export interface AuditRngs {
  /** Shuffles for the control. */
  shuffle: Rng;
  /** Bootstrap resamples of the signal's correlations. */
  bootstrap: Rng;
  /** Bootstrap resamples of the control's correlations. */
  controlBootstrap: Rng;
}

/**
 * Audit one credit signal against replay ground truth, as the credit-assignment audit does
 * ("Credit Without Ground Truth", Zhang 2026): per case the Spearman correlation of the signal with
 * the ground truth (average ranks for ties), summarised by the median over cases with a percentile
 * bootstrap interval of cases; the same for a marginal-matched control that shuffles the signal's
 * scores within each case; precision at the pivotal step and sign agreement with Wilson intervals.
 * Verdict: above (below) its control only when the two intervals do not overlap, and none from
 * fewer than MIN_VERDICT_CASES cases ('too few cases').
 */
export function auditSignal(cases: readonly AuditCase[], rngs: AuditRngs, resamples = 10_000): SignalAudit {
  const rhos: number[] = [];
  const controls: number[] = [];
  let hits = 0;
  let pivotalN = 0;
  let agree = 0;
  let signN = 0;
  for (const c of cases) {
    if (c.scores === null || c.scores.length !== c.truth.length) continue;
    const rho = spearman(c.scores, c.truth);
    if (rho !== null) {
      rhos.push(rho);
      // A shuffle keeps the scores' spread, so the control is defined exactly where the signal is.
      controls.push(spearman(shuffled(c.scores, rngs.shuffle), c.truth)!);
    }
    const hit = pivotalHit(c.scores, c.truth);
    if (hit !== null) {
      pivotalN++;
      if (hit) hits++;
    }
    const s = signAgreement(c.scores, c.truth);
    agree += s.agree;
    signN += s.n;
  }
  const fidelity = rankFidelity(rhos, rngs.bootstrap, resamples);
  const control = rankFidelity(controls, rngs.controlBootstrap, resamples);
  return {
    cases: cases.length,
    used: rhos.length,
    undefined: cases.length - rhos.length,
    fidelity,
    control,
    pivotal: { hits, n: pivotalN, rate: pivotalN === 0 ? 0 : hits / pivotalN, ci: wilsonInterval(hits, pivotalN) },
    sign: { agree, n: signN, rate: signN === 0 ? 0 : agree / signN, ci: wilsonInterval(agree, signN) },
    verdict: rhos.length > 0 && rhos.length < MIN_VERDICT_CASES ? 'too few cases' : verdictOf(fidelity.ci, control.ci),
  };
}

function rankFidelity(rhos: readonly number[], rng: Rng, resamples: number): RankFidelity {
  return rhos.length === 0 ? { median: null, ci: null } : { median: median(rhos), ci: bootstrapMedianInterval(rhos, rng, resamples) };
}

/** The audit's verdict rule: a signal beats its control only when the intervals are disjoint. */
export function verdictOf(ci: [number, number] | null, controlCi: [number, number] | null): AuditVerdict {
  if (ci === null || controlCi === null) return 'undefined';
  if (ci[0] > controlCi[1]) return 'above control';
  if (ci[1] < controlCi[0]) return 'below control';
  return 'indistinguishable';
}
