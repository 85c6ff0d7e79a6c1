/**
 * What the Trends view shows, as the address carries it (`#view=trends&trends=week&trendsName=…&trendsTag=…`):
 * the periods (`--by` of the command), the pipeline by name (absent: the open study's) and a tag
 * the studies must have (absent: all).
 */
import { parseTrendGrouping, type TrendGrouping } from '../../engine/trends.ts';

export interface TrendSelection {
  by: string;
  name: string | null;
  tag: string | null;
}

export const DEFAULT_TREND_SELECTION: TrendSelection = { by: 'week', name: null, tag: null };

/** The grouping a selection names (an unknown one reads as weeks, as a stale link should). */
export function groupingOf(selection: TrendSelection): TrendGrouping {
  const grouping = parseTrendGrouping(selection.by);
  return 'problem' in grouping ? { by: 'week' } : grouping;
}

export function writeTrendSelection(selection: TrendSelection, params: URLSearchParams): void {
  params.set('trends', selection.by);
  if (selection.name !== null) params.set('trendsName', selection.name);
  if (selection.tag !== null) params.set('trendsTag', selection.tag);
}

/** The selection an address holds, or null when it names none. */
export function readTrendSelection(params: URLSearchParams): TrendSelection | null {
  const by = params.get('trends');
  if (by === null) return null;
  return { by: 'problem' in parseTrendGrouping(by) ? 'week' : by, name: params.get('trendsName'), tag: params.get('trendsTag') };
}
