import type { CaseResult } from './types.ts';
import { errorResult } from './case-result.ts';
import { PER_PLAYER_FIELDS } from './result-fields.ts';

/**
 * The first number of a case's result that is not finite, named by field and step (`shapley
 * "planner" is Infinity`), or null. Costs and values near the largest double overflow in sums and
 * differences; JSON would print them as null, so such a result is refused instead.
 * NaN in vEmpty/vAll is how error results mark unmeasured values, so only results without an
 * error are checked.
 */
export function nonFiniteField(result: CaseResult): string | null {
  if (result.error !== undefined) return null;
  const scalars: [string, number][] = [['vEmpty', result.vEmpty], ['vAll', result.vAll], ['cost', result.cost]];
  for (const [field, value] of scalars) if (!Number.isFinite(value)) return `${field} is ${value}`;
  for (const field of PER_PLAYER_FIELDS) {
    const record: Readonly<Record<string, number | readonly number[]>> | undefined = result[field];
    if (record === undefined) continue;
    for (const step of Object.keys(record)) {
      const entry = record[step];
      const values = typeof entry === 'number' ? [entry] : entry;
      for (const value of values) if (!Number.isFinite(value)) return `${field} "${step}" is ${value}`;
    }
  }
  return null;
}

/** `result`, or an error result when one of its numbers overflowed. */
export function refuseNonFinite(result: CaseResult): CaseResult {
  const problem = nonFiniteField(result);
  if (problem === null) return result;
  return errorResult(result.id, result.players, { method: result.method }, `case "${result.id}": the results overflow (${problem}): keep costs and metric values well within ±1e300`);
}
