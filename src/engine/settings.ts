import type { AnalysisSettings } from './types.ts';
import { schemaDefaults } from './settings/schema.ts';
import { MAX_EXACT_PLAYERS } from './shapley/exact.ts';


/** The settings a new analysis starts with: each field's default in the settings schema. */
export const DEFAULT_SETTINGS: AnalysisSettings = Object.freeze(schemaDefaults());

/** The v(S) queries Monte Carlo may ask for at its permutation cap: n - 1 an order, plus v(empty) and v(all) once. */
export function samplingQueryBudget(n: number, maxPermutations: number): number {
  return maxPermutations * Math.max(n - 1, 1) + 2;
}

/**
 * Resolve 'auto' to a concrete method for n players: exact whenever its 2^n queries are within
 * what sampling may ask for at its cap (so sampling is never chosen where it could cost more),
 * and the value table fits (MAX_EXACT_PLAYERS).
 */
export function resolveMethod(method: AnalysisSettings['method'], n: number, maxPermutations: number = DEFAULT_SETTINGS.maxPermutations): 'exact' | 'mc' {
  if (method === 'auto') return n <= MAX_EXACT_PLAYERS && 2 ** n <= samplingQueryBudget(n, maxPermutations) ? 'exact' : 'mc';
  return method;
}

/** Players up to which 'auto' picks exact Shapley under the default permutation cap (17: 2^17 = 131 072 <= 160 002 queries). */
export const AUTO_EXACT_MAX_PLAYERS = largestExact(DEFAULT_SETTINGS.maxPermutations);

function largestExact(maxPermutations: number): number {
  let n = 1;
  while (resolveMethod('auto', n + 1, maxPermutations) === 'exact') n++;
  return n;
}
