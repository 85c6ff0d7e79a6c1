import type { AnalysisSettings } from './types.ts';

/**
 * What the batch's `unfixable` count counts, in words for its mode. A case is fixable when some
 * coalition's value reaches the threshold; in prior and posterior modes a value is the mean over
 * the worlds, so reaching 1 means succeeding in every world, and "not fixable" would read as a
 * contradiction beside a headline that blames a step (which only needs the value to rise).
 */
export function unfixableText(mode: AnalysisSettings['mode']): string {
  return mode === 'recorded' ? 'not fixable by any combination of fixes' : 'where no combination of fixes succeeds in every world';
}
