/**
 * The terms the workbench uses without explaining them inline, each in a sentence or two; shown
 * as tooltips where the term appears and listed in the help overlay. The method in full is in the
 * project's docs/ (method, estimators).
 */
export const GLOSSARY = {
  'v(∅)': 'The outcome of the case as it ran, with no step fixed (the metric of the factual run).',
  'v(all)': 'The outcome with every step’s fix applied at once.',
  Shapley: 'A step’s share of the repair v(all) − v(∅), averaged over every order in which the fixes could be added. Negative: adding this fix makes the outcome worse.',
  δ: 'One minus the confidence of the intervals: 0.05 gives 95 % intervals.',
  worlds: 'Independent draws of the pipeline’s randomness. Every coalition of fixes is run in the same worlds, so differences come from the fixes, not the noise.',
  recorded: 'Replay the failure’s own randomness: one world, the one that happened.',
  posterior: 'Draw the randomness consistent with the choices the run recorded (abduction), then replay with fixes.',
  prior: 'Draw fresh randomness: what the fixes do on average, not for this run (interventional).',
  Bernstein: 'Empirical Bernstein interval: uses the observed variance, valid for any bounded metric, at a fixed sample size.',
  'anytime-valid': 'An interval that stays valid however long you watch it and whenever you stop (a confidence sequence).',
  'stopped: maxPermutations': 'Monte Carlo stopped at the permutation cap (for estimators that sample sets, such as kernel, n - 1 queries count as one permutation) before its stop rule was met; the intervals are wider than asked.',
  'fix alone': 'The share of analysed failures that fixing this step alone brings to the threshold.',
  'last touch': 'The common heuristic: blame the last step whose output changed before the failure.',
} as const;

export type GlossaryTerm = keyof typeof GLOSSARY;
