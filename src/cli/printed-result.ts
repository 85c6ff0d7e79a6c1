import type { CaseResult } from '../engine/types.ts';
import { keptResult } from '../engine/kept-outputs.ts';

/**
 * What the command keeps of a case's result while the others run. Tables and JSON print no
 * outputs, coalitions or history, so without --save or --html those are dropped as each case
 * arrives (the rest is a few numbers per step); a saved session or report keeps outputs within
 * the case's share of MAX_KEPT_OUTPUTS_TOTAL.
 */
export function resultKeeper(savesSession: boolean, cases: number): (result: CaseResult) => CaseResult {
  if (savesSession) return (result) => keptResult(result, cases);
  return (result) => {
    if (result.factualOutputs === undefined && result.fixedOutputs === undefined && result.coalitions === undefined && result.history === undefined) return result;
    const { factualOutputs: _factual, fixedOutputs: _fixed, coalitions: _coalitions, history: _history, ...printed } = result;
    return printed as CaseResult;
  };
}
