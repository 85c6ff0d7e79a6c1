import type { AttributedCaseResult } from '../types.ts';
import { canonicalize } from '../canonical.ts';

/** The credit signals every analysis already has, by the name the audit reports them under. */
export const BUILTIN_SIGNALS = ['fix-alone', 'leave-one-out', 'last touch', 'last step', 'first error'] as const;

/**
 * The built-in signals' scores for one analysed failure, per step in pipeline order, or null where
 * a signal says nothing about the case. Fix-alone and leave-one-out are the baselines' gains; last
 * touch marks the last step whose output the fixes change (null for game tables, which have no
 * outputs); last step marks the pipeline's final step (the "blame the step that acted" heuristic);
 * first error marks the earliest step whose factual output differs from its all-fixed output (the
 * Who&When notion of the decisive error as the earliest one, read off the replay).
 */
export function builtinSignalScores(r: AttributedCaseResult): Record<(typeof BUILTIN_SIGNALS)[number], number[] | null> {
  const steps = r.players;
  const mark = (step: string | null | undefined) => (step == null ? null : steps.map((s) => (s === step ? 1 : 0)));
  return {
    // A baseline the budget left out says nothing about the case.
    'fix-alone': r.fixAlone ? steps.map((s) => r.fixAlone![s]) : null,
    'leave-one-out': r.leaveOneOut ? steps.map((s) => r.leaveOneOut![s]) : null,
    'last touch': mark(r.lastTouch),
    'last step': mark(steps[steps.length - 1]),
    'first error': mark(firstChanged(r)),
  };
}

function firstChanged(r: AttributedCaseResult): string | null {
  const before = r.factualOutputs;
  const after = r.fixedOutputs;
  if (!before || !after) return null;
  return r.players.find((s) => Object.hasOwn(before, s) && Object.hasOwn(after, s) && canonicalize(before[s]) !== canonicalize(after[s])) ?? null;
}
