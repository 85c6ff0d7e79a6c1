/**
 * A planted batch for the batch stops' coverage checks (the unit suite at a small size, the bench at
 * 200 repetitions): eight steps whose per-case Shapley values are drawn i.i.d. with known population
 * means, shaped like the eight-step demo's (one clear top step, a runner-up, a tail near zero).
 */
import { aggregateBatch, BatchStopper } from '../batch.ts';
import { seededRng } from '../rng.ts';
import { hashWithSeed } from '../hash.ts';
import type { BatchStopRule } from '../setting-choices.ts';
import type { CaseResult } from '../types.ts';
import { testResult } from './results.ts';

export const PLANTED_STEPS = ['intake', 'router', 'planner', 'search', 'extractor', 'calculator', 'drafter', 'guardrail'] as const;
/** Population means of the per-case values: the drafter on top, the intake second. */
export const PLANTED_MEANS = [0.18, 0.07, 0.04, 0.08, 0.03, 0.04, 0.45, 0.02] as const;

/** The per-case values: mean * 2u for one shared u (so they move together, as a case's values do) mixed with each step's own draw. */
function drawValues(rng: () => number): number[] {
  const shared = rng();
  return PLANTED_MEANS.map((m) => m * (shared + rng()));
}

/** Case k of the planted stream of `seed`: an exact, attributed failure. */
export function plantedStream(seed: number, count: number): CaseResult[] {
  // Hashed: generators seeded with neighbouring integers start with correlated draws.
  const rng = seededRng(hashWithSeed('planted-batch', seed));
  const zeros = Object.fromEntries(PLANTED_STEPS.map((p) => [p, 0]));
  return Array.from({ length: count }, (_, k) => {
    const values = drawValues(rng);
    return testResult({
      id: `planted-${k}`,
      players: [...PLANTED_STEPS],
      failed: true,
      vAll: 1,
      shapley: Object.fromEntries(PLANTED_STEPS.map((p, i) => [p, values[i]])),
      fixAlone: zeros,
      leaveOneOut: zeros,
      stopReason: 'exact',
      fixable: true,
      evaluations: 256,
    });
  });
}

export interface PlantedOutcome {
  /** Failures fed before the stop (null: did not stop within the stream). */
  stoppedAt: number | null;
  /** The step the stop named on top (its leading mean), or null. */
  top: string | null;
  /** Whether every step's anytime batch interval at the stop (or at the end) holds its population mean. */
  covered: boolean;
}

/** One repetition: the stream of `seed` fed to a BatchStopper with `rule` until it stops. */
export function runPlanted(rule: BatchStopRule, delta: number, seed: number, count = 2000): PlantedOutcome {
  const stream = plantedStream(seed, count);
  const stopper = new BatchStopper({ delta, bound: 'anytime', rule });
  let stoppedAt: number | null = null;
  for (let i = 0; i < stream.length; i++) {
    if (stopper.push(stream[i])) {
      stoppedAt = i + 1;
      break;
    }
  }
  const seen = stream.slice(0, stoppedAt ?? stream.length);
  const batch = aggregateBatch(seen, { delta, bound: 'anytime' });
  const covered = batch.steps.every((s, i) => s.ci[0] <= PLANTED_MEANS[i] && PLANTED_MEANS[i] <= s.ci[1]);
  const top = stoppedAt === null ? null : [...batch.steps].sort((a, b) => b.meanShapley - a.meanShapley)[0].step;
  return { stoppedAt, top, covered };
}
