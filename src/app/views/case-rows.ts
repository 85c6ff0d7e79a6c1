import type { CaseResult } from '../../engine/types.ts';
import { ownValue } from '../../engine/named-record.ts';

/** One row of the case list. */
export interface CaseRow {
  id: string;
  /** Position in the study, for stable ordering. */
  index: number;
  result?: CaseResult;
}

export type CaseStatus = 'failed' | 'passed' | 'error' | 'pending';

export function caseStatus(row: CaseRow): CaseStatus {
  if (!row.result) return 'pending';
  if (row.result.error !== undefined) return 'error';
  return row.result.failed ? 'failed' : 'passed';
}

const STATUS_ORDER: Record<CaseStatus, number> = { error: 0, failed: 1, pending: 2, passed: 3 };

/** Step sorts go either way: highest blame first (desc), or most negative first (asc). */
export type CaseSort = { by: 'status' } | { by: 'id' } | { by: 'step'; step: string; dir: 'asc' | 'desc' };

/**
 * Filters and orders the case list: failing (and broken) cases first by default, or by one step's
 * blame, highest or lowest first (cases without a value last either way). Ties keep the study's
 * order so the list never jumps between refreshes.
 */
export function orderCases(rows: readonly CaseRow[], filter: string, onlyFailing: boolean, sort: CaseSort): CaseRow[] {
  const needle = filter.trim().toLowerCase();
  const kept = rows.filter((row) => {
    if (needle !== '' && !row.id.toLowerCase().includes(needle)) return false;
    if (onlyFailing) {
      const status = caseStatus(row);
      return status === 'failed' || status === 'error';
    }
    return true;
  });
  const key = (row: CaseRow): number => {
    switch (sort.by) {
      case 'status':
        return STATUS_ORDER[caseStatus(row)];
      case 'id':
        return 0;
      case 'step': {
        const value = ownValue(row.result?.shapley, sort.step);
        if (value === undefined || !Number.isFinite(value)) return Number.POSITIVE_INFINITY;
        return sort.dir === 'asc' ? value : -value;
      }
    }
  };
  return kept.sort((a, b) => {
    const difference = key(a) - key(b);
    if (difference !== 0 && !Number.isNaN(difference)) return difference;
    if (sort.by === 'id') return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return a.index - b.index;
  });
}
