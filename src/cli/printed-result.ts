import type { CaseResult } from '../engine/types.ts';
import { keptResult } from '../engine/kept-outputs.ts';
import { isResultField, RESULT_FIELD_NAMES, RESULT_FIELDS, type ResultFieldSpec } from '../engine/result-fields.ts';

/**
 * What the command keeps of a case's result while the others run. Tables and JSON print no
 * outputs, coalitions or history, so without --save or --html those are dropped as each case
 * arrives (the rest is a few numbers per step); a saved session or report keeps outputs within
 * the case's share of MAX_KEPT_OUTPUTS_TOTAL.
 */
export function resultKeeper(savesSession: boolean, cases: number): (result: CaseResult) => CaseResult {
  if (savesSession) return (result) => keptResult(result, cases);
  return (result) => {
    if (!Object.keys(result).some((key) => UNPRINTED.has(key))) return result;
    // Copied key by key: reading `coalitions` would unpack a table that is dropped anyway
    // (engine/packed-coalitions.ts joinCoalitions).
    const printed: Record<string, unknown> = {};
    for (const key of Object.keys(result)) if (!UNPRINTED.has(key)) printed[key] = (result as unknown as Record<string, unknown>)[key];
    return printed as unknown as CaseResult;
  };
}

/** Result fields tables and JSON never print and only a drill-down reads (engine/result-fields.ts). */
const UNPRINTED: ReadonlySet<string> = new Set(RESULT_FIELD_NAMES.filter((name) => isResultField(name) && isDrillDown(RESULT_FIELDS[name])));

function isDrillDown(field: ResultFieldSpec): boolean {
  return field.drillDown === true;
}
