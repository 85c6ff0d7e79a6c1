import type { BatchResult, CaseResult } from '../engine/types.ts';
import { isErrorResult } from '../engine/case-result.ts';
import { RESULT_FIELDS, resultFieldsOf, type ResultFieldSpec } from '../engine/result-fields.ts';

/**
 * The fields of a case the headless command prints (docs/formats.md, "Command output"), in the
 * field table's order (engine/result-fields.ts): an error prints only what names it, drill-down
 * data stays out, and a field a result may lack prints its `jsonAbsent` value when the table has one.
 */
export function caseForJson(r: CaseResult): Record<string, unknown> {
  const errored = isErrorResult(r);
  const out: Record<string, unknown> = {};
  for (const name of resultFieldsOf(errored ? 'error' : r.failed ? 'attributed' : 'passed')) {
    const field: ResultFieldSpec = RESULT_FIELDS[name];
    if (field.json === 'never' || (errored && field.json !== 'always')) continue;
    const value = r[name] ?? field.jsonAbsent;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The --json object; `extra` adds top-level fields after the batch (e.g. `compare`); `perCase` fields per case id (--replay's `replay` block). */
export function jsonReport(results: CaseResult[], batch: BatchResult, extra?: Record<string, unknown>, perCase?: ReadonlyMap<string, Record<string, unknown>>): string {
  return JSON.stringify({ cases: results.map((r) => (perCase?.has(r.id) ? { ...caseForJson(r), ...perCase.get(r.id) } : caseForJson(r))), batch, ...extra });
}
