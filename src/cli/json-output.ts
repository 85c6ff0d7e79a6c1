import type { BatchResult, CaseResult } from '../engine/types.ts';

/** The fields of a case the headless command prints (docs/formats.md, "Command output"); drill-down data stays out. */
export function caseForJson(r: CaseResult): Record<string, unknown> {
  const out: Record<string, unknown> = { id: r.id, players: r.players, method: r.method, failed: r.failed };
  if (r.error) {
    out.error = r.error;
    return out;
  }
  Object.assign(out, { vEmpty: r.vEmpty, vAll: r.vAll });
  if (r.shapley) {
    out.shapley = r.shapley;
    if (r.ci) out.ci = r.ci;
    Object.assign(out, { fixAlone: r.fixAlone, leaveOneOut: r.leaveOneOut, lastTouch: r.lastTouch ?? null });
  }
  Object.assign(out, { cost: r.cost, evaluations: r.evaluations, queries: r.queries ?? 0, permutations: r.permutations });
  if (r.estimator) out.estimator = r.estimator;
  if (r.stopReason) out.stopReason = r.stopReason;
  if (r.fixable !== undefined) out.fixable = r.fixable;
  if (r.interactions) out.interactions = r.interactions;
  if (r.mismatches) out.mismatches = r.mismatches;
  if (r.usage) out.usage = r.usage;
  return out;
}

/** The --json object; `extra` adds top-level fields after the batch (e.g. `compare`); `perCase` fields per case id (--replay's `replay` block). */
export function jsonReport(results: CaseResult[], batch: BatchResult, extra?: Record<string, unknown>, perCase?: ReadonlyMap<string, Record<string, unknown>>): string {
  return JSON.stringify({ cases: results.map((r) => (perCase?.has(r.id) ? { ...caseForJson(r), ...perCase.get(r.id) } : caseForJson(r))), batch, ...extra });
}
