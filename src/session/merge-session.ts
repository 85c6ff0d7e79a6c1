import type { CaseResult } from '../engine/types.ts';
import type { Session } from './types.ts';

/** The fields a tab edits as a whole (results are merged per case instead). */
export const MERGED_FIELDS = ['name', 'status', 'fileName', 'pipeline', 'cases', 'games', 'settings', 'batch'] as const;
type MergedField = (typeof MERGED_FIELDS)[number];

/** Plain-data equality for session fields (identical references short-cut the comparison). */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Results of both, one per case: `preferred`'s result wins for a case both have. */
export function unionResults(others: readonly CaseResult[], preferred: readonly CaseResult[]): CaseResult[] {
  const byId = new Map(others.map((result) => [result.id, result]));
  for (const result of preferred) byId.set(result.id, result);
  return [...byId.values()];
}

/**
 * Three-way merge of a local session with the stored one after a refused (stale) save:
 * `base` is what this tab last read or wrote, `mine` its current copy, `theirs` the stored copy
 * another tab wrote since. A field changed on one side only takes that side's value; a field
 * changed differently on both sides is a conflict (returned by name, nothing merged), because
 * picking one would silently discard the other tab's work.
 */
export function mergeSessions(base: Session, mine: Session, theirs: Session): { merged: Session } | { conflicts: MergedField[] } {
  const conflicts: MergedField[] = [];
  const merged: Session = { ...theirs, results: unionResults(theirs.results, mine.results), updatedAt: mine.updatedAt };
  for (const field of MERGED_FIELDS) {
    const mineChanged = !sameValue(mine[field], base[field]);
    const theirsChanged = !sameValue(theirs[field], base[field]);
    if (mineChanged && theirsChanged && !sameValue(mine[field], theirs[field])) conflicts.push(field);
    else if (mineChanged) Object.assign(merged, { [field]: mine[field] });
  }
  return conflicts.length > 0 ? { conflicts } : { merged };
}
