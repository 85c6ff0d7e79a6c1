import type { AttributedCaseResult, CaseResult, ErrorCaseResult, PassedCaseResult } from '../types.ts';

/** A hand-written result for tests: any fields of the three kinds, tagged by `error` and `failed`. */
export type LooseResult = Omit<Partial<AttributedCaseResult>, 'failed' | 'error'> & Pick<CaseResult, 'id' | 'players'> & { failed?: boolean; error?: string };

/**
 * The well-formed CaseResult a test means: an error when `error` is set, a passed case when
 * `failed` is false (attribution dropped, as the engine never attributes a passing case), else an
 * attributed failure with zero baselines where the test gave none (unless `notComputed` lists them).
 */
export function testResult(loose: LooseResult): CaseResult {
  const { error, failed, shapley, ci, fixAlone, resolvedAlone, leaveOneOut, lastTouch, stopReason, fixable, coalitions, fixedOutputs, history, interactions, repairs, repairSearch, repairedOutputs, aloneOutputs, notComputed, ...rest } = loose;
  const common = { method: 'exact' as const, vEmpty: 0, vAll: 1, cost: 0, evaluations: 0, permutations: 0, ...rest };
  if (error !== undefined) return { ...common, failed: true, error } satisfies ErrorCaseResult;
  if (failed === false) return { ...common, failed: false } satisfies PassedCaseResult;
  const zeros = Object.fromEntries(loose.players.map((p) => [p, 0]));
  return {
    ...common,
    failed: true,
    shapley: shapley ?? zeros,
    ...(ci !== undefined && { ci }),
    // A baseline listed in notComputed is left out, as a budget leaves it out.
    ...(!notComputed?.includes('fixAlone') && { fixAlone: fixAlone ?? zeros }),
    ...(resolvedAlone !== undefined && { resolvedAlone }),
    ...(!notComputed?.includes('leaveOneOut') && { leaveOneOut: leaveOneOut ?? zeros }),
    ...(notComputed !== undefined && { notComputed }),
    ...(lastTouch !== undefined && { lastTouch }),
    ...(interactions !== undefined && { interactions }),
    stopReason: stopReason ?? 'exact',
    fixable: fixable ?? true,
    ...(coalitions !== undefined && { coalitions }),
    ...(fixedOutputs !== undefined && { fixedOutputs }),
    ...(repairs !== undefined && { repairs }),
    ...(repairSearch !== undefined && { repairSearch }),
    ...(repairedOutputs !== undefined && { repairedOutputs }),
    ...(aloneOutputs !== undefined && { aloneOutputs }),
    ...(history !== undefined && { history }),
  } satisfies AttributedCaseResult;
}
