/**
 * What the panel's verdict words mean, shown where they are (a short text beside each, a legend
 * under each table, the long text as the cell's title): the fixes' PASS / PART / FAIL
 * (src/why/fixes.ts) and the pieces' roles (src/why/method.ts, step 7).
 */
import type { FixResult, PieceResult } from '../../why/index.ts';

export interface Meaning {
  /** A few words, shown beside the word. */
  short: string;
  /** The whole rule, in the legend and the title. */
  long: string;
}

export const VERDICT_MEANINGS: Record<FixResult['verdict'], Meaning> = {
  PASS: { short: 'never again', long: 'with the fix the bad call never happened in its reruns, and the drop from the base rate is significant (one-sided Fisher test, Holm-corrected over the fixes)' },
  PART: { short: 'rarer', long: 'with the fix the bad call became rarer than in the base rate, but it still happens or the drop is not significant' },
  FAIL: { short: 'no rarer', long: 'with the fix the bad call is no rarer than in the base rate' },
};

export const ROLE_MEANINGS: Record<PieceResult['role'], Meaning> = {
  headline: { short: 'the cause', long: 'the narrowest piece whose removal significantly changes what the agent does (Fisher test, Holm-corrected over every variant tried)' },
  'other-cause': { short: 'another cause', long: 'another piece whose removal significantly changes what the agent does, listed after the headline' },
  'also-required': { short: 'needed as input', long: 'removing it changes the decision, but only because the agent then looks the data up again or says nothing: it is needed as input, not a cause' },
  'contains-headline': { short: 'holds the cause', long: 'a larger piece the headline is part of: its removal changes the decision because the headline goes with it' },
  'no-effect': { short: 'no change', long: 'removed in every rerun asked, with no significant change in the decision' },
  screened: { short: 'no change in screening', long: 'removed in the first few reruns with no change, so not rerun further' },
};

/** The roles and verdicts a result shows, in the order of their tables (for the legends). */
export function shownOnce<T extends string>(words: readonly T[]): T[] {
  return [...new Set(words)];
}
