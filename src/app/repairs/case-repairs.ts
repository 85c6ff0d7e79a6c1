import type { AttributedCaseResult, CaseRepair, CaseResult } from '../../engine/types.ts';
import { isAnalysedFailure } from '../../engine/case-result.ts';
import { repairsFromTable } from '../../engine/repairs/table-repairs.ts';
import { causalConsensus, type ConsensusStep } from '../../engine/repairs/causal-consensus.ts';
import { successLevel } from '../../engine/repairs/success-level.ts';

/**
 * The success level the page's views judge repairs read from a coalition table by: the "Minimal
 * repairs" setting's, else the metric's upper end of `range`, else 1, as the command's --success.
 */
export function pageSuccess(settings: { repairs?: { success?: number } }, summary: { range?: readonly [number, number] } | null): number {
  return successLevel(settings.repairs?.success, summary?.range);
}

/**
 * A failure's minimal repairs: those its analysis searched (the "Minimal repairs" setting), else
 * those read off its coalition table when the table is complete (exact analyses up to 10 steps);
 * null when neither is known.
 */
export function caseRepairs(result: CaseResult | undefined, success: number): { repairs: CaseRepair[]; complete: boolean } | null {
  if (!result || !isAnalysedFailure(result)) return null;
  if (result.repairs) return { repairs: result.repairs, complete: result.repairSearch?.complete ?? true };
  const known = readOffTables.get(result);
  if (known !== undefined && known.success === success) return known.repairs;
  const fromTable = repairsFromTable(result, success);
  const repairs = fromTable ? { repairs: fromTable.repairs!, complete: true } : null;
  readOffTables.set(result, { success, repairs });
  return repairs;
}

/**
 * Repairs read off each result's table, by result (results are never changed in place): the batch
 * view's consensus asks for every failure's repairs each time results arrive, which searched every
 * table again, hundreds of times over a run (bench/README.md, "Speed round 4").
 */
const readOffTables = new WeakMap<CaseResult, { success: number; repairs: { repairs: CaseRepair[]; complete: boolean } | null }>();

/** The causal consensus over the failures whose repairs are known, and how many failures that is. */
export function pageConsensus(results: readonly (CaseResult | undefined)[], steps: readonly string[], success: number): { steps: ConsensusStep[]; searched: number; failures: number } {
  const failures = results.filter((r): r is AttributedCaseResult => r !== undefined && isAnalysedFailure(r));
  const known = failures.map((r) => caseRepairs(r, success)).filter((x) => x !== null);
  return { steps: causalConsensus(steps, known.map((k) => k.repairs.map((x) => x.fixed))), searched: known.length, failures: failures.length };
}

/** The key a coalition row is found by: its fixed steps in pipeline order. */
export function coalitionKey(fixed: readonly string[]): string {
  return JSON.stringify(fixed);
}
