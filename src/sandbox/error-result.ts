import { resolveMethod } from '../engine/index.ts';
import type { AnalysisSettings, CaseResult } from '../engine/types.ts';

/**
 * The result of a case that could not be analysed, shaped like the engine's own error results
 * (analyzeCase): no attribution, NaN values, and `error` saying what went wrong where.
 */
export function errorResult(caseId: string, players: readonly string[], settings: Pick<AnalysisSettings, 'method'>, error: string): CaseResult {
  return {
    id: caseId,
    players: [...players],
    method: resolveMethod(settings.method, players.length),
    failed: true,
    vEmpty: NaN,
    vAll: NaN,
    cost: 0,
    evaluations: 0,
    permutations: 0,
    error,
  };
}
