/**
 * What every view of an open study reads: the runner (analysis), the navigation (where the user
 * is), and the rows of the case list in its current filter and sort (also the order previous/next
 * case follow). Built once per open study by StudyView.
 */
import type { DefinitionSummary } from '../../pool/page/protocol.ts';
import type { Navigation } from '../navigation/navigation.svelte.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import type { CompareTarget } from '../compare/compare-target.svelte.ts';
import type { EarlierVersion } from '../compare/earlier-version.svelte.ts';
import type { TrendsState } from '../trends/trends-state.svelte.ts';
import type { PriceTable } from '../runs/price-table.svelte.ts';
import { orderCases, type CaseRow } from './case-rows.ts';

export class ViewContext {
  readonly runner: AnalysisRunner;
  readonly nav: Navigation;
  /** The study the open one is compared with (the Compare view); null where nothing can be stored. */
  readonly compare: CompareTarget | null;
  /** "Compare with an earlier version" (the Compare view); null where the page has none. */
  readonly earlier: EarlierVersion | null;
  /** The stored sessions' trends (the Trends view); null where nothing can be stored. */
  readonly trends: TrendsState | null;
  /** The page's model prices (the run view's too): the cost of the study's requests; null where the page has none. */
  readonly prices: PriceTable | null;

  ids: string[] = $derived.by(() => {
    const study = this.runner.study;
    return study ? [...study.cases.map((c) => c.id), ...study.games.map((g) => g.id)] : [];
  });
  rows: CaseRow[] = $derived.by(() => this.ids.map((id, index) => ({ id, index, result: this.runner.results[index] })));
  ordered: CaseRow[] = $derived.by(() => orderCases(this.rows, this.nav.filter, this.nav.onlyFailing, this.nav.sort));
  errorCount: number = $derived.by(() => this.runner.results.reduce((n, r) => n + (r?.error !== undefined ? 1 : 0), 0));
  selectedIndex: number = $derived.by(() => (this.nav.caseId === null ? -1 : this.ids.indexOf(this.nav.caseId)));
  summary: DefinitionSummary | null = $derived.by(() => (this.runner.definition.status === 'ready' ? this.runner.definition.summary : null));

  constructor(runner: AnalysisRunner, nav: Navigation, compare: CompareTarget | null = null, earlier: EarlierVersion | null = null, trends: TrendsState | null = null, prices: PriceTable | null = null) {
    this.runner = runner;
    this.nav = nav;
    this.compare = compare;
    this.earlier = earlier;
    this.trends = trends;
    this.prices = prices;
  }

  /** The case before or after the open one in the list's order (filter and sort), or null at an end. */
  neighbour(step: -1 | 1): string | null {
    const order = this.ordered;
    const at = order.findIndex((row) => row.id === this.nav.caseId);
    if (at === -1) return order[0]?.id ?? null;
    return order[at + step]?.id ?? null;
  }
}
