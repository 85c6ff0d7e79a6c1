/**
 * Where the user is in a study: the view, the open case, and the case list's filter, sort and
 * scroll (kept across visits to a case, so going back finds the list as it was). The address
 * mirrors this state (see url-state.ts and UrlSync); nothing here knows about the analysis.
 */
import type { CaseSort } from '../views/case-rows.ts';
import { DEFAULT_SORT } from './url-state.ts';
import type { TrendSelection } from '../trends/trend-selection.ts';

export class Navigation {
  view = $state('batch');
  caseId = $state<string | null>(null);
  filter = $state('');
  onlyFailing = $state(false);
  sort = $state.raw<CaseSort>(DEFAULT_SORT);
  /** The stored session the open one is compared with (Compare view). */
  compareId = $state<string | null>(null);
  /** What the Trends view shows (its periods, pipeline and tag); null: the defaults. */
  trends = $state.raw<TrendSelection | null>(null);
  /** How far the case list was scrolled when a case was opened from it. */
  listScroll = 0;
  /** Rows of the list shown (it grows a page at a time). */
  listShown = $state(100);
  /** Bumped when focus should move to the shown view's heading (a shortcut, a study just opened). */
  focusRequest = $state(0);

  show(view: string, focus = false): void {
    this.view = view;
    if (focus) this.focusRequest++;
  }

  openCase(id: string): void {
    this.caseId = id;
    this.view = 'case';
  }

  sortBy(sort: CaseSort): void {
    this.sort = sort;
  }

  /** A new study: back to its batch view with a fresh list. */
  reset(): void {
    this.view = 'batch';
    this.caseId = null;
    this.filter = '';
    this.onlyFailing = false;
    this.sort = DEFAULT_SORT;
    this.compareId = null;
    this.trends = null;
    this.listScroll = 0;
    this.listShown = 100;
  }
}
