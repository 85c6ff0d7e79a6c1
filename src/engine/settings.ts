import type { AnalysisSettings } from './types.ts';
import { DEFAULT_ESTIMATOR } from './shapley/registry.ts';

/** Players up to which 'auto' picks exact Shapley (2^12 = 4096 coalitions). */
export const AUTO_EXACT_MAX_PLAYERS = 12;

export const DEFAULT_SETTINGS: AnalysisSettings = Object.freeze({
  mode: 'recorded',
  worlds: 8,
  method: 'auto',
  delta: 0.05,
  stop: 'top1',
  width: 0.05,
  budget: Infinity,
  maxPermutations: 10_000,
  radius: 'betting',
  estimator: DEFAULT_ESTIMATOR,
  seed: 1,
}) as AnalysisSettings;

/** Resolve 'auto' to a concrete method for n players. */
export function resolveMethod(method: AnalysisSettings['method'], n: number): 'exact' | 'mc' {
  if (method === 'auto') return n <= AUTO_EXACT_MAX_PLAYERS ? 'exact' : 'mc';
  return method;
}
